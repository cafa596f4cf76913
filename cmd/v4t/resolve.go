package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func resolveCommand() *command {
	return &command{
		name:    "resolve",
		summary: "resolve a variable service template into a TOSCA service template",
		usage:   "v4t resolve --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--output FILE] [--explain] [--problems] [--dump cnf|opb FILE] [--allow-outside]",
		help: `Resolve reads a variable service template (Variability4TOSCA), assigns the
variability inputs from the presets, the inputs file and --input flags (in
this order, later ones winning), solves the variability, and writes the
resulting TOSCA service template. Nothing is written when resolving fails.

--option NAME=VALUE overrides a variability option of the template (for
example --option optimization_topology=max --option mode=semantic-loose),
so that one template can be resolved under several modes without editing it.

Names that the reference ignores are warnings on standard error, with the
name they may be a typo of; the result and exit status stay the same: an
option it does not know (--option, or the template's options) and an input
the template does not declare (--input, the inputs file, an applied preset,
the environment variables read with an inputs file).

--template - reads the template from standard input, --inputs - the inputs
(YAML); not both. A template from standard input is named <stdin> in
positions, and its imports and side files are relative to the working
directory.

--preset takes one name or a comma-separated list and may be repeated;
--presets also takes the names that follow it up to the next flag, as the
reference does (--presets small backup).

A failure about the template is one line, the error, and at most one hint:
how many more problems v4t validate finds in the template. --problems lists
them instead, after the error.

--explain: when resolving fails with "Could not solve", also print a minimal
set of conflicting conditions (element, conditions, position); removing any
one of them makes the rest satisfiable.

--dump cnf FILE or --dump opb FILE writes the encoded formula in DIMACS or
OPB, with a comment line naming each variable after its element id.

The environment variables OPENTOSCA_VINTNER_VARIABILITY_PRESETS and
OPENTOSCA_VINTNER_VARIABILITY_INPUT_<NAME> are honoured as by the reference.`,
		example: "v4t resolve --template testdata/examples/webshop/template.yaml --preset small --output webshop.yaml",
		setup:   setupResolve,
	}
}

// templateFlags are the flags shared by the commands that resolve a
// template: the template, its inputs, presets, option overrides and dumps.
type templateFlags struct {
	cmd, template, inputsFile, dump string
	presets, inputs, options        *listValue
	allowOutside                    bool
	// problems is --problems: a failure about the template lists every
	// problem v4t validate finds instead of a hint (registerProblems).
	problems bool
	// noDump leaves out --dump, for commands that resolve more than once
	// or not at all.
	noDump bool
	// templateData is the template when the command has read it already
	// (v4t validate -): parse then reads neither it nor standard input
	// for it.
	templateData []byte
}

func (t *templateFlags) register(fs *pflag.FlagSet) {
	t.presets = &listValue{split: true}
	t.inputs = &listValue{}
	t.options = &listValue{}
	fs.StringVar(&t.template, "template", "", "the variable service template `FILE` (required; - for standard input)")
	fs.StringVar(&t.inputsFile, "inputs", "", "read variability inputs from `FILE` (YAML, or FeatureIDE .xml; - reads YAML from standard input)")
	fs.Var(t.presets, "preset", "apply the variability preset `NAME`; repeatable, or a comma-separated list")
	fs.Var(t.presets, "presets", "same as --preset, and takes the `NAME`s that follow it too (--presets a b)")
	fs.Var(t.inputs, "input", "set the variability input `NAME=VALUE`, VALUE read as YAML (true, 3, [a, b], 'text'); repeatable")
	fs.Var(t.options, "option", "override the variability option `NAME=VALUE` (VALUE read as YAML); repeatable")
	fs.BoolVar(&t.allowOutside, "allow-outside", false, "let imports and side files leave the directory tree of the template")
	if !t.noDump {
		choiceVar(fs, &t.dump, "dump", "", "write the encoded formula in `FORMAT` (%s) to the FILE given as the next argument", "cnf", "opb")
	}
}

// registerProblems defines --problems, for the commands whose failures
// about the template end with a hint (reportProblems).
func (t *templateFlags) registerProblems(fs *pflag.FlagSet) {
	fs.BoolVar(&t.problems, "problems", false, "on a failure about the template, list every problem v4t validate finds in it")
}

