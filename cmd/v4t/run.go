package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"v4t/model/diag"
)

// Exit statuses (documented in the README).
const (
	exitOK       = 0 // success
	exitRejected = 1 // input rejected with a diagnostic, or test failures
	exitUsage    = 2 // bad command line
	exitInternal = 3 // internal error or timeout
)

// globals are the flags every command accepts, before or after its name.
type globals struct {
	timeout    time.Duration
	cpuprofile string
	memprofile string
	debug      bool
	version    bool
}

// register defines the global flags on fs. The current values are the
// defaults, so that registering them on a command's flag set keeps what was
// parsed before the command name.
func (g *globals) register(fs *pflag.FlagSet) {
	fs.DurationVar(&g.timeout, "timeout", g.timeout, "stop with exit status 3 after `DURATION` (e.g. 30s, 5m; 0: no limit)")
	fs.StringVar(&g.cpuprofile, "cpuprofile", g.cpuprofile, "write a CPU profile of the command to `FILE`")
	fs.StringVar(&g.memprofile, "memprofile", g.memprofile, "write a heap profile to `FILE` when the command ends")
	fs.BoolVar(&g.debug, "debug", g.debug, "show stack traces of internal errors and related positions of diagnostics")
	fs.BoolVarP(&g.version, "version", "V", g.version, "print the version of v4t and exit")
}

// globalNames are the names of the global flags, hidden from the help of
// each command.
var globalNames = []string{"timeout", "cpuprofile", "memprofile", "debug", "version"}

// env is what a command sees of the world.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) (string, bool) // nil: the process environment (see lookupEnv)
	g      *globals

	// warnMu guards warned and pending: the distinct warning lines of the
	// command so far, printed when it ends (flushWarnings).
	warnMu  sync.Mutex
	warned  map[string]bool
	pending []string
	// failed is set by fail and usage: a failure prints its one error line
	// and no warnings, so that the error is the first line.
	failed bool
}

// warn records a warning about malformed input that v4t, like the
// reference, accepts by coercing it (README, "Malformed input"), as
// "warning: FILE:LINE:COL: message". It is the resolver's Options.Warn and
// may be called from several goroutines at once.
func (e *env) warn(d *diag.Diagnostic) {
	e.warnLine("warning: " + oneLine(d.Line()))
}

// warnLine records a line for standard error unless it was recorded
// before; the lines are printed, in order, when the command ends without
// failing.
func (e *env) warnLine(line string) {
	e.warnMu.Lock()
	defer e.warnMu.Unlock()
	if e.warned[line] {
		return
	}
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	e.warned[line] = true
	e.pending = append(e.pending, line)
}

// said records a line as one that the command prints by other means, so
// that a warning of the same words is not printed.
func (e *env) said(line string) {
	e.warnMu.Lock()
	defer e.warnMu.Unlock()
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	e.warned[line] = true
}

// flushWarnings prints the recorded warnings, unless the command failed:
// then its error line stays the only line (at most one hint follows).
func (e *env) flushWarnings() {
	e.warnMu.Lock()
	defer e.warnMu.Unlock()
	if !e.failed {
		for _, l := range e.pending {
			fmt.Fprintln(e.stderr, l)
		}
	}
	e.pending = nil
}

// command is one subcommand. setup registers the command's flags on fs and
// returns the function that runs it with the parsed flags and the remaining
// arguments.
type command struct {
	name    string
	summary string
	usage   string
	help    string
	example string
	setup   func(fs *pflag.FlagSet) func(ctx context.Context, e *env, args []string) int
}

func commands() []*command {
	return []*command{resolveCommand(), validateCommand(), enumerateCommand(), analyzeCommand(), sampleCommand(), batchCommand(), compareCommand(), graphCommand(), completeCommand(), sdCommand(), testCommand(), benchCommand(), versionCommand(), helpCommand()}
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a bad command line found while running a command.
type usageError struct {
	cmd string
	msg string
}

func (u *usageError) Error() string { return u.msg }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// run runs the v4t command line and returns the exit status.
//
// v4t alone prints the help of v4t --help and exits 0; global flags without
// a command are a usage error. --version (-V) prints the version line of v4t
// version, before or after a command name, and exits 0.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, g: &globals{}}
	var help bool
	top := topFlags(e.g, &help)
	if len(args) == 0 {
		writeTopHelp(stdout, top)
		return exitOK
	}
	top.SetInterspersed(false)
	if err := top.Parse(args); err != nil {
		return e.usage("", flagError(top, err))
	}
	if help {
		writeTopHelp(stdout, top)
		return exitOK
	}
	if e.g.version {
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	}
	rest := top.Args()
	if len(rest) == 0 {
		return e.usage("", "no command given")
	}
	cmd := lookup(rest[0])
	if cmd == nil {
		return e.usage("", unknownCommand(rest[0]))
	}
	fs, exec := cmd.flags(e.g, &help)
	cmdArgs := rest[1:]
	if fs.Lookup("presets") != nil {
		cmdArgs = spreadPresets(cmdArgs)
	}
	if err := fs.Parse(cmdArgs); err != nil {
		return e.usage(cmd.name, flagError(fs, err))
	}
	if help {
		writeCommandHelp(stdout, cmd, fs)
		return exitOK
	}
	if e.g.version {
		fmt.Fprintln(stdout, versionLine())
		return exitOK
	}
	if e.g.timeout < 0 {
		return e.usage(cmd.name, "--timeout must not be negative")
	}
	stop, err := startProfiles(e.g)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitRejected
	}
	code := e.exec(exec, fs.Args())
	if err := stop(); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		if code == exitOK {
			code = exitRejected
		}
	}
	return code
}

