package fixed

import "testing"

// TestAllocs checks that every function runs without allocating, except
// those whose result is a new string or byte slice by design (String,
// ExactString, MarshalText, Vec2.String, Vec3.String) and the error path of
// Parse, which returns a *ParseError. AppendText is their allocation-free
// form.
func TestAllocs(t *testing.T) {
	a, b, c := FromRatio(-7, 3), FromInt(5), Half
	v, w := V2(FromInt(3), FromInt(-4)), V2(One, FromInt(2))
	v3, w3 := V3(One, FromInt(2), FromInt(-3)), V3(Half, 0, FromInt(7))
	ang := AngleFromTurns(1, 7)
	var buf [64]byte
	copy(buf[:], "12.375")
	var sinkF F
	var sinkA Angle
	var sinkV Vec2
	var sinkV3 Vec3
	var sinkI int64
	var sinkFl float64
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"FromInt", func() { sinkF = FromInt(sinkI) }},
		{"FromRaw", func() { sinkF = FromRaw(sinkI) }},
		{"Raw", func() { sinkI = a.Raw() }},
		{"FromRatio", func() { sinkF = FromRatio(7, 3) }},
		{"Int", func() { sinkI = a.Int() }},
		{"Float64", func() { sinkFl = a.Float64() }},
		{"FromFloat64Unsafe", func() { sinkF = FromFloat64Unsafe(sinkFl) }},
		{"Mul", func() { sinkF = a.Mul(b) }},
		{"Div", func() { sinkF = a.Div(b) }},
		{"Mod", func() { sinkF = a.Mod(b) }},
		{"Neg", func() { sinkF = a.Neg() }},
		{"Abs", func() { sinkF = a.Abs() }},
		{"Sign", func() { sinkI = int64(a.Sign()) }},
		{"Min", func() { sinkF = Min(a, b) }},
		{"Max", func() { sinkF = Max(a, b) }},
		{"Clamp", func() { sinkF = Clamp(a, b, c) }},
		{"Floor", func() { sinkF = a.Floor() }},
		{"Ceil", func() { sinkF = a.Ceil() }},
		{"Round", func() { sinkF = a.Round() }},
		{"Lerp", func() { sinkF = Lerp(a, b, c) }},
		{"Sqrt", func() { sinkF = Sqrt(b) }},
		{"AppendText", func() { _, _ = a.AppendText(buf[:0]) }},
		{"Parse", func() { sinkF, _ = Parse("-1234.5678e-2") }},
		{"UnmarshalText", func() { _ = sinkF.UnmarshalText(buf[:6]) }},
		{"Sin", func() { sinkF = Sin(ang) }},
		{"Cos", func() { sinkF = Cos(ang) }},
		{"SinCos", func() { sinkF, _ = SinCos(ang) }},
		{"Atan2", func() { sinkA = Atan2(a, b) }},
		{"AngleFromTurns", func() { sinkA = AngleFromTurns(1, 3) }},
		{"AngleFromDegrees", func() { sinkA = AngleFromDegrees(a) }},
		{"AngleFromRadians", func() { sinkA = AngleFromRadians(a) }},
		{"Angle.Turns", func() { sinkF = ang.Turns() }},
		{"Angle.Degrees", func() { sinkF = ang.Degrees() }},
		{"Angle.Radians", func() { sinkF = ang.Radians() }},
		{"V2", func() { sinkV = V2(a, b) }},
		{"Vec2.Add", func() { sinkV = v.Add(w) }},
		{"Vec2.Sub", func() { sinkV = v.Sub(w) }},
		{"Vec2.Neg", func() { sinkV = v.Neg() }},
		{"Vec2.Scale", func() { sinkV = v.Scale(c) }},
		{"Vec2.Dot", func() { sinkF = v.Dot(w) }},
		{"Vec2.Cross", func() { sinkF = v.Cross(w) }},
		{"Vec2.LengthSq", func() { sinkF = v.LengthSq() }},
		{"Vec2.Length", func() { sinkF = v.Length() }},
		{"Vec2.Distance", func() { sinkF = v.Distance(w) }},
		{"Vec2.Normalize", func() { sinkV = v.Normalize() }},
		{"Vec2.ClampLength", func() { sinkV = v.ClampLength(c) }},
		{"Vec2.Rotate", func() { sinkV = v.Rotate(ang) }},
		{"Vec2.Angle", func() { sinkA = v.Angle() }},
		{"FromAngle", func() { sinkV = FromAngle(ang) }},
		{"Vec2.Lerp", func() { sinkV = v.Lerp(w, c) }},
		{"V3", func() { sinkV3 = V3(a, b, c) }},
		{"Vec3.Add", func() { sinkV3 = v3.Add(w3) }},
		{"Vec3.Sub", func() { sinkV3 = v3.Sub(w3) }},
		{"Vec3.Neg", func() { sinkV3 = v3.Neg() }},
		{"Vec3.Scale", func() { sinkV3 = v3.Scale(c) }},
		{"Vec3.Dot", func() { sinkF = v3.Dot(w3) }},
		{"Vec3.Cross", func() { sinkV3 = v3.Cross(w3) }},
		{"Vec3.LengthSq", func() { sinkF = v3.LengthSq() }},
		{"Vec3.Length", func() { sinkF = v3.Length() }},
		{"Vec3.Distance", func() { sinkF = v3.Distance(w3) }},
		{"Vec3.Normalize", func() { sinkV3 = v3.Normalize() }},
		{"Vec3.ClampLength", func() { sinkV3 = v3.ClampLength(c) }},
		{"Vec3.Lerp", func() { sinkV3 = v3.Lerp(w3, c) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, c.f); n != 0 {
				t.Errorf("%s allocates %v times per call", c.name, n)
			}
		})
	}
	_, _, _, _, _, _ = sinkF, sinkA, sinkV, sinkV3, sinkI, sinkFl
}
