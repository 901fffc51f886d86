package fixed

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/rollstep/rollstep/fixed/internal/gen"
)

// TestGeneratedTables regenerates tables.go in process and compares it
// with the committed file, so the tables cannot drift from the generator.
// The generator is pure math/big, so this runs on every target.
func TestGeneratedTables(t *testing.T) {
	want, err := gen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables.go")
	if err != nil {
		t.Skip("cannot read tables.go on this target:", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("tables.go differs from the generator's output; run go generate ./fixed/")
	}
	if !bytes.HasPrefix(got, []byte("// Code generated ")) || !bytes.Contains(got, []byte(" DO NOT EDIT.\n")) {
		t.Errorf("tables.go lacks the standard generated-code header")
	}
}

// TestTablesAgainstFloat64 checks the committed tables and constants
// against package math, an oracle independent of the generator's series.
func TestTablesAgainstFloat64(t *testing.T) {
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %v, want %v (±%g)", name, got, want, tol)
		}
	}
	near("piQ40", float64(piQ40)/0x1p40, math.Pi, 0x1p-41)
	for i := 0; i <= sinSteps; i++ {
		x := float64(i) / sinSteps * math.Pi / 2
		near("sinTable", float64(sinTable[i])/(1<<sinFracBits), math.Sin(x), 0x1p-41+0x1p-52)
	}
	for i := sinSteps + 1; i < len(sinTable); i++ {
		if sinTable[i] != 0 {
			t.Errorf("sinTable[%d] = %d, want 0 padding", i, sinTable[i])
		}
	}
	for i := 0; i <= atanSteps; i++ {
		want := math.Atan(float64(i)/atanSteps) / (2 * math.Pi) * (1 << (32 + atanExtraBits))
		near("atanTable", float64(atanTable[i]), want, 0.5+1e-6)
	}
	for i, s := range sqrtTable[:193] {
		near("sqrtTable", float64(s), math.Sqrt(float64(i)+64)*(1<<27), 0.5+1e-6)
	}
}