// unknownCommand is the usage error for a command name v4t does not know,
// with the command it may be a typo of.
func unknownCommand(name string) string {
	return fmt.Sprintf("unknown command %q", name) + diag.DidYouMean(name, func(yield func(string) bool) {
		for _, c := range commands() {
			if !yield(c.name) {
				return
			}
		}
	})
}

// flagError is the message of pflag's error err while parsing fs; an
// unknown long flag gets the flag of fs it may be a typo of:
// "unknown flag: --tempalte (did you mean --template?)".
func flagError(fs *pflag.FlagSet, err error) string {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		return invalidValue(iv)
	}
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return msg
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden || slices.Contains(globalNames, f.Name) {
			names = append(names, f.Name)
		}
	})
	// DidYouMean quotes the name, as for names in templates; a flag is
	// written as it is typed.
	hint, _ := strings.CutPrefix(diag.DidYouMean(name, slices.Values(names)), " (did you mean ")
	if best, err := strconv.Unquote(strings.TrimSuffix(hint, "?)")); err == nil && best != "" {
		msg += " (did you mean --" + best + "?)"
	}
	return msg
}

// spreadPresets lets --presets take several arguments, as the reference's
// --presets does (a variadic option of commander.js): after --presets NAME,
// every following argument that does not start with "-" is one more preset,
// so "--presets a b --input x=1" is "--presets a --presets b --input x=1".
// The form --presets=NAME takes one value (a comma-separated list), also as
// in the reference; "--" ends the flags. Only commands with template flags
// (a --presets flag) get this.
func spreadPresets(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if a != "--presets" || i+1 == len(args) {
			continue
		}
		i++
		out = append(out, args[i]) // the flag's own value, whatever it looks like, as pflag reads it
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			out = append(out, "--presets", args[i])
		}
	}
	return out
}

// exec runs a command, turning a panic into an internal error.
func (e *env) exec(fn func(context.Context, *env, []string) int, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if e.g.debug {
				fmt.Fprintf(e.stderr, "error: internal error: %s\n", oneLine(fmt.Sprint(r)))
				e.stderr.Write(debug.Stack())
			} else {
				fmt.Fprintf(e.stderr, "error: internal error: %s (a bug in v4t: please report it; --debug shows the stack trace)\n", oneLine(fmt.Sprint(r)))
			}
			code = exitInternal
		}
	}()
	defer e.flushWarnings()
	return fn(context.Background(), e, args)
}

// usage reports a usage error and returns exitUsage.
func (e *env) usage(cmd, msg string) int {
	e.failed = true
	fmt.Fprintf(e.stderr, "error: %s\n", oneLine(msg))
	if cmd == "" {
		fmt.Fprintln(e.stderr, "run 'v4t --help' for usage")
	} else {
		fmt.Fprintf(e.stderr, "run 'v4t %s --help' for usage\n", cmd)
	}
	return exitUsage
}

// fail reports an error and returns its exit status: usage errors exit 2,
// internal errors and timeouts 3, anything else (rejected input) 1. A
// diagnostic prints its position when known, then its message verbatim
// (newlines escaped, style.md §3.4), followed by
// " (the reference fails with: MESSAGE)" where v4t words a JavaScript error
// of the reference itself (README, "Malformed input"), and for an unknown
// preset by its note in parentheses (`from --preset; did you mean "large"?`).
func (e *env) fail(cmd string, err error) int {
	e.failed = true
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.cmd != "" {
			cmd = ue.cmd
		}
		return e.usage(cmd, ue.msg)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "error: %s\n", oneLine(err.Error()))
		return exitInternal
	}
	d, ok := diag.As(err)
	if !ok {
		fmt.Fprintf(e.stderr, "error: %s\n", oneLine(err.Error()))
		return exitRejected
	}
	// One line, Go/GNU style (style.md §3.4): the position first, where
	// one is known, then the message.
	text := d.Text()
	if d.Code == codeUnknownPreset && len(d.Related) > 0 {
		// The reference's message names the preset; the note says where
		// the name came from and what it may be a typo of.
		text += " (" + d.Related[0].Message + ")"
	}
	if d.Pos.Known() {
		fmt.Fprintf(e.stderr, "error: %s: %s\n", d.Pos, oneLine(text))
	} else {
		fmt.Fprintf(e.stderr, "error: %s\n", oneLine(text))
	}
	if e.g.debug {
		for _, r := range d.Related {
			if r.Pos.Known() {
				fmt.Fprintf(e.stderr, "  related: %s: %s\n", r.Pos, oneLine(r.Message))
			} else {
				fmt.Fprintf(e.stderr, "  related: %s\n", oneLine(r.Message))
			}
		}
	}
	if isInternal(d) {
		return exitInternal
	}
	return exitRejected
}

