// Package suite runs conformance cases discovered from directory trees, the
// one runner behind both `go test` and `v4t test` (style.md §5.3).
//
// It owns:
//   - discovery (discover.go): which directories are cases, following the
//     reference runner's directory rules (variability.md §14: dot
//     directories, ---disabled, ---only);
//   - the Vintner case format and its comparison (vintner.go; variability.md
//     §13, §14), including lodash-style merge and JS replaceAll (js.go);
//   - a pluggable Runner per case format, so that the TosKeriser completion
//     and Solution-Descriptor formats can be added without touching discovery
//     (toskeriser.go runs the TosKeriser completion cases through
//     resolve/complete, sd.go the Solution-Descriptor cases through
//     resolve/sd; unsupported.go holds the stand-in of a format not
//     supported yet);
//   - parallel execution with results in a stable order (this file);
//   - the known-failures list behind the conformance ratchet (known.go);
//   - a plain unified diff for failure reports (diff.go).
package suite

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Case is one discovered case.
type Case struct {
	// Path names the case in reports and in the known-failures list: the
	// base name of the directory given to Discover, then the slash-separated
	// path below it, e.g. "vintner/pruning/alpha-default".
	Path string
	// Dir is the case directory on disk, joined to the directory given to
	// Discover.
	Dir string
	// Runner runs the case.
	Runner Runner
}

// Outcome is what running one case yields.
type Outcome struct {
	Pass bool
	// Reason says in one line why the case failed; empty when it passed.
	Reason string
	// Diff optionally shows the difference between expected and actual
	// documents, as a unified diff.
	Diff string
}

// Result is the outcome of one case.
type Result struct {
	Case Case
	Outcome
}

// Runner knows one case format.
type Runner interface {
	// Format names the format, e.g. "vintner".
	Format() string
	// Detect reports whether the directory looks like a case of this format.
	Detect(d DirInfo) bool
	// Run runs one case. It should honour ctx between steps.
	Run(ctx context.Context, c Case) Outcome
}

// Options tune Run.
type Options struct {
	// Jobs bounds how many cases run at once; zero or less means GOMAXPROCS.
	Jobs int
	// CaseTimeout, when positive, sets a deadline on each case's context.
	// (A running solve cannot be interrupted; the deadline is honoured
	// between steps.)
	CaseTimeout time.Duration
	// Progress, if set, is called after each case with the number of
	// finished cases; calls are serialised.
	Progress func(done, total int)
}

// DefaultRunners returns the runners for every known format, most specific
// first: discovery asks them in this order and the first that detects a
// directory gets it.
func DefaultRunners() []Runner {
	return []Runner{
		toskeriser,
		solutionDescriptor,
		&Vintner{},
	}
}

// Run runs the cases in parallel and returns their results in the order of
// cases.
func Run(ctx context.Context, cases []Case, opts Options) []Result {
	results := make([]Result, len(cases))
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs > len(cases) {
		jobs = len(cases)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = Result{Case: cases[i], Outcome: runOne(ctx, cases[i], opts.CaseTimeout)}
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(cases))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runOne runs a case, turning a panic or an expired deadline into a failed
// outcome, and keeps the reason on one line.
func runOne(ctx context.Context, c Case, timeout time.Duration) (out Outcome) {
	if err := ctx.Err(); err != nil {
		return Outcome{Reason: "not run: " + err.Error()}
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Reason: fmt.Sprintf("internal error: panic: %v", r), Diff: string(debug.Stack())}
		}
		if !out.Pass && timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			out.Reason = fmt.Sprintf("timeout after %s (%s)", timeout, out.Reason)
		}
		out.Reason = oneLine(out.Reason)
	}()
	return c.Runner.Run(ctx, c)
}

// oneLine escapes newlines so that a reason stays on one line (style.md §3.4).
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", `\r`)
	return strings.ReplaceAll(s, "\n", `\n`)
}

// Counts returns the number of passed and failed results.
func Counts(results []Result) (passed, failed int) {
	for _, r := range results {
		if r.Pass {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}
