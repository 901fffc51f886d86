// Package fixed is deterministic fixed-point math for game simulations.
//
// Floating point is not deterministic across the machines a match runs on:
// Go fuses x*y+z into one FMA instruction on arm64 and on amd64 built with
// GOAMD64=v3, math.Exp and math.Pow pick code paths at run time, and
// out-of-range conversions differ between 386 and amd64. Two peers that run
// the same step over floats can drift apart. Package fixed uses only integer
// arithmetic, so every function returns bit-identical results on every
// target; a golden test in CI proves it on amd64 (v1 and v3), 386, arm64 and
// wasm.
package fixed