// parse checks the flags and builds the resolver's input and options. It
// consumes the dump file from args when --dump is given.
func (t *templateFlags) parse(e *env, args []string) (resolve.Input, resolve.Options, string, error) {
	dumpFile := ""
	if t.dump != "" {
		if len(args) == 0 {
			return resolve.Input{}, resolve.Options{}, "", usagef(t.cmd, "--dump %s needs a FILE argument", t.dump)
		}
		dumpFile, args = args[0], args[1:]
	}
	if len(args) > 0 {
		return resolve.Input{}, resolve.Options{}, "", usagef(t.cmd, "unexpected argument %q", args[0])
	}
	if t.template == "" {
		return resolve.Input{}, resolve.Options{}, "", usagef(t.cmd, "--template is required")
	}
	templateStdin := t.template == "-" && t.templateData == nil
	if templateStdin && t.inputsFile == "-" {
		return resolve.Input{}, resolve.Options{}, "", usagef(t.cmd, "the template and --inputs cannot both be read from standard input (-)")
	}
	in := resolve.Input{TemplatePath: t.template, InputsPath: t.inputsFile, Presets: t.presets.items, TemplateData: t.templateData}
	opts := resolve.Options{LookupEnv: os.LookupEnv, Environ: os.Environ, Debug: e.g.debug, AllowOutside: t.allowOutside, Warn: e.warn}
	for _, a := range t.inputs.items {
		as, err := parseAssignment(t.cmd, "--input", a)
		if err != nil {
			return in, opts, "", err
		}
		in.Inputs = append(in.Inputs, as)
	}
	for _, a := range t.options.items {
		as, err := parseAssignment(t.cmd, "--option", a)
		if err != nil {
			return in, opts, "", err
		}
		opts.Overrides = append(opts.Overrides, as)
	}
	for _, f := range []string{t.template, t.inputsFile} {
		if f == "" || f == "-" || f == t.template && t.templateData != nil {
			continue
		}
		if err := readable(f); err != nil {
			return in, opts, "", err
		}
	}
	// Standard input last, so that a mistyped path or flag is reported
	// without waiting for it.
	if templateStdin {
		data, err := e.readStdin()
		if err != nil {
			return in, opts, "", err
		}
		in.TemplatePath, in.TemplateData = stdinName, data
	}
	if t.inputsFile == "-" {
		data, err := e.readStdin()
		if err != nil {
			return in, opts, "", err
		}
		in.InputsPath, in.InputsData = stdinName, data
	}
	if dumpFile != "" {
		format := t.dump
		opts.Dump = func(f *resolve.Formula) error {
			var buf bytes.Buffer
			var err error
			if format == "cnf" {
				err = f.WriteDIMACS(&buf)
			} else {
				err = f.WriteOPB(&buf)
			}
			if err != nil {
				return err
			}
			return writeFileAtomic(dumpFile, buf.Bytes())
		}
	}
	return in, opts, dumpFile, nil
}

func setupResolve(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "resolve"}
	t.register(fs)
	t.registerProblems(fs)
	var output, timings string
	var explain bool
	fs.StringVarP(&output, "output", "o", "", "write the result to `FILE` (default: standard output; - for standard output)")
	fs.BoolVar(&explain, "explain", false, `on "Could not solve", print a minimal set of conflicting conditions`)
	// --timings-json is how v4t bench learns the stage durations of its
	// child processes.
	fs.StringVar(&timings, "timings-json", "", "write the stage durations to `FILE` (for v4t bench)")
	_ = fs.MarkHidden("timings-json")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("resolve", err)
		}
		if ownProcess {
			if in.TemplateData != nil {
				batchGCData(in.TemplateData)
			} else {
				batchGC(in.TemplatePath)
			}
		}
		opts.Explain = explain
		res, err := resolve.Resolve(ctx, in, opts)
		if err != nil {
			var problems diag.List
			problems, err = e.templateProblems(ctx, in, opts, err)
			code := e.fail("resolve", err)
			if d, ok := asDiag(err); ok && explain && !e.g.debug && d.Message == msgCouldNotSolve {
				for _, r := range d.Related {
					if r.Pos.Known() {
						fmt.Fprintf(e.stderr, "  conflict: %s: %s\n", r.Pos, oneLine(r.Message))
					} else {
						fmt.Fprintf(e.stderr, "  conflict: %s\n", oneLine(r.Message))
					}
				}
			}
			e.reportProblems(in, problems, t.problems)
			return code
		}
		emitStart := time.Now()
		// The document goes straight to its destination: a large one would
		// otherwise be held twice in memory, in pieces and joined.
		if output == "" || output == "-" {
			if err := yamlsrc.Write(e.stdout, res.Doc); err != nil {
				return e.fail("resolve", fmt.Errorf("cannot write the result: %w", err))
			}
		} else if err := writeFileAtomicWith(output, func(w io.Writer) error { return yamlsrc.Write(w, res.Doc) }); err != nil {
			return e.fail("resolve", err)
		}
		if timings != "" {
			if err := writeTimingsJSON(timings, &res.Timings, time.Since(emitStart)); err != nil {
				return e.fail("resolve", err)
			}
		}
		return exitOK
	}
}

// msgCouldNotSolve is the reference's message for an unsatisfiable
// template, the one diagnostic whose related notes --explain prints as
// "conflict:" lines.
const msgCouldNotSolve = "Could not solve"

// parseAssignment reads NAME=VALUE of --input or --option; VALUE is a YAML
// value.
func parseAssignment(cmd, flag, s string) (resolve.Assignment, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return resolve.Assignment{}, usagef(cmd, "%s %q: expected NAME=VALUE", flag, s)
	}
	v, err := yamlsrc.Parse([]byte(value), flag+" "+name)
	if err != nil {
		msg := err.Error()
		if d, ok := asDiag(err); ok {
			msg = d.Message
		}
		return resolve.Assignment{}, usagef(cmd, "%s %s: %s", flag, name, msg)
	}
	return resolve.Assignment{Name: name, Value: v, Origin: flag + " " + s}, nil
}

// readable checks that a named input file exists and is a file, so that a
// typo in a path is reported before any work is done.
func readable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: cannot read: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("%s: cannot read: is a directory", path)
	}
	return nil
}

// listValue is a repeatable string flag; with split, each value may also be
// a comma-separated list.
type listValue struct {
	items []string
	split bool
}

func (l *listValue) String() string { return strings.Join(l.items, ",") }

func (l *listValue) Type() string { return "strings" }

func (l *listValue) Set(s string) error {
	if !l.split {
		l.items = append(l.items, s)
		return nil
	}
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			l.items = append(l.items, part)
		}
	}
	return nil
}
