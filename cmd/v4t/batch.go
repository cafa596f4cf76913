package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"v4t/resolve"
	"v4t/resolve/batch"
)

func batchCommand() *command {
	return &command{
		name:    "batch",
		summary: "resolve every combination of a configuration space in parallel",
		usage: "v4t batch SPACE.yaml|- [-j N] [--shard K/N|auto[/N]] [--out DIR] [--format table|csv|json] [--output FILE] [--no-timings] [--stages] [--commands] [--allow-outside] [--force]\n" +
			"       v4t batch merge SUMMARY... [--format csv|json|table] [--output FILE] [--no-timings]",
		help: `Batch reads a space file that lists templates, preset sets, input sets and
option sets, and resolves every combination of one of each (a run), N runs
at a time. Paths in the space file are relative to it; a space read from
standard input (v4t batch -) has its paths relative to the working
directory.

  templates: [template.yaml]        # one or more
  presets: [[], [small], [large]]   # preset sets, applied in order
  inputs:                           # input sets: an inputs file, or a map
    - inputs.yaml
    - {backup: [false, true]}       # a list of values: one run per value
  options:                          # option sets (the --option overrides)
    - {mode: [manual, semantic-loose], optimization_topology: [false, min, max]}

A list of values expands to the cross product over the keys of its set;
write [[a, b]] for a list that is one value. Runs are numbered run-001,
run-002, ... in the order templates, preset sets, input sets, option sets,
so the same space always gives the same ids and rows. The environment
variables of the reference are not read: the space alone decides.

A space file may also be a list of such spaces (maps with the same keys),
so that each template has its own presets and inputs: the runs of the
first space come first and the ids count on across the list.

The summary has one row per run: its presets, inputs, options, status ("ok"
or the error with its position), present nodes, present relations
(source.requirement->target), the total weight of the present nodes,
whether the result was unique (no: the tie-break chose it), the number of
its distinct warnings (in JSON, their texts) and its wall time in
milliseconds (--no-timings leaves it out, so that the same space gives the
same bytes). A failing run never stops the others, and the exit
status is 0 when every run ran, whatever its status.

--stages adds to the row of each resolved run where its time went and
what its solving took: parse_ms, enrich_ms, graph_ms, encode_ms,
solve_ms, transform_ms and emit_ms (writing its --out file), to the
microsecond (--no-timings leaves them out), and sat_calls, its calls to
the SAT solver (gophersat), and own_searches, the independent parts that
v4t's own search optimised; a run with neither was settled by unit
propagation alone. Standard error then counts the resolved runs settled
by propagation, by v4t's own search and with SAT calls.

--commands prints, instead of running the space, the v4t resolve command
line of each run (with --output DIR/<result file> when --out is given), to
check a row or time the runs one by one.

--allow-outside lets every run's imports and side files leave its
template's directory tree, as v4t resolve --allow-outside does.

A run's warnings about malformed input that v4t, like the reference,
accepts (README, "Malformed input") go to standard error as "warning:
RUN-ID: FILE:LINE:COL: message", each distinct warning once, with the
first run that had it, and the last line counts the runs that had any.
Among them are the names the reference ignores: an input the template does
not declare, an unknown option, at the key in the space file.

--out DIR writes each result to DIR/RUN-ID-TEMPLATE-PRESETS.yaml,
atomically: TEMPLATE is the template's file name without .yaml, PRESETS
the preset set joined by + or "defaults" (run-007-shop-static+large.yaml;
characters other than letters, digits and ._- become _, and the part after
the run id is cut to 100 characters). The file of a failing run is
removed. DIR must be empty or new: --force writes into a non-empty DIR,
replacing (removing first) the result files in it (run-NNN*.yaml; for a
shard, those of its own runs) and keeping every other file.

A progress bar goes to standard error when it is a terminal; when it is a
file or a pipe, a line every 5 seconds: "batch: 120 of 200 runs, 0:12
elapsed, about 0:08 left". Ctrl-C starts no new run, keeps the finished
results, prints the summary with the other runs "not run" and exits with
status 3.

--shard K/N runs shard K of N only, so that N machines share a space: the
runs whose position i (from 0) in the order above has i mod N = K-1,
under the ids of the whole space. --out and --commands keep to the shard.
--shard auto reads K and N from the job engine: a Kubernetes Indexed Job
sets JOB_COMPLETION_INDEX (from 0) but not the count, so write --shard
auto/N (N: the Job's completions) or set V4T_SHARD_COUNT; a Slurm job
array sets SLURM_ARRAY_TASK_ID, _MIN, _COUNT and _STEP, and K is
(ID-MIN)/STEP+1 whatever the --array offset. The CSV summary of a shard
adds the columns shard, space_runs and space_digest (the JSON summary,
fields of those names): what merge checks the shards against.

v4t batch merge SUMMARY... reads the CSV or JSON summaries of the shards
(- reads one from standard input) and writes the summary of the whole
space, rows sorted by run id: from --no-timings shards, the bytes one v4t
batch --no-timings writes. It keeps the ms column when every summary has
it (--no-timings drops it), and the --stages columns when every summary
has them, and writes the format of its inputs, or
--format table (or csv, from JSON). It fails on missing or duplicated run
ids, naming them, on mixed formats and on shards of different spaces. A
space file named merge is ./merge.`,
		example: "v4t batch testdata/batch/motivation.yaml --out results --format csv --output summary.csv\n" +
			"v4t batch testdata/batch/motivation.yaml --stages --format csv --output stages.csv\n" +
			"v4t batch testdata/batch/motivation.yaml --shard 1/2 --no-timings --format csv --output shard-1.csv\n" +
			"v4t batch testdata/batch/motivation.yaml --shard 2/2 --no-timings --format csv --output shard-2.csv\n" +
			"v4t batch merge shard-1.csv shard-2.csv --output summary.csv",
		setup: setupBatch,
	}
}

