// Command v4t resolves Variability4TOSCA templates, following OpenTOSCA
// Vintner 0.1.8, and runs the conformance suites.
//
// main.go is the only place that exits the process; it also enforces the
// hard --timeout, because a running solve cannot be interrupted (style.md
// §4, solver.md §4.6). Everything else lives in run, which tests call
// in-process.
package main

import (
	"fmt"
	"os"
	"time"
)

// ownProcess is set when v4t runs as a command rather than inside tests, so
// that process-wide settings (batchGC) stay out of the test binaries.
var ownProcess bool

func main() {
	ownProcess = true
	args := os.Args[1:]
	timeout := hardTimeout(args)
	done := make(chan int, 1)
	go func() { done <- run(args, os.Stdin, os.Stdout, os.Stderr) }()
	var expired <-chan time.Time
	if timeout > 0 {
		expired = time.After(timeout)
	}
	select {
	case code := <-done:
		os.Exit(code)
	case <-expired:
		fmt.Fprintf(os.Stderr, "error: timeout after %s\n", timeout)
		os.Exit(exitInternal)
	}
}
