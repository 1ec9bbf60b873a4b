//go:build race

package gitstore

// raceEnabled shortens the slowest tests under the race detector, which
// makes hashing and compression about ten times slower.
const raceEnabled = true