func setupBatch(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	var jobs int
	var out, format, output, shard string
	var noTimings, stages, commands, allowOutside, force bool
	fs.IntVarP(&jobs, "jobs", "j", 0, "resolve `N` runs at once (default: the number of CPUs)")
	fs.StringVar(&shard, "shard", "", "run shard `K/N` of the space only; auto or auto/N: the shard of a Kubernetes Indexed Job or Slurm job array")
	fs.StringVar(&out, "out", "", "write each result to `DIR`/<run-id>-<template>-<presets>.yaml")
	choiceVar(fs, &format, "format", "table", "summary `FORMAT`: %s", "table", "csv", "json")
	fs.StringVarP(&output, "output", "o", "", "write the summary to `FILE` (default: standard output)")
	fs.BoolVar(&noTimings, "no-timings", false, "leave the milliseconds out of the summary")
	fs.BoolVar(&stages, "stages", false, "add each resolved run's stage times and solver work to the summary")
	fs.BoolVar(&commands, "commands", false, "print the v4t resolve command line of each run instead of running them")
	fs.BoolVar(&allowOutside, "allow-outside", false, "let the templates' imports and side files leave their directory trees")
	fs.BoolVar(&force, "force", false, "write into a non-empty --out DIR, replacing the result files (run-NNN*.yaml) in it")
	return func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 && args[0] == "merge" {
			return mergeSummaries(e, fs, args[1:], format, output, noTimings)
		}
		if len(args) != 1 {
			return e.usage("batch", "expected one SPACE file")
		}
		if jobs < 0 {
			return e.usage("batch", "--jobs must not be negative")
		}
		write := summaryWriters[format]
		var sh batch.Shard
		var err error
		if fs.Changed("shard") {
			if sh, err = batch.ParseShard(shard, e.lookupEnv); err != nil {
				return e.usage("batch", err.Error())
			}
		}
		var space *batch.Space
		if args[0] == "-" {
			// The space from standard input: its paths are relative to
			// the working directory.
			data, err := e.readStdin()
			if err != nil {
				return e.fail("batch", err)
			}
			if space, err = batch.LoadSpaceData(data, stdinName); err != nil {
				return e.fail("batch", err)
			}
		} else {
			if err := readable(args[0]); err != nil {
				return e.fail("batch", err)
			}
			if space, err = batch.LoadSpace(args[0]); err != nil {
				return e.fail("batch", err)
			}
		}
		space = space.Select(sh)
		if commands {
			var b strings.Builder
			for _, r := range space.Runs {
				b.WriteString("v4t resolve")
				args := r.ResolveArgs()
				if allowOutside {
					args = append(args, "--allow-outside")
				}
				if out != "" {
					args = append(args, "--output", filepath.Join(out, r.FileName()))
				}
				for _, a := range args {
					b.WriteString(" " + shellQuote(a))
				}
				b.WriteString("\n")
			}
			if err := writeOutput(e, output, []byte(b.String())); err != nil {
				return e.fail("batch", err)
			}
			return exitOK
		}
		if out != "" {
			if code := prepareOut(e, out, force, space); code != exitOK {
				return code
			}
		}
		if ownProcess {
			batchRunsGC(len(space.Runs), jobs, largestTemplate(space.Runs))
			var stop context.CancelFunc
			ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
		}
		o := batch.Options{Jobs: jobs, Resolve: resolve.Options{Debug: e.g.debug, AllowOutside: allowOutside}}
		if out != "" {
			o.Emit = func(r *batch.Run, write func(io.Writer) error) error {
				return writeFileAtomicWith(filepath.Join(out, r.FileName()), write)
			}
		}
		progress := startBatchProgress(e.stderr, len(space.Runs))
		o.Progress = progress.update
		res := batch.Execute(ctx, space, o)
		progress.finish()
		printRunWarnings(e, res)
		warned := res.WarnedRuns()
		if out != "" {
			for _, row := range res.Rows {
				if row.Status == batch.Failed {
					if err := os.Remove(filepath.Join(out, row.Run.FileName())); err != nil && !os.IsNotExist(err) {
						return e.fail("batch", err)
					}
				}
			}
		}
		// Written as it is made, not first into memory: a summary of
		// large templates' runs is megabytes (a table's padding), whose
		// fresh pages took longer than writing them, at the batch's end.
		if err := writeOutputWith(e, output, func(w io.Writer) error {
			return write(res, w, batch.SummaryOptions{Timings: !noTimings, Stages: stages})
		}); err != nil {
			return e.fail("batch", err)
		}
		ok, failed, notRun := res.Counts()
		if stages {
			printSolverWork(e, res)
		}
		withWarnings := ""
		if warned > 0 {
			withWarnings = fmt.Sprintf(", %d with warnings", warned)
		}
		if res.Interrupted {
			fmt.Fprintf(e.stderr, "interrupted: %d of %d runs finished (%d ok, %d failed%s), %d not run\n", ok+failed, len(res.Rows), ok, failed, withWarnings, notRun)
			return exitInternal
		}
		if sh.N > 0 {
			fmt.Fprintf(e.stderr, "shard %s: %d of %d runs: %d ok, %d failed%s\n", sh, len(res.Rows), space.Total, ok, failed, withWarnings)
			return exitOK
		}
		fmt.Fprintf(e.stderr, "%d runs: %d ok, %d failed%s\n", len(res.Rows), ok, failed, withWarnings)
		return exitOK
	}
}