// codeUnknownPreset is the Code of the resolver's "Did not find
// variability preset" diagnostic, whose first related note fail prints on
// the error line.
const codeUnknownPreset = "unknown-preset"

// isInternal recognises the diagnostic a library entry point makes of a
// recovered panic (style.md §3.3).
func isInternal(d *diag.Diagnostic) bool {
	return d.Code == "internal" || strings.HasPrefix(d.Message, "internal error")
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", `\r`)
	return strings.ReplaceAll(s, "\n", `\n`)
}

// topFlags returns the flag set of v4t itself: the global flags and --help.
func topFlags(g *globals, help *bool) *pflag.FlagSet {
	fs := newFlagSet("v4t")
	g.register(fs)
	fs.BoolVarP(help, "help", "h", false, "show this help")
	return fs
}

// flags returns the command's flag set, which also accepts the global flags
// (hidden from its help), and the function that runs the command.
func (c *command) flags(g *globals, help *bool) (*pflag.FlagSet, func(context.Context, *env, []string) int) {
	fs := newFlagSet("v4t " + c.name)
	exec := c.setup(fs)
	g.register(fs)
	for _, name := range globalNames {
		_ = fs.MarkHidden(name)
	}
	fs.BoolVarP(help, "help", "h", false, "show this help")
	return fs, exec
}

func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = true
	return fs
}

// startProfiles starts the CPU profile and returns the function that stops
// it and writes the heap profile.
func startProfiles(g *globals) (func() error, error) {
	var cpu *os.File
	if g.cpuprofile != "" {
		f, err := os.Create(g.cpuprofile)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		cpu = f
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
			}
		}
		if g.memprofile != "" {
			runtime.GC()
			f, err := os.Create(g.memprofile)
			if err != nil {
				errs = append(errs, fmt.Errorf("--memprofile: %w", err))
			} else {
				if err := pprof.WriteHeapProfile(f); err != nil {
					errs = append(errs, fmt.Errorf("--memprofile: %w", err))
				}
				if err := f.Close(); err != nil {
					errs = append(errs, fmt.Errorf("--memprofile: %w", err))
				}
			}
		}
		return errors.Join(errs...)
	}, nil
}

// hardTimeout finds the --timeout value in the arguments for main, which
// enforces it. A malformed value yields zero here; run reports it.
func hardTimeout(args []string) time.Duration {
	var d time.Duration
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		value, ok := "", false
		switch {
		case a == "--timeout" && i+1 < len(args):
			value, ok = args[i+1], true
			i++
		case strings.HasPrefix(a, "--timeout="):
			value, ok = strings.TrimPrefix(a, "--timeout="), true
		}
		if !ok {
			continue
		}
		if v, err := time.ParseDuration(value); err == nil && v >= 0 {
			d = v
		} else {
			d = 0
		}
	}
	return d
}

const topHelp = `v4t resolves Variability4TOSCA templates: it turns a variable TOSCA service
template into a plain TOSCA one, as OpenTOSCA Vintner 0.1.8 does, and runs
conformance cases against the reference's expectations.

Usage:
  v4t [global flags] COMMAND [flags] [arguments]

Commands:
`

func writeTopHelp(w io.Writer, top *pflag.FlagSet) {
	var b strings.Builder
	b.WriteString(topHelp)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString("\nGlobal flags (also accepted after the command name):\n")
	b.WriteString(top.FlagUsages())
	b.WriteString(`
Exit status: 0 success; 1 input rejected or failing test cases; 2 usage
error; 3 internal error or timeout.

Run 'v4t COMMAND --help' for the flags of a command and an example.
`)
	io.WriteString(w, b.String())
}

func writeCommandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n\n%s\n", c.usage, c.help)
	if flags := fs.FlagUsages(); flags != "" {
		b.WriteString("\nFlags:\n")
		b.WriteString(flags)
	}
	if c.example != "" {
		b.WriteString("\nExample:\n")
		for line := range strings.SplitSeq(strings.TrimRight(c.example, "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString("\nGlobal flags (--timeout, --cpuprofile, --memprofile, --debug, --version): see 'v4t --help'.\n")
	io.WriteString(w, b.String())
}

func helpCommand() *command {
	return &command{
		name:    "help",
		summary: "show help for v4t or one of its commands",
		usage:   "v4t help [COMMAND]",
		help:    "Help shows the overview of v4t, or the help of COMMAND.",
		example: "v4t help resolve",
		setup: func(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
			return func(_ context.Context, e *env, args []string) int {
				switch len(args) {
				case 0:
					var h bool
					writeTopHelp(e.stdout, topFlags(&globals{}, &h))
					return exitOK
				case 1:
					c := lookup(args[0])
					if c == nil {
						return e.usage("help", unknownCommand(args[0]))
					}
					var h bool
					cfs, _ := c.flags(&globals{}, &h)
					writeCommandHelp(e.stdout, c, cfs)
					return exitOK
				}
				return e.usage("help", "expected at most one command name")
			}
		},
	}
}
