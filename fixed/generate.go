package fixed

//go:generate go run ./internal/gen/fixedgen -o tables.go
