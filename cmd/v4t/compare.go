package main

import (
	"bytes"
	"context"
	"strings"

	"github.com/spf13/pflag"

	"v4t/resolve/batch"
)

func compareCommand() *command {
	return &command{
		name:    "compare",
		summary: "resolve a template under each pruning mode and optimisation setting, side by side",
		usage:   "v4t compare --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--modes pruning,optimisation] [-j N] [--output FILE]",
		help: `Compare resolves one template, with the same inputs and presets, under each
pruning mode (the variability option mode: manual, consistent-strict,
consistent-loose, default, semantic-strict, semantic-loose) and each
topology optimisation setting (optimization_topology: false, min, max).
--modes pruning or --modes optimisation compares only one of the two; the
default compares their cross product (18 modes). --option overrides apply
to every mode, before the mode's own options.

It prints the modes with their status, a table with one row per node and
relation of the template and one column per mode (x present, . absent,
! the mode failed; * marks rows that differ between modes), and for each
mode the elements that differ from the first mode that resolved (+ only in
this mode, - only in the first).

The exit status is 0 when the template could be read, whatever the modes
gave.`,
		example: "v4t compare --template testdata/examples/motivation/variable-service-template.yaml --preset elastic --modes pruning",
		setup:   setupCompare,
	}
}

func setupCompare(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "compare", noDump: true}
	t.register(fs)
	var modes, output string
	var jobs int
	fs.StringVar(&modes, "modes", "pruning,optimisation", "compare the `DIMENSIONS` pruning, optimisation or both (comma-separated)")
	fs.IntVarP(&jobs, "jobs", "j", 0, "resolve `N` modes at once (default: the number of CPUs)")
	fs.StringVarP(&output, "output", "o", "", "write the comparison to `FILE` (default: standard output)")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("compare", err)
		}
		o := batch.CompareOptions{Jobs: jobs, Resolve: opts}
		for _, m := range strings.Split(modes, ",") {
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
		c, err := batch.Compare(ctx, in, o)
		if err != nil {
			return e.fail("compare", err)
		}
		var buf bytes.Buffer
		if err := c.WriteTable(&buf); err != nil {
			return e.fail("compare", err)
		}
		if err := writeOutput(e, output, buf.Bytes()); err != nil {
			return e.fail("compare", err)
		}
		return exitOK
	}
}
