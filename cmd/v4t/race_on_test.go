//go:build race

package main

// raceEnabled reports whether the tests run under the race detector, which
// makes the child processes of v4t bench many times slower.
const raceEnabled = true
