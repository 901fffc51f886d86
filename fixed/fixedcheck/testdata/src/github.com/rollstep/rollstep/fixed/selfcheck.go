package fixed

// Package fixed is not exempt from the analyzer.

func square(a F) F {
	return a * a // want `^multiplying two fixed\.F values with \* gives a wrongly scaled result: use a\.Mul\(a\)$`
}
