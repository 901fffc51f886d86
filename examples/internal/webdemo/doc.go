// Package webdemo is what the examples' browser builds share: building a
// game command for GOOS=js GOARCH=wasm into a site directory with its
// page and Go's wasm loader, serving that site with rollstep's lobby on
// one port, and, for their tests, a headless chromium set up to play it.
package webdemo
