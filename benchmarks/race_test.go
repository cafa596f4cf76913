//go:build race

package benchmarks

// raceEnabled relaxes timing assertions under the race detector, which
// slows the solver down many times.
const raceEnabled = true
