package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func sampleCommand() *command {
	return &command{
		name:    "sample",
		summary: "draw uniform or t-wise covering samples of the variants of a template",
		usage:   "v4t sample --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--open-inputs[=NAME,...]] (--uniform N | --pairwise | --t 1|2|3) [--seed S] [--format text|json|space] [--output FILE] [--problems]",
		help: `Sample draws variants of a template (the sets of present node templates and
relations that v4t enumerate lists, with the values of the open inputs).

--uniform N draws N variants independently and exactly uniformly: the
space is compiled once and counted exactly, a uniform integer below the
count is drawn (big integers, no floating point) and the variant of that
rank is built, so every variant has the same chance even among 10^400.

--pairwise (--t 2), or --t 1|3, builds a t-wise covering sample instead:
every combination of t element presences or absences (and open input
values) that some variant has appears in at least one sampled variant,
and the sample stays small (greedy, as YASA and IncLing build them: 20
free choices take about 10 variants pairwise).

The same --seed (default 1) gives the same sample, byte for byte.

--format text prints one line per sampled variant; json prints
{"variants": [{"present": [...], "inputs": {...}}]} as v4t enumerate does,
with the method, the seed and the number of variants of the space; space
writes a v4t batch space file with one input set per sampled variant (its
open input values, and the --input values), the template and the presets
and options given, so that the sample can be resolved and compared at once
(with --open-inputs; paths are relative to the --output file).

` + openInputsHelp,
		example: "v4t sample --template testdata/spaces/chain.yaml --uniform 5 --seed 7\nv4t sample --template testdata/spaces/chain.yaml --pairwise --format json",
		setup:   setupSample,
	}
}

func setupSample(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t, open := registerSpaceFlags(fs, "sample")
	var uniform, strength int
	var pairwise bool
	var seed uint64
	var format, output string
	fs.IntVar(&uniform, "uniform", 0, "draw `N` variants exactly uniformly")
	fs.BoolVar(&pairwise, "pairwise", false, "build a pairwise covering sample (--t 2)")
	fs.IntVar(&strength, "t", 0, "build a t-wise covering sample of strength `T` (1, 2 or 3)")
	fs.Uint64Var(&seed, "seed", 1, "seed the generator with `S`")
	choiceVar(fs, &format, "format", "text", "output `FORMAT`: %s", "text", "json", "space")
	fs.StringVarP(&output, "output", "o", "", "write the sample to `FILE` (default: standard output)")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("sample", err)
		}
		if pairwise {
			if strength != 0 && strength != 2 {
				return e.usage("sample", fmt.Sprintf("--pairwise is --t 2, not --t %d", strength))
			}
			strength = 2
		}
		switch {
		case uniform < 0:
			return e.usage("sample", "--uniform must be positive")
		case uniform > 0 && strength != 0:
			return e.usage("sample", "give either --uniform N or --pairwise/--t, not both")
		case uniform == 0 && strength == 0:
			return e.usage("sample", "give --uniform N, --pairwise or --t 1|2|3")
		case strength < 0 || strength > 3:
			return e.usage("sample", fmt.Sprintf("--t %d: expected 1, 2 or 3", strength))
		}
		if format == "space" {
			if !open.set {
				return e.usage("sample", "--format space writes the sampled input values: give --open-inputs")
			}
			if in.InputsPath != "" {
				return e.usage("sample", "--format space cannot carry --inputs FILE: give the values with --input NAME=VALUE")
			}
			if in.TemplateData != nil {
				return e.usage("sample", "--format space names the template's file: give --template FILE, not standard input")
			}
		}
		stop := e.progress("sample: compiling the configuration space")
		res, err := resolve.Sample(ctx, in, opts, resolve.SampleOptions{Space: open.options(), Uniform: uniform, T: strength, Seed: seed})
		stop()
		if err != nil {
			return e.failTemplate(ctx, "sample", in, opts, t.problems, err)
		}
		e.warnAll(res.Warnings)
		if res.Count.Sign() == 0 {
			fmt.Fprintf(e.stderr, "warning: %s: the template has no variant, so the sample is empty\n", in.TemplatePath)
		}
		method := "uniform"
		if strength > 0 {
			method = fmt.Sprintf("%d-wise", strength)
		}
		var buf bytes.Buffer
		switch format {
		case "text":
			for i, v := range res.Variants {
				writeVariant(&buf, "sample", i+1, v.Present, v.Inputs)
			}
			fmt.Fprintf(&buf, "%s (%s, seed %d) of %s\n", plural(len(res.Variants), "sample"), method, seed, plural64(res.Count.String(), "variant"))
		case "json":
			out := struct {
				Method        string        `json:"method"`
				Seed          uint64        `json:"seed"`
				SpaceVariants string        `json:"space_variants"`
				Variants      []variantJSON `json:"variants"`
			}{Method: method, Seed: seed, SpaceVariants: res.Count.String(), Variants: []variantJSON{}}
			for _, v := range res.Variants {
				out.Variants = append(out.Variants, newVariantJSON(v.Present, v.Inputs, true))
			}
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			if err := enc.Encode(out); err != nil {
				return e.fail("sample", err)
			}
		case "space":
			writeSampleSpace(&buf, in, opts, res, output, method, seed)
		}
		return e.writeOutput("sample", output, buf.Bytes())
	}
}