// printSolverWork writes how the resolved runs were solved: how many were
// settled by propagation alone, how many needed v4t's own search and no
// SAT call, how many called gophersat, and how often.
func printSolverWork(e *env, res *batch.Result) {
	w := res.SolverWork()
	fmt.Fprintf(e.stderr, "solver: %d resolved runs: %d settled by propagation, %d by v4t's own search, %d with SAT calls (%d in all)\n",
		w.Resolved, w.Settled, w.OwnSearch, w.SAT, w.SATCalls)
}

// printRunWarnings writes each distinct warning of the runs once, as
// "warning: RUN-ID: FILE:L:C: message" with the first run (in the space's
// order) that had it, so that the same space gives the same lines whatever
// the order the runs finished in (the summary's warnings column counts them
// per run).
func printRunWarnings(e *env, res *batch.Result) {
	seen := map[string]bool{}
	for _, row := range res.Rows {
		for _, line := range row.Warnings {
			if !seen[line] {
				seen[line] = true
				fmt.Fprintf(e.stderr, "warning: %s: %s\n", row.Run.ID, line)
			}
		}
	}
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./=:,+@", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// summaryWriters write a summary in each --format.
var summaryWriters = map[string]func(*batch.Result, io.Writer, batch.SummaryOptions) error{
	"table": (*batch.Result).WriteTable,
	"csv":   (*batch.Result).WriteCSV,
	"json":  (*batch.Result).WriteJSON,
}

// writeOutputWith is writeOutput for content that write produces as it
// goes, through a buffer: into a file's temporary copy (writeFileAtomicWith),
// so that a failure leaves no partial file, or to standard output, where
// a failure can come only from the writing itself.
func writeOutputWith(e *env, path string, write func(io.Writer) error) error {
	buffered := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	if path == "" || path == "-" {
		if err := buffered(e.stdout); err != nil {
			return fmt.Errorf("cannot write the output: %w", err)
		}
		return nil
	}
	return writeFileAtomicWith(path, buffered)
}

// writeOutput writes data to standard output (path "" or "-") or atomically
// to a file.
func writeOutput(e *env, path string, data []byte) error {
	if path == "" || path == "-" {
		if _, err := e.stdout.Write(data); err != nil {
			return fmt.Errorf("cannot write the output: %w", err)
		}
		return nil
	}
	return writeFileAtomic(path, data)
}

// prepareOut makes the --out directory ready for a batch: it creates a
// new one, and refuses a non-empty one (a usage error) unless force is
// set; with force it removes the result files in it (batch.RunFileID) of
// the space's runs, or of any run when the space is not a shard, so that
// no stale result is left among the new ones, and keeps every other file.
// It returns the exit status of the failure, or exitOK.
func prepareOut(e *env, out string, force bool, space *batch.Space) int {
	entries, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(out, 0o755); err != nil {
			return e.fail("batch", fmt.Errorf("%s: cannot create: %w", out, unwrapPath(err)))
		}
		return exitOK
	case err != nil:
		return e.fail("batch", fmt.Errorf("--out %s: cannot read the directory: %w", out, unwrapPath(err)))
	case len(entries) == 0:
		return exitOK
	case !force:
		return e.usage("batch", fmt.Sprintf("--out %s: the directory is not empty (--force replaces the result files in it and keeps the others)", out))
	}
	ours := map[string]bool{}
	for _, r := range space.Runs {
		ours[r.ID] = true
	}
	for _, en := range entries {
		id, ok := batch.RunFileID(en.Name())
		if !ok || !en.Type().IsRegular() || space.Shard.N > 0 && !ours[id] {
			continue
		}
		if err := os.Remove(filepath.Join(out, en.Name())); err != nil && !os.IsNotExist(err) {
			return e.fail("batch", fmt.Errorf("%s: cannot remove: %w", filepath.Join(out, en.Name()), unwrapPath(err)))
		}
	}
	return exitOK
}

