package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"v4t/benchmarks"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func benchCommand() *command {
	return &command{
		name:    "bench",
		summary: "time v4t, and optionally the reference, on generated templates",
		usage:   "v4t bench [--family ring|choice|pruning|wide|chain|conflict|hub|sample|pairwise|all] [--seeds N,...] [--runs N] [--format markdown|csv|json] [--write DIR] [--output FILE] [--plot FILE.svg] [--reference CASE_JS [--reference-runs N] [--reference-timeout DURATION] [--node PATH]]",
		help: `Bench generates the templates of a benchmark family (package benchmarks:
ring is the reference's own benchmark, choice stresses optimisation with
uniqueness, pruning deep hosting stacks under semantic-loose pruning, wide
many conditional properties and artifacts per node) at each seed, and
resolves each one --runs times, every run in a child process of this v4t
binary ("v4t resolve --template T --inputs I --output O"), so that wall time,
CPU time and peak memory are those of the whole process, as /usr/bin/time
reports them.

The configuration-space families time another command instead of
resolve: chain (n exclusive choices in a chain of conflicts, about
10^(0.209n) variants) and conflict (n exclusive choices under a random
sparse conflict graph) run "v4t analyze --format json"; hub (n optional
nodes around one hub, 2^n variants) runs "v4t enumerate --count"; sample
(the chain) runs "v4t sample --uniform 1000 --seed 1"; pairwise (n free
choices) runs "v4t sample --pairwise". The report's measures column says
which command was timed; these families have no stage timings.

It reports, per family and seed, the median and the spread (minimum and
maximum over the runs) of the wall time, the CPU time, the peak resident
memory and, for resolve, every stage of the pipeline (parse, enrich, graph,
encode, solve, transform, emit: the child measures them itself), and
templates per second: node templates plus relationship templates divided
by the median wall time.

--write DIR keeps the generated files, named <family>-<seed>.yaml and (for
the resolve families, the others have no inputs) <family>-<seed>.inputs.yaml,
so that other tools can be timed on the same files; without it they go to a
temporary directory that is removed.

--reference CASE_JS also times the reference implementation on every file:
"node CASE_JS --template T --inputs I --output O", with case.js of the
shared Vintner tools (it finds the installed reference through VINTNER_DIR).
The report then adds its wall time, CPU time and peak memory, the speedup
(median wall time of the reference over that of v4t), and whether both tools
wrote the same document. A reference run that fails or exceeds
--reference-timeout is reported, not fatal. The reference only resolves: on
the configuration-space families it is not run, and the report says "not
comparable".

--plot FILE.svg also draws the report as an SVG picture: two panels, wall
time and peak memory against the number of templates, both axes
logarithmic; one line per family for v4t (solid) and, where it was
measured, for the reference (dashed); points are medians, bars the spread
(min–max). The same report always gives the same picture, byte for byte.

Progress goes to standard error when it is a terminal.`,
		example: `v4t bench --family ring --seeds 10,1000 --runs 5 --write bench-files
v4t bench --family choice --seeds 100 --format json --reference ../shared/tools/vintner/case.js
v4t bench --family chain,conflict,hub,sample,pairwise --runs 3
v4t bench --family ring,choice --seeds 10,100,1000 --plot bench.svg`,
		setup: setupBench,
	}
}

// benchOptions are the parsed flags of v4t bench.
type benchOptions struct {
	families   []benchmarks.Family
	seeds      []int // nil: each family's default seeds
	runs       int
	format     string
	write      string
	output     string
	plot       string
	reference  string
	refRuns    int
	refTimeout time.Duration
	node       string
}

