package batch

import (
	"context"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

// Options tune Execute.
type Options struct {
	// Jobs is the number of runs resolved at once (0: the number of CPUs).
	Jobs int
	// Resolve is the base of every run's resolver options; a run's option
	// set is appended to its Overrides.
	Resolve resolve.Options
	// Emit, when set, is called for each successful run, in the worker
	// that resolved it, with write, which writes the resolved document to
	// a writer (as v4t resolve writes it); an error fails the run. The
	// document goes straight to its file that way rather than first into
	// memory: a batch of large templates made a buffer the size of every
	// run's output (17 MB over the 256-run space of
	// benchmarks/scaling.sh), and its copy.
	Emit func(r *Run, write func(io.Writer) error) error
	// Progress, when set, is called after each finished run with the
	// number of finished and failed runs; calls do not overlap.
	Progress func(done, failed, total int)
	// Warn, when set, receives each warning of a run about malformed input
	// that the resolver accepts (resolve.Options.Warn), in the worker
	// that resolved the run; calls may overlap. Resolve.Warn, when set,
	// receives them too, and every row keeps its own (Row.Warnings).
	Warn func(r *Run, d *diag.Diagnostic)
}

// Status is the outcome of a run.
type Status uint8

// The statuses of a run.
const (
	NotRun Status = iota // the batch was interrupted first
	OK
	Failed
)

func (s Status) String() string { return [...]string{"not run", "ok", "error"}[s] }

// Row is the outcome of one run.
type Row struct {
	Run    *Run
	Status Status
	// Err is why the run failed.
	Err error
	// Report is what the result contains (when Status is OK).
	Report resolve.Report
	// Duration is the run's wall time: resolving (including waiting for
	// the solver, which runs one solve at a time), writing the YAML and
	// Emit.
	Duration time.Duration
	// Stages are the durations of a resolved run's stages
	// (resolve.Result.Timings), Emit that of writing its YAML and Emit;
	// Solver is the solver's work (resolve.Result.Solver). Zero for a run
	// that failed.
	Stages resolve.Timings
	Emit   time.Duration
	Solver resolve.SolverStats
	// Warnings are the run's distinct warnings (resolve.Options.Warn), as
	// one-line texts (file:line:col: message), in the order they were
	// found; a failed run keeps those found before it failed.
	Warnings []string
	// texts holds the cells of a row read back from a CSV summary, by
	// column; nil for every other row.
	texts map[string]string
}

// ErrorText is the run's error on one line: file:line:col: message.
func (r *Row) ErrorText() string {
	if r.Err == nil {
		return ""
	}
	if t, ok := r.Err.(textError); ok {
		return string(t)
	}
	if d, ok := diag.As(r.Err); ok {
		return d.Line()
	}
	return oneLine(r.Err.Error())
}

// Result is the outcome of a batch: one row per run, in the space's order.
type Result struct {
	Space *Space
	Rows  []Row
	// Interrupted is set when the context ended before every run finished.
	Interrupted bool
}

// Counts returns the number of successful, failed and unfinished runs.
func (r *Result) Counts() (ok, failed, notRun int) {
	for _, row := range r.Rows {
		switch row.Status {
		case OK:
			ok++
		case Failed:
			failed++
		default:
			notRun++
		}
	}
	return
}

// SolverWork counts how the resolved runs of a batch were solved.
type SolverWork struct {
	// Resolved runs: Settled by propagation alone, by OwnSearch without
	// a SAT call, and with SAT calls (SATCalls of them in all).
	Resolved, Settled, OwnSearch, SAT, SATCalls int
}

// SolverWork counts how the resolved runs were solved (Row.Solver).
func (r *Result) SolverWork() SolverWork {
	var w SolverWork
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Status != OK {
			continue
		}
		w.Resolved++
		switch s := row.Solver; {
		case s.Solves > 0:
			w.SAT++
			w.SATCalls += s.Solves
		case s.OwnSearches > 0:
			w.OwnSearch++
		default:
			w.Settled++
		}
	}
	return w
}

