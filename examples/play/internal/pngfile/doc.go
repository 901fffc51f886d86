// Package pngfile writes an image to a PNG file, as the examples'
// -screenshot flags do with what their window drew.
package pngfile
