// Package lifecycle holds the parts of a match's life cycle that every
// front end runs the same way, over its own engine: for now the agreed
// end of match (End). The front ends wrap its errors and raise their own
// events.
package lifecycle