// WarnedRuns returns the number of runs that had warnings.
func (r *Result) WarnedRuns() int {
	n := 0
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.texts != nil {
			// A row read back from a CSV summary: its count.
			if c := row.texts["warnings"]; c != "" && c != "0" {
				n++
			}
		} else if len(row.Warnings) > 0 {
			n++
		}
	}
	return n
}

// Execute resolves every run of a space, Jobs at a time. A failing run fails
// only its own row. When ctx ends, no new run starts; runs that the
// cancellation cut short, and those never started, are NotRun. The runs
// load each template once (resolve.Templates) unless o.Resolve.Templates
// is set: the space's files are taken not to change during the batch.
func Execute(ctx context.Context, s *Space, o Options) *Result {
	if o.Resolve.Templates == nil {
		o.Resolve.Templates = resolve.NewTemplates()
		for _, r := range s.Runs {
			o.Resolve.Templates.Expect(r.Input.TemplatePath, o.Resolve.AllowOutside, 1)
		}
	}
	res := &Result{Space: s, Rows: make([]Row, len(s.Runs))}
	for i, r := range s.Runs {
		res.Rows[i].Run = r
	}
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	jobs = min(jobs, max(len(s.Runs), 1))
	sch := newSchedule(s, nil)
	var mu sync.Mutex
	done, failed := 0, 0
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The worker's runs hand their memory on, each to the
			// next (resolve.Scratch): a run's document is written
			// (Emit) before the next run starts, and its row keeps
			// only strings.
			scratch := &resolve.Scratch{}
			for ctx.Err() == nil {
				i, load, ok := sch.take()
				if !ok {
					return
				}
				row := &res.Rows[i]
				var prepare func()
				if load != nil {
					prepare = func() {
						o.Resolve.Templates.Prepare(row.Run.Input.TemplatePath, o.Resolve.AllowOutside)
						sch.loaded(load)
					}
				}
				runOne(ctx, row, o, prepare, scratch)
				if row.Status == NotRun {
					continue
				}
				mu.Lock()
				done++
				if row.Status == Failed {
					failed++
				}
				if o.Progress != nil {
					o.Progress(done, failed, len(s.Runs))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		_, _, notRun := res.Counts()
		res.Interrupted = notRun > 0
	}
	return res
}

// runOne resolves one run into its row. prepare, when set, loads the run's
// template into the cache first (its time is the run's). The run takes
// memory from scratch that the worker's run before it left there.
func runOne(ctx context.Context, row *Row, o Options, prepare func(), scratch *resolve.Scratch) {
	if ctx.Err() != nil {
		return
	}
	start := time.Now()
	if prepare != nil {
		prepare()
	}
	opts := o.Resolve
	opts.Overrides = append(append([]resolve.Assignment(nil), o.Resolve.Overrides...), row.Run.Options...)
	opts.Report = true
	opts.Dump = nil
	opts.Scratch = scratch
	// The run resolves in this goroutine only, so its warnings come one
	// at a time.
	opts.Warn = func(d *diag.Diagnostic) {
		if line := oneLine(d.Line()); !slices.Contains(row.Warnings, line) {
			row.Warnings = append(row.Warnings, line)
		}
		if o.Resolve.Warn != nil {
			o.Resolve.Warn(d)
		}
		if o.Warn != nil {
			o.Warn(row.Run, d)
		}
	}
	res, err := resolve.Resolve(ctx, row.Run.Input, opts)
	if err == nil {
		row.Report = *res.Report
		row.Stages, row.Solver = res.Timings, res.Solver
		if o.Emit != nil {
			emitted := time.Now()
			err = o.Emit(row.Run, func(w io.Writer) error { return yamlsrc.Write(w, res.Doc) })
			row.Emit = time.Since(emitted)
		}
	}
	row.Duration = time.Since(start)
	switch {
	case err == nil:
		row.Status = OK
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		row.Report = resolve.Report{}
	default:
		row.Status, row.Err = Failed, err
		row.Report = resolve.Report{}
	}
	if row.Status != OK {
		row.Stages, row.Emit, row.Solver = resolve.Timings{}, 0, resolve.SolverStats{}
	}
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", `\r`)
	return strings.ReplaceAll(s, "\n", `\n`)
}
