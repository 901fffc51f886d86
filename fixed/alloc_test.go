package fixed

import "testing"

// TestAllocs checks that every function runs without allocating, except
// those whose result is a new string or byte slice by design (String,
// MarshalText, Vec2.String) and the error path of Parse and UnmarshalText,
// which returns a new error.
func TestAllocs(t *testing.T) {
	a, b, c := FromRatio(-7, 3), FromInt(5), Half
	v, w := V2(FromInt(3), FromInt(-4)), V2(One, FromInt(2))
	ang := AngleFromTurns(1, 7)
	var buf [64]byte
	copy(buf[:], "12.375")
	var sinkF F
	var sinkA Angle
	var sinkV Vec2
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
		{"Mul", func() { sinkF = a.Mul(b) }},
		{"Div", func() { sinkF = a.Div(b) }},
		{"Mod", func() { sinkF = a.Mod(b) }},
		{"Neg", func() { sinkF = a.Neg() }},
		{"Abs", func() { sinkF = a.Abs() }},
		{"Sign", func() { sinkI = int64(a.Sign()) }},
		{"Clamp", func() { sinkF = Clamp(a, b, c) }},
		{"Floor", func() { sinkF = a.Floor() }},
		{"Ceil", func() { sinkF = a.Ceil() }},
		{"Round", func() { sinkF = a.Round() }},
		{"Lerp", func() { sinkF = Lerp(a, b, c) }},
		{"Sqrt", func() { sinkF = Sqrt(b) }},
		{"Parse", func() { sinkF, _ = Parse("-1234.5678e-2") }},
		{"UnmarshalText", func() { _ = sinkF.UnmarshalText(buf[:6]) }},
		{"Sin", func() { sinkF = Sin(ang) }},
		{"Cos", func() { sinkF = Cos(ang) }},
		{"Atan2", func() { sinkA = Atan2(a, b) }},
		{"AngleFromTurns", func() { sinkA = AngleFromTurns(1, 3) }},
		{"AngleFromDegrees", func() { sinkA = AngleFromDegrees(a) }},
		{"Angle.Degrees", func() { sinkF = ang.Degrees() }},
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
		{"FromAngle", func() { sinkV = FromAngle(ang) }},
		{"Vec2.Lerp", func() { sinkV = v.Lerp(w, c) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, c.f); n != 0 {
				t.Errorf("%s allocates %v times per call", c.name, n)
			}
		})
	}
	_, _, _, _, _ = sinkF, sinkA, sinkV, sinkI, sinkFl
}