// batchProgress shows on standard error how far a batch is: on a terminal,
// a bar redrawn after each run; on a file or a pipe (a log), a line every
// interval (progressEvery), so that a batch shorter than that prints none;
// on any other writer (tests), nothing.
type batchProgress struct {
	mu                  sync.Mutex
	w                   io.Writer
	bar                 bool      // w is a terminal
	drawn               bool      // the bar is on the screen
	drawnAt             time.Time // when it was last drawn
	now                 func() time.Time
	start               time.Time
	done, failed, total int
	// stop ends the goroutine that prints lines, which closes finished.
	stop, finished chan struct{}
}

// barEvery is the most often the bar is redrawn: a batch of short runs
// finishes thousands a second, more than anyone reads, and each redraw is
// a write while the batch's workers wait for its lock. The last run's
// state is always drawn.
const barEvery = 50 * time.Millisecond

// startBatchProgress starts showing the progress of a batch of total runs
// on w.
func startBatchProgress(w io.Writer, total int) *batchProgress {
	p := &batchProgress{w: w, now: time.Now, total: total}
	p.start = p.now()
	if _, isFile := w.(*os.File); isFile && isTerminal(w) {
		p.bar = true
	} else if isFile {
		t := time.NewTicker(progressEvery)
		p.lines(t.C, t.Stop)
	}
	return p
}

// lines prints a progress line on each tick until finish; stop is called
// when it ends.
func (p *batchProgress) lines(ticks <-chan time.Time, stop func()) {
	p.stop, p.finished = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.finished)
		defer stop()
		for {
			select {
			case <-p.stop:
				return
			case <-ticks:
				p.line()
			}
		}
	}()
}

// update records a finished run (batch.Options.Progress) and redraws the
// bar.
func (p *batchProgress) update(done, failed, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.failed, p.total = done, failed, total
	if !p.bar {
		return
	}
	now := p.now()
	if p.drawn && done < total && now.Sub(p.drawnAt) < barEvery {
		return
	}
	p.drawnAt = now
	const width = 30
	filled := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs, %d failed", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total, failed)
	p.drawn = true
}

// line prints "batch: DONE of TOTAL runs, M:SS elapsed, about M:SS left";
// the estimate assumes the remaining runs take as long as the finished
// ones did on average, and is left out before the first run finishes.
func (p *batchProgress) line() {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := p.now().Sub(p.start)
	s := fmt.Sprintf("batch: %d of %d runs, %s elapsed", p.done, p.total, clock(elapsed))
	if p.done > 0 {
		left := time.Duration(float64(elapsed) * float64(p.total-p.done) / float64(p.done))
		s += ", about " + clock(left.Round(time.Second)) + " left"
	}
	fmt.Fprintln(p.w, s)
}

// finish stops the lines and clears the bar.
func (p *batchProgress) finish() {
	if p.stop != nil {
		close(p.stop)
		<-p.finished
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// clock renders a duration as M:SS, or H:MM:SS from an hour on, in whole
// seconds.
func clock(d time.Duration) string {
	sec := int(d / time.Second)
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
