package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"v4t/resolve/batch"
)

func compareCommand() *command {
	return &command{
		name:    "compare",
		summary: "resolve a template under each pruning mode and optimisation setting, side by side",
		usage:   "v4t compare --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--modes pruning,optimisation] [-j N] [--format text|csv|json] [--output FILE] [--out DIR]",
		help: `Compare resolves one template, with the same inputs and presets, under each
pruning mode (the variability option mode: manual, consistent-strict,
consistent-loose, default, semantic-strict, semantic-loose) and each
topology optimisation setting (optimization_topology: false, min, max).
--modes pruning or --modes optimisation compares only one of the two; the
default compares their cross product (18 modes). --option overrides apply
to every mode, before the mode's own options.

It prints the modes with their status (own * marks the template's own
mode: the options the template sets, or the defaults, after --option), a
table with one row per node and relation of the template and one column
per mode (x present, . absent, ! the mode failed; * marks rows that differ
between modes), and for each mode the elements that differ from the first
mode that resolved (+ only in this mode, - only in the first).

--format csv writes one row per mode instead: mode, options, own (yes or
no), status ("ok" or the error), nodes, relations, weight and unique.
--format json writes the template, its presets, inputs and --option
overrides, and per mode its number, options, own (true or false),
status, error, nodes, relations, weight, unique and file (with --out).

--out DIR writes the result of each mode that resolved to DIR, named after
the mode's options: DIR/mode=manual,optimization_topology=max.yaml
(NAME=VALUE joined by commas; characters other than letters, digits and
._-=, become _). Each file is byte for byte what v4t resolve writes with
the same flags and --option NAME=VALUE for each of the mode's options;
the file of a mode that failed is removed.

The exit status is 0 when the template could be read, whatever the modes
gave.`,
		example: "v4t compare --template testdata/examples/motivation/variable-service-template.yaml --preset elastic --modes pruning",
		setup:   setupCompare,
	}
}

// comparisonWriters write a comparison in each --format.
var comparisonWriters = map[string]func(*batch.Comparison, io.Writer) error{
	"text": (*batch.Comparison).WriteTable,
	"csv":  (*batch.Comparison).WriteCSV,
	"json": (*batch.Comparison).WriteJSON,
}

func setupCompare(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "compare", noDump: true}
	t.register(fs)
	var modes, output, format, out string
	var jobs int
	fs.StringVar(&modes, "modes", "pruning,optimisation", "compare the `DIMENSIONS` pruning, optimisation or both (comma-separated)")
	fs.IntVarP(&jobs, "jobs", "j", 0, "resolve `N` modes at once (default: the number of CPUs)")
	fs.StringVarP(&output, "output", "o", "", "write the comparison to `FILE` (default: standard output)")
	choiceVar(fs, &format, "format", "text", "comparison `FORMAT`: %s", "text", "csv", "json")
	fs.StringVar(&out, "out", "", "write the result of each mode to `DIR`/<mode's options>.yaml")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("compare", err)
		}
		o := batch.CompareOptions{Jobs: jobs, Resolve: opts}
		for m := range strings.SplitSeq(modes, ",") {
			switch strings.TrimSpace(m) {
			case "pruning":
				o.Pruning = true
			case "optimisation", "optimization":
				o.Optimization = true
			default:
				return e.usage("compare", "--modes: "+strings.TrimSpace(m)+" is not pruning or optimisation")
			}
		}
		if jobs < 0 {
			return e.usage("compare", "--jobs must not be negative")
		}
		write := comparisonWriters[format]
		if out != "" {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return e.fail("compare", fmt.Errorf("%s: cannot create: %w", out, unwrapPath(err)))
			}
			o.Emit = func(r *batch.Run, write func(io.Writer) error) error {
				return writeFileAtomicWith(filepath.Join(out, batch.ModeFileName(r.Options)), write)
			}
		}
		c, err := batch.Compare(ctx, in, o)
		if err != nil {
			return e.fail("compare", err)
		}
		if out != "" {
			c.Files = make([]string, len(c.Rows))
			for i, row := range c.Rows {
				file := filepath.Join(out, batch.ModeFileName(row.Run.Options))
				if row.Status == batch.OK {
					c.Files[i] = file
					continue
				}
				// No file for a mode that failed, not even one an earlier
				// comparison wrote.
				if err := os.Remove(file); err != nil && !os.IsNotExist(err) {
					return e.fail("compare", err)
				}
			}
		}
		var buf bytes.Buffer
		if err := write(c, &buf); err != nil {
			return e.fail("compare", err)
		}
		if err := writeOutput(e, output, buf.Bytes()); err != nil {
			return e.fail("compare", err)
		}
		return exitOK
	}
}