func setupBench(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	var family, seeds string
	o := &benchOptions{}
	fs.StringVar(&family, "family", "ring", "the template `FAMILY`: ring, choice, pruning, wide (resolve), chain, conflict, hub, sample, pairwise (configuration space), a comma-separated list, or all")
	fs.StringVar(&seeds, "seeds", "", "comma-separated `SEEDS` (default: the family's, e.g. 10,100,1000,10000 for ring)")
	fs.IntVar(&o.runs, "runs", 3, "run v4t on each template `N` times")
	choiceVar(fs, &o.format, "format", "markdown", "report `FORMAT`: %s", "markdown", "csv", "json")
	fs.StringVar(&o.write, "write", "", "keep the generated templates and inputs in `DIR`")
	fs.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` (default: standard output)")
	fs.StringVar(&o.plot, "plot", "", "also draw wall time and peak memory against templates (log-log) into the SVG `FILE`")
	fs.StringVar(&o.reference, "reference", "", "also time the reference: the path of its `CASE_JS` (shared/tools/vintner/case.js)")
	fs.IntVar(&o.refRuns, "reference-runs", 0, "run the reference `N` times per template (default: --runs)")
	fs.DurationVar(&o.refTimeout, "reference-timeout", 0, "stop a reference run after `DURATION` and report it as unfinished (0: no limit)")
	fs.StringVar(&o.node, "node", "node", "the Node.js `PATH` that runs the reference")
	return func(ctx context.Context, e *env, args []string) int {
		if err := o.parse(fs, family, seeds, args); err != nil {
			return e.fail("bench", err)
		}
		rep, err := runBench(ctx, e, o)
		if err != nil {
			return e.fail("bench", err)
		}
		var buf bytes.Buffer
		switch o.format {
		case "json":
			err = rep.writeJSON(&buf)
		case "csv":
			err = rep.writeCSV(&buf)
		default:
			rep.writeMarkdown(&buf)
		}
		if err != nil {
			return e.fail("bench", err)
		}
		var svg []byte
		if o.plot != "" {
			if svg, err = rep.writeSVG(); err != nil {
				return e.fail("bench", err)
			}
		}
		if o.output == "" || o.output == "-" {
			if _, err := e.stdout.Write(buf.Bytes()); err != nil {
				return e.fail("bench", fmt.Errorf("cannot write the report: %w", err))
			}
		} else if err := writeFileAtomic(o.output, buf.Bytes()); err != nil {
			return e.fail("bench", err)
		}
		if o.plot != "" {
			if err := writeFileAtomic(o.plot, svg); err != nil {
				return e.fail("bench", err)
			}
		}
		return exitOK
	}
}

// parse checks the flags.
func (o *benchOptions) parse(fs *pflag.FlagSet, family, seeds string, args []string) error {
	if len(args) > 0 {
		return usagef("bench", "unexpected argument %q", args[0])
	}
	if family == "all" {
		o.families = benchmarks.Families()
	} else {
		for name := range strings.SplitSeq(family, ",") {
			f, err := benchmarks.Lookup(strings.TrimSpace(name))
			if err != nil {
				return usagef("bench", "--family: %v", err)
			}
			o.families = append(o.families, f)
		}
	}
	if fs.Changed("seeds") {
		for s := range strings.SplitSeq(seeds, ",") {
			n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
			if err != nil || n < 1 {
				return usagef("bench", "--seeds: %q is not a positive whole number", s)
			}
			o.seeds = append(o.seeds, n)
		}
	}
	if o.runs < 1 {
		return usagef("bench", "--runs must be at least 1")
	}
	if o.refRuns < 0 {
		return usagef("bench", "--reference-runs must not be negative")
	}
	if o.refRuns == 0 {
		o.refRuns = o.runs
	}
	if o.refTimeout < 0 {
		return usagef("bench", "--reference-timeout must not be negative")
	}
	if o.plot != "" && !strings.EqualFold(filepath.Ext(o.plot), ".svg") {
		return usagef("bench", "--plot %q: expected a .svg file", o.plot)
	}
	if o.reference != "" {
		if err := readable(o.reference); err != nil {
			return err
		}
	}
	return nil
}

// benchReport is the result of v4t bench. The JSON field names are stable.
type benchReport struct {
	GOOS          string        `json:"goos"`
	GOARCH        string        `json:"goarch"`
	CPUs          int           `json:"cpus"`
	Version       string        `json:"version"`
	Runs          int           `json:"runs"`
	ReferenceRuns int           `json:"reference_runs,omitempty"`
	Spread        string        `json:"spread"`
	Results       []benchResult `json:"results"`
}

// benchResult is one family at one seed.
type benchResult struct {
	Family string `json:"family"`
	// Measures is what v4t's child process does: "resolve", or the
	// command of a configuration-space family, e.g. "analyze" or
	// "sample --pairwise" (benchmarks.Family.Measures).
	Measures  string `json:"measures"`
	Seed      int    `json:"seed"`
	Templates int    `json:"templates"`
	// Template and Inputs are the generated files (relative to the
	// working directory with --write, else only their base names);
	// Inputs is left out for families without inputs.
	Template      string         `json:"template"`
	Inputs        string         `json:"inputs,omitempty"`
	TemplateBytes int64          `json:"template_bytes"`
	V4T           toolResult     `json:"v4t"`
	Reference     *toolResult    `json:"reference,omitempty"`
	Comparison    *benchCompared `json:"comparison,omitempty"`
}

// toolResult is the measurement of one tool on one template.
type toolResult struct {
	Runs               int     `json:"runs"`
	Wall               stat    `json:"wall_ms"`
	CPU                stat    `json:"cpu_ms"`
	PeakMemory         stat    `json:"peak_memory_mib"`
	TemplatesPerSecond float64 `json:"templates_per_second"`
	// Stages are v4t's stage durations (measured only when v4t resolves,
	// never for the reference).
	Stages *benchStageStats `json:"stages_ms,omitempty"`
	// Error says why the tool failed (only the reference's failures are
	// reported instead of stopping the bench), or that it was not run
	// because it cannot do what the family measures ("not comparable").
	Error string `json:"error,omitempty"`
}

// benchCompared compares the reference with v4t.
type benchCompared struct {
	// Speedup is the reference's median wall time over v4t's.
	Speedup float64 `json:"speedup"`
	// SameDocument: both outputs read as the same YAML document;
	// SameBytes: the files are identical.
	SameDocument bool `json:"same_document"`
	SameBytes    bool `json:"same_bytes"`
}

// benchStageStats are v4t's stage durations, in pipeline order.
type benchStageStats struct {
	Parse     stat `json:"parse"`
	Enrich    stat `json:"enrich"`
	Graph     stat `json:"graph"`
	Encode    stat `json:"encode"`
	Solve     stat `json:"solve"`
	Transform stat `json:"transform"`
	Emit      stat `json:"emit"`
}

// stat is the median and spread (minimum, maximum) of a measurement.
type stat struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func newStat(xs []float64) stat {
	if len(xs) == 0 {
		return stat{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return stat{Median: m, Min: s[0], Max: s[len(s)-1]}
}

// benchTimings is what "v4t resolve --timings-json FILE" writes: the
// durations of the stages in nanoseconds.
type benchTimings struct {
	Parse     int64 `json:"parse_ns"`
	Enrich    int64 `json:"enrich_ns"`
	Graph     int64 `json:"graph_ns"`
	Encode    int64 `json:"encode_ns"`
	Solve     int64 `json:"solve_ns"`
	Transform int64 `json:"transform_ns"`
	Emit      int64 `json:"emit_ns"`
}

// writeTimingsJSON writes the stage durations of one resolve for v4t bench;
// emit is the time to serialise and write the result.
func writeTimingsJSON(path string, t *resolve.Timings, emit time.Duration) error {
	data, err := json.Marshal(benchTimings{
		Parse: int64(t.Parse), Enrich: int64(t.Enrich), Graph: int64(t.Graph), Encode: int64(t.Encode),
		Solve: int64(t.Solve), Transform: int64(t.Transform), Emit: int64(emit),
	})
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// processRun is one finished child process.
type processRun struct {
	wall, cpu time.Duration
	peak      int64 // bytes; 0 when the system does not say
}

// runProcess runs a command and measures it. A failure returns the last
// line of its output in the error.
func runProcess(ctx context.Context, timeout time.Duration, name string, args ...string) (processRun, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	// A killed process may leave children holding its output open.
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil && timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return processRun{wall: wall}, fmt.Errorf("did not finish in %s", timeout)
	}
	if err != nil {
		msg := summary(out.String())
		if msg == "" {
			return processRun{wall: wall}, err
		}
		return processRun{wall: wall}, fmt.Errorf("%v: %s", err, msg)
	}
	ps := cmd.ProcessState
	return processRun{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), peak: peakRSS(ps)}, nil
}

// summary is the gist of a failed process's output: its last line and,
// when there are more, its first (where Node.js and the reference tend to
// say what went wrong before the last line says that it did), each cut to
// 200 bytes.
func summary(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	cut := func(l string) string {
		l = strings.TrimSpace(l)
		if len(l) > 200 {
			n := 200
			for n > 0 && !utf8.RuneStart(l[n]) {
				n--
			}
			l = l[:n] + "…"
		}
		return l
	}
	first, last := cut(lines[0]), cut(lines[len(lines)-1])
	if len(lines) == 1 || first == last {
		return last
	}
	return first + " … " + last
}

// runBench generates and measures every family at every seed.
func runBench(ctx context.Context, e *env, o *benchOptions) (*benchReport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the v4t binary to run: %w", err)
	}
	scratch, err := os.MkdirTemp("", "v4t-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	dir := scratch
	if o.write != "" {
		if err := os.MkdirAll(o.write, 0o755); err != nil {
			return nil, fmt.Errorf("%s: cannot create: %w", o.write, unwrapPath(err))
		}
		dir = o.write
	}
	rep := &benchReport{
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), Version: buildVersion(),
		Runs: o.runs, Spread: "min-max", Results: []benchResult{},
	}
	if o.reference != "" {
		rep.ReferenceRuns = o.refRuns
	}
	progress := progressWriter(e.stderr)
	for _, f := range o.families {
		seeds := o.seeds
		if seeds == nil {
			seeds = f.Seeds
		}
		for _, n := range seeds {
			r, err := benchOne(ctx, o, f, n, exe, dir, scratch, progress)
			if err != nil {
				return nil, fmt.Errorf("%s seed %d: %w", f.Name, n, err)
			}
			rep.Results = append(rep.Results, r)
		}
	}
	return rep, nil
}

// benchOne measures one family at one seed.
func benchOne(ctx context.Context, o *benchOptions, f benchmarks.Family, n int, exe, dir, scratch string, progress func(string, ...any)) (benchResult, error) {
	base := fmt.Sprintf("%s-%d", f.Name, n)
	template := filepath.Join(dir, base+".yaml")
	inputs := filepath.Join(dir, base+".inputs.yaml")
	progress("%s seed %d: generating %s", f.Name, n, template)
	size, err := writeGenerated(template, func(w io.Writer) error { return f.Template(w, n) })
	if err != nil {
		return benchResult{}, err
	}
	if f.Inputs == nil {
		inputs = ""
	} else if _, err := writeGenerated(inputs, func(w io.Writer) error { return f.Inputs(w, n) }); err != nil {
		return benchResult{}, err
	}
	r := benchResult{Family: f.Name, Measures: f.What(), Seed: n, Templates: f.Templates(n), TemplateBytes: size}
	r.Template, r.Inputs = template, inputs
	if o.write == "" {
		r.Template = filepath.Base(template)
		if inputs != "" {
			r.Inputs = filepath.Base(inputs)
		}
	}

	out := filepath.Join(scratch, base+".v4t.yaml")
	if f.Command != nil {
		// A configuration-space family: its own command, no stage
		// timings, and nothing the reference can do.
		args := f.Command(template, inputs, out)
		var runs []processRun
		for i := 0; i < o.runs; i++ {
			progress("%s seed %d: v4t run %d of %d", f.Name, n, i+1, o.runs)
			pr, err := runProcess(ctx, 0, exe, args...)
			if err != nil {
				return r, fmt.Errorf("v4t %s %s: %w", args[0], template, err)
			}
			runs = append(runs, pr)
		}
		r.V4T = toolStats(runs, r.Templates)
		if o.reference != "" {
			r.Reference = &toolResult{Error: notComparable}
		}
		return r, nil
	}
	timingsFile := filepath.Join(scratch, base+".timings.json")
	var runs []processRun
	var timings []benchTimings
	for i := 0; i < o.runs; i++ {
		progress("%s seed %d: v4t run %d of %d", f.Name, n, i+1, o.runs)
		pr, err := runProcess(ctx, 0, exe, "resolve", "--template", template, "--inputs", inputs, "--output", out, "--timings-json", timingsFile)
		if err != nil {
			return r, fmt.Errorf("v4t resolve %s: %w", template, err)
		}
		data, err := os.ReadFile(timingsFile)
		if err != nil {
			return r, fmt.Errorf("v4t resolve wrote no timings: %w", err)
		}
		var t benchTimings
		if err := json.Unmarshal(data, &t); err != nil {
			return r, fmt.Errorf("v4t resolve wrote bad timings: %w", err)
		}
		runs, timings = append(runs, pr), append(timings, t)
	}
	r.V4T = toolStats(runs, r.Templates)
	stages := stageStats(timings)
	r.V4T.Stages = &stages

	if o.reference == "" {
		return r, nil
	}
	refOut := filepath.Join(scratch, base+".reference.yaml")
	var refRuns []processRun
	ref := &toolResult{}
	for i := 0; i < o.refRuns; i++ {
		progress("%s seed %d: reference run %d of %d", f.Name, n, i+1, o.refRuns)
		os.Remove(refOut)
		pr, err := runProcess(ctx, o.refTimeout, o.node, o.reference, "--template", template, "--inputs", inputs, "--output", refOut)
		if err != nil {
			ref.Error = err.Error()
			break
		}
		refRuns = append(refRuns, pr)
	}
	if ref.Error == "" {
		*ref = toolStats(refRuns, r.Templates)
		same, identical, err := sameOutput(out, refOut)
		if err != nil {
			return r, err
		}
		r.Comparison = &benchCompared{SameDocument: same, SameBytes: identical}
		if r.V4T.Wall.Median > 0 {
			r.Comparison.Speedup = ref.Wall.Median / r.V4T.Wall.Median
		}
	}
	r.Reference = ref
	return r, nil
}

// notComparable is the reference's "error" for the families that do not
// resolve (benchmarks.Family.Command): the reference cannot count,
// analyse or sample, so it is not run on them.
const notComparable = "not comparable: the reference only resolves"

// writeGenerated writes a generated file and returns its size.
func writeGenerated(path string, gen func(io.Writer) error) (int64, error) {
	var buf bytes.Buffer
	if err := gen(&buf); err != nil {
		return 0, err
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return 0, err
	}
	return int64(buf.Len()), nil
}

// sameOutput compares the outputs of v4t and the reference as documents
// and as bytes.
func sameOutput(ours, theirs string) (same, identical bool, err error) {
	a, err := os.ReadFile(ours)
	if err != nil {
		return false, false, err
	}
	b, err := os.ReadFile(theirs)
	if err != nil {
		return false, false, fmt.Errorf("the reference wrote no output: %w", err)
	}
	if bytes.Equal(a, b) {
		return true, true, nil
	}
	da, err := yamlsrc.Parse(a, ours)
	if err != nil {
		return false, false, err
	}
	db, err := yamlsrc.Parse(b, theirs)
	if err != nil {
		return false, false, nil
	}
	return yamlsrc.DeepEqual(da, db), false, nil
}

func toolStats(runs []processRun, templates int) toolResult {
	var wall, cpu, mem []float64
	for _, r := range runs {
		wall = append(wall, ms(r.wall))
		cpu = append(cpu, ms(r.cpu))
		mem = append(mem, float64(r.peak)/(1<<20))
	}
	t := toolResult{Runs: len(runs), Wall: newStat(wall), CPU: newStat(cpu), PeakMemory: newStat(mem)}
	if t.Wall.Median > 0 {
		t.TemplatesPerSecond = float64(templates) / (t.Wall.Median / 1000)
	}
	return t
}

func stageStats(ts []benchTimings) benchStageStats {
	pick := func(f func(benchTimings) int64) stat {
		var xs []float64
		for _, t := range ts {
			xs = append(xs, ms(time.Duration(f(t))))
		}
		return newStat(xs)
	}
	return benchStageStats{
		Parse:     pick(func(t benchTimings) int64 { return t.Parse }),
		Enrich:    pick(func(t benchTimings) int64 { return t.Enrich }),
		Graph:     pick(func(t benchTimings) int64 { return t.Graph }),
		Encode:    pick(func(t benchTimings) int64 { return t.Encode }),
		Solve:     pick(func(t benchTimings) int64 { return t.Solve }),
		Transform: pick(func(t benchTimings) int64 { return t.Transform }),
		Emit:      pick(func(t benchTimings) int64 { return t.Emit }),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// progressWriter returns a printf to w when w is a terminal, else a no-op.
func progressWriter(w io.Writer) func(string, ...any) {
	if !isTerminal(w) {
		return func(string, ...any) {}
	}
	return func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
}

// stages lists the stage columns in pipeline order.
func (s *benchStageStats) stages() []struct {
	name string
	st   stat
} {
	return []struct {
		name string
		st   stat
	}{
		{"parse", s.Parse}, {"enrich", s.Enrich}, {"graph", s.Graph}, {"encode", s.Encode},
		{"solve", s.Solve}, {"transform", s.Transform}, {"emit", s.Emit},
	}
}

func (r *benchReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *benchReport) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"family", "seed", "templates", "template_bytes", "tool", "measures", "runs"}
	for _, m := range []string{"wall_ms", "cpu_ms", "peak_memory_mib"} {
		head = append(head, m+"_median", m+"_min", m+"_max")
	}
	head = append(head, "templates_per_second")
	var zero benchStageStats
	for _, s := range zero.stages() {
		head = append(head, s.name+"_ms_median", s.name+"_ms_min", s.name+"_ms_max")
	}
	head = append(head, "speedup", "same_document", "same_bytes", "error")
	if err := cw.Write(head); err != nil {
		return err
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
	for _, res := range r.Results {
		row := func(tool string, t *toolResult, stages *benchStageStats) []string {
			rec := []string{res.Family, strconv.Itoa(res.Seed), strconv.Itoa(res.Templates), strconv.FormatInt(res.TemplateBytes, 10), tool, res.Measures, strconv.Itoa(t.Runs)}
			for _, s := range []stat{t.Wall, t.CPU, t.PeakMemory} {
				rec = append(rec, num(s.Median), num(s.Min), num(s.Max))
			}
			rec = append(rec, num(t.TemplatesPerSecond))
			if stages != nil {
				for _, s := range stages.stages() {
					rec = append(rec, num(s.st.Median), num(s.st.Min), num(s.st.Max))
				}
			} else {
				for range zero.stages() {
					rec = append(rec, "", "", "")
				}
			}
			if tool == "reference" && res.Comparison != nil {
				rec = append(rec, num(res.Comparison.Speedup), strconv.FormatBool(res.Comparison.SameDocument), strconv.FormatBool(res.Comparison.SameBytes))
			} else {
				rec = append(rec, "", "", "")
			}
			return append(rec, t.Error)
		}
		if err := cw.Write(row("v4t", &res.V4T, res.V4T.Stages)); err != nil {
			return err
		}
		if res.Reference != nil {
			if err := cw.Write(row("reference", res.Reference, nil)); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *benchReport) writeMarkdown(w io.Writer) {
	var b strings.Builder
	fmt.Fprintf(&b, "v4t bench: %s per template", plural(r.Runs, "run"))
	if r.ReferenceRuns > 0 {
		fmt.Fprintf(&b, " (reference: %s)", plural(r.ReferenceRuns, "run"))
	}
	fmt.Fprintf(&b, ", whole process; median (min–max); %s/%s, %s.\n\n", r.GOOS, r.GOARCH, plural(r.CPUs, "CPU"))
	ref := r.ReferenceRuns > 0
	// The measures column shows when a family does something other than
	// resolve (the configuration-space families).
	measures := slices.ContainsFunc(r.Results, func(res benchResult) bool { return res.Measures != "resolve" })
	// The header line and the alignment line: the first cell, the measures
	// cell, the figures and the reference's cells.
	for _, line := range [2][4]string{
		{"| family |", " measures |", " seed | templates | size | wall | CPU | peak memory | templates/s |",
			" reference wall | reference CPU | reference peak memory | speedup | same output |"},
		{"|---|", "---|", "---:|---:|---:|---:|---:|---:|---:|", "---:|---:|---:|---:|---|"},
	} {
		b.WriteString(line[0])
		if measures {
			b.WriteString(line[1])
		}
		b.WriteString(line[2])
		if ref {
			b.WriteString(line[3])
		}
		b.WriteString("\n")
	}
	for _, res := range r.Results {
		fmt.Fprintf(&b, "| %s |", res.Family)
		if measures {
			fmt.Fprintf(&b, " %s |", res.Measures)
		}
		fmt.Fprintf(&b, " %s | %s | %s | %s | %s | %s | %s |", thousands(res.Seed), thousands(res.Templates),
			formatBytes(res.TemplateBytes), spreadDur(res.V4T.Wall), spreadDur(res.V4T.CPU), spreadMB(res.V4T.PeakMemory), thousands(int(res.V4T.TemplatesPerSecond+0.5)))
		if ref {
			switch {
			case res.Reference == nil:
				b.WriteString(" | | | | |")
			case res.Reference.Error != "":
				fmt.Fprintf(&b, " %s | | | | |", strings.ReplaceAll(oneLine(res.Reference.Error), "|", `\|`))
			default:
				same := "no"
				switch {
				case res.Comparison.SameBytes:
					same = "identical"
				case res.Comparison.SameDocument:
					same = "same document"
				}
				fmt.Fprintf(&b, " %s | %s | %s | %.1f× | %s |", spreadDur(res.Reference.Wall), spreadDur(res.Reference.CPU),
					spreadMB(res.Reference.PeakMemory), res.Comparison.Speedup, same)
			}
		}
		b.WriteString("\n")
	}
	// Only resolve measures stages: the other families have no row, and a
	// report without resolve families no stage table.
	if !slices.ContainsFunc(r.Results, func(res benchResult) bool { return res.V4T.Stages != nil }) {
		io.WriteString(w, b.String())
		return
	}
	b.WriteString("\nv4t's stages, as the child process measures them; median (min–max):\n\n| family | seed |")
	var zero benchStageStats
	for _, s := range zero.stages() {
		b.WriteString(" " + s.name + " |")
	}
	b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(zero.stages())) + "\n")
	for _, res := range r.Results {
		if res.V4T.Stages == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s |", res.Family, thousands(res.Seed))
		for _, s := range res.V4T.Stages.stages() {
			b.WriteString(" " + spreadDur(s.st) + " |")
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

// spreadDur formats a stat of milliseconds as "median (min–max)".
func spreadDur(s stat) string {
	if s.Min == s.Max {
		return formatMS(s.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", formatMS(s.Median), formatMS(s.Min), formatMS(s.Max))
}

func spreadMB(s stat) string {
	if s.Median == 0 {
		return "n/a"
	}
	if s.Min == s.Max {
		return formatMB(s.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", formatMB(s.Median), formatMB(s.Min), formatMB(s.Max))
}

// formatMS prints milliseconds with three significant digits in a fitting
// unit.
func formatMS(x float64) string { return inMSUnit(x, sig3) }

// inMSUnit writes milliseconds in seconds from 1000 ms up, in milliseconds
// from 1 ms up, else in microseconds, with the number formatted by num.
func inMSUnit(x float64, num func(float64) string) string {
	switch {
	case x >= 1000:
		return num(x/1000) + " s"
	case x >= 1:
		return num(x) + " ms"
	default:
		return num(x*1000) + " µs"
	}
}

// formatMB prints mebibytes (the unit of the reports) in MiB or GiB.
func formatMB(x float64) string {
	if x >= 1024 {
		return sig3(x/1024) + " GiB"
	}
	return sig3(x) + " MiB"
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return sig3(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return sig3(float64(n)/(1<<10)) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

func sig3(x float64) string {
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