// plural64 is plural for a count written in decimal.
func plural64(n, word string) string {
	if n == "1" {
		return "1 " + word
	}
	return n + " " + word + "s"
}

// writeSampleSpace writes a v4t batch space with one input set per sampled
// variant. List values are wrapped in a list, since a list in an input set
// expands to one run per item.
func writeSampleSpace(w *bytes.Buffer, in resolve.Input, opts resolve.Options, res *resolve.Sampled, output, method string, seed uint64) {
	base := "."
	if output != "" && output != "-" {
		base = filepath.Dir(output)
	}
	tmpl := in.TemplatePath
	if absT, err := filepath.Abs(tmpl); err == nil {
		if absB, err := filepath.Abs(base); err == nil {
			if rel, err := filepath.Rel(absB, absT); err == nil {
				tmpl = rel
			}
		}
	}
	flow := func(v *yamlsrc.Value) string {
		if v.IsList() {
			return "[" + resolve.Flow(v) + "]"
		}
		return resolve.Flow(v)
	}
	fmt.Fprintf(w, "# A v4t batch space: %s (%s, seed %d) of the %s of %s.\n",
		plural(len(res.Variants), "sample"), method, seed, plural64(res.Count.String(), "variant"), in.TemplatePath)
	fmt.Fprintf(w, "templates: [%s]\n", resolve.Flow(yamlsrc.NewString(filepath.ToSlash(tmpl))))
	if len(in.Presets) > 0 {
		names := make([]string, len(in.Presets))
		for i, p := range in.Presets {
			names[i] = resolve.Flow(yamlsrc.NewString(p))
		}
		fmt.Fprintf(w, "presets: [[%s]]\n", strings.Join(names, ", "))
	}
	w.WriteString("inputs:\n")
	for i, v := range res.Variants {
		var parts []string
		for _, a := range in.Inputs {
			parts = append(parts, resolve.Flow(yamlsrc.NewString(a.Name))+": "+flow(a.Value))
		}
		for _, a := range v.Inputs {
			parts = append(parts, resolve.Flow(yamlsrc.NewString(a.Name))+": "+flow(a.Value))
		}
		fmt.Fprintf(w, "    - {%s}  # sample %d: %s\n", strings.Join(parts, ", "), i+1, strings.Join(v.Present, " "))
	}
	if len(res.Variants) == 0 {
		w.WriteString("    - {}\n")
	}
	if len(opts.Overrides) > 0 {
		var parts []string
		for _, a := range opts.Overrides {
			parts = append(parts, resolve.Flow(yamlsrc.NewString(a.Name))+": "+flow(a.Value))
		}
		fmt.Fprintf(w, "options:\n    - {%s}\n", strings.Join(parts, ", "))
	}
}
