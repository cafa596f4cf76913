package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func resolveCommand() *command {
	return &command{
		name:    "resolve",
		summary: "resolve a variable service template into a TOSCA service template",
		usage:   "v4t resolve --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--output FILE]",
		help: `Resolve reads a variable service template (Variability4TOSCA), assigns the
variability inputs from the presets, the inputs file and --input flags (in
this order, later ones winning), solves the variability, and writes the
resulting TOSCA service template. Nothing is written when resolving fails.

The environment variables OPENTOSCA_VINTNER_VARIABILITY_PRESETS and
OPENTOSCA_VINTNER_VARIABILITY_INPUT_<NAME> are honoured as by the reference.`,
		example: "v4t resolve --template testdata/examples/webshop/template.yaml --preset small --output webshop.yaml",
		setup:   setupResolve,
	}
}

func setupResolve(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	var template, inputsFile, output string
	presets := &listValue{split: true}
	inputs := &listValue{}
	fs.StringVar(&template, "template", "", "the variable service template `FILE` (required)")
	fs.StringVar(&inputsFile, "inputs", "", "read variability inputs from `FILE` (YAML)")
	fs.Var(presets, "preset", "apply the variability preset `NAME`; repeatable, or a comma-separated list")
	fs.Var(presets, "presets", "same as --preset `NAME`")
	fs.Var(inputs, "input", "set the variability input `NAME=VALUE`, VALUE read as YAML (true, 3, [a, b], 'text'); repeatable")
	fs.StringVarP(&output, "output", "o", "", "write the result to `FILE` (default: standard output; - for standard output)")
	return func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 {
			return e.usage("resolve", fmt.Sprintf("unexpected argument %q", args[0]))
		}
		if template == "" {
			return e.usage("resolve", "--template is required")
		}
		in := resolve.Input{TemplatePath: template, InputsPath: inputsFile, Presets: presets.items}
		for _, a := range inputs.items {
			as, err := parseAssignment(a)
			if err != nil {
				return e.fail("resolve", err)
			}
			in.Inputs = append(in.Inputs, as)
		}
		for _, f := range []string{template, inputsFile} {
			if f == "" {
				continue
			}
			if err := readable(f); err != nil {
				return e.fail("resolve", err)
			}
		}
		doc, err := resolve.Resolve(ctx, in, resolve.Options{LookupEnv: os.LookupEnv, Environ: os.Environ, Debug: e.g.debug})
		if err != nil {
			return e.fail("resolve", err)
		}
		data := yamlsrc.Marshal(doc)
		if output == "" || output == "-" {
			if _, err := e.stdout.Write(data); err != nil {
				return e.fail("resolve", fmt.Errorf("cannot write the result: %w", err))
			}
			return exitOK
		}
		if err := writeFileAtomic(output, data); err != nil {
			return e.fail("resolve", err)
		}
		return exitOK
	}
}

// parseAssignment reads --input NAME=VALUE; VALUE is a YAML value.
func parseAssignment(s string) (resolve.Assignment, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return resolve.Assignment{}, usagef("resolve", "--input %q: expected NAME=VALUE", s)
	}
	v, err := yamlsrc.Parse([]byte(value), "--input "+name)
	if err != nil {
		msg := err.Error()
		if d, ok := asDiag(err); ok {
			msg = d.Message
		}
		return resolve.Assignment{}, usagef("resolve", "--input %s: %s", name, msg)
	}
	return resolve.Assignment{Name: name, Value: v}, nil
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
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			l.items = append(l.items, part)
		}
	}
	return nil
}
