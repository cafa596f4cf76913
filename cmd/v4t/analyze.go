package main

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/js"
	"v4t/resolve"
)

func analyzeCommand() *command {
	return &command{
		name:    "analyze",
		summary: "count the variants of a template and find its core and dead elements",
		usage:   "v4t analyze --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--open-inputs[=NAME,...]] [--format text|json] [--output FILE] [--problems]",
		help: `Analyze reports on the configuration space of a template: the number of
its variants (the distinct sets of present node templates and relations
that its conditions and constraints allow, as v4t enumerate lists them),
the core elements (present in every variant), the dead elements (present
in none: almost always a modelling mistake) and the commonality of every
element (the fraction of the variants that hold it). Counts are exact, and
the space is compiled once (a Decision-DNNF, as d4 and ddnnife build
them), so templates with 10^400 variants are analysed in seconds.

The text report lists the core and dead elements with their positions and
every element's commonality; each dead element is also a warning on
standard error. The exit status is 0 whatever the report says.

--format json prints {"variants": "<decimal>", "core": [{"id": ...,
"position": "FILE:L:C"}], "dead": [...], "commonality": {"<id>": 0.5, ...}}
with the ids v4t enumerate prints; with --open-inputs it adds "inputs":
{"<name>": {"<value>": <commonality>, ...}}.

` + openInputsHelp,
		example: "v4t analyze --template testdata/spaces/dead.yaml\nv4t analyze --template testdata/examples/webshop/template.yaml --open-inputs --format json",
		setup:   setupAnalyze,
	}
}

func setupAnalyze(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t, open := registerSpaceFlags(fs, "analyze")
	var format, output string
	choiceVar(fs, &format, "format", "text", "output `FORMAT`: %s", "text", "json")
	fs.StringVarP(&output, "output", "o", "", "write the report to `FILE` (default: standard output)")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("analyze", err)
		}
		stop := e.progress("analyze: compiling the configuration space")
		a, err := resolve.Analyze(ctx, in, opts, open.options())
		stop()
		if err != nil {
			return e.failTemplate(ctx, "analyze", in, opts, t.problems, err)
		}
		e.warnAll(a.Warnings)
		for _, el := range a.Elements {
			if a.Dead(el) {
				fmt.Fprintf(e.stderr, "warning: %s: %s is dead: no variant holds it\n", el.Pos, el.ID)
			}
		}
		for _, ic := range a.Inputs {
			for i, n := range ic.Counts {
				if a.Variants.Sign() > 0 && n.Sign() == 0 {
					fmt.Fprintf(e.stderr, "warning: %s: input %s=%s is in no variant\n", ic.Input.Pos, ic.Input.Name, resolve.Flow(ic.Input.Values[i]))
				}
			}
		}
		if a.Variants.Sign() == 0 {
			fmt.Fprintf(e.stderr, "warning: %s: the template has no variant: its conditions and constraints contradict each other (v4t resolve --explain names them)\n", in.TemplatePath)
		}
		var buf bytes.Buffer
		if format == "json" {
			writeAnalysisJSON(&buf, a)
		} else {
			writeAnalysisText(&buf, a)
		}
		return e.writeOutput("analyze", output, buf.Bytes())
	}
}

// writeOutput writes a report to standard output, or atomically to a file.
func (e *env) writeOutput(cmd, output string, data []byte) int {
	if output == "" || output == "-" {
		if _, err := e.stdout.Write(data); err != nil {
			return e.fail(cmd, fmt.Errorf("cannot write the report: %w", err))
		}
		return exitOK
	}
	if err := writeFileAtomic(output, data); err != nil {
		return e.fail(cmd, err)
	}
	return exitOK
}

// commonality renders a fraction with six significant digits.
func commonality(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

func writeAnalysisText(w *bytes.Buffer, a *resolve.Analysis) {
	fmt.Fprintf(w, "variants: %s\n", a.Variants)
	list := func(title string, pick func(resolve.ElementCount) bool) {
		var els []resolve.ElementCount
		for _, el := range a.Elements {
			if pick(el) {
				els = append(els, el)
			}
		}
		fmt.Fprintf(w, "%s: %d\n", title, len(els))
		width := 0
		for _, el := range els {
			width = max(width, len(el.ID))
		}
		for _, el := range els {
			fmt.Fprintf(w, "  %-*s  %s\n", width, el.ID, el.Pos)
		}
	}
	list("core (in every variant)", a.Core)
	list("dead (in no variant)", a.Dead)
	if a.Variants.Sign() == 0 {
		return
	}
	fmt.Fprintln(w, "commonality (the fraction of the variants that hold it):")
	width := 0
	for _, el := range a.Elements {
		width = max(width, len(el.ID))
	}
	for _, ic := range a.Inputs {
		for _, v := range ic.Input.Values {
			width = max(width, len(ic.Input.Name)+1+len(resolve.Flow(v)))
		}
	}
	for _, el := range a.Elements {
		fmt.Fprintf(w, "  %-*s  %s\n", width, el.ID, commonality(a.Commonality(el.Count)))
	}
	for _, ic := range a.Inputs {
		for i, v := range ic.Input.Values {
			fmt.Fprintf(w, "  %-*s  %s\n", width, ic.Input.Name+"="+resolve.Flow(v), commonality(a.Commonality(ic.Counts[i])))
		}
	}
}

// writeAnalysisJSON writes the report with its keys in a fixed order and
// the commonality map in element order.
func writeAnalysisJSON(w *bytes.Buffer, a *resolve.Analysis) {
	var b strings.Builder
	q := func(s string) string {
		b.Reset()
		js.QuoteJSON(&b, s)
		return b.String()
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	fmt.Fprintf(w, "{\n  \"variants\": %s,\n", q(a.Variants.String()))
	list := func(key string, pick func(resolve.ElementCount) bool) {
		fmt.Fprintf(w, "  %s: [", q(key))
		n := 0
		for _, el := range a.Elements {
			if !pick(el) {
				continue
			}
			if n > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(w, "\n    {\"id\": %s, \"position\": %s}", q(el.ID), q(el.Pos.String()))
			n++
		}
		if n > 0 {
			w.WriteString("\n  ")
		}
		w.WriteString("],\n")
	}
	list("core", a.Core)
	list("dead", a.Dead)
	w.WriteString("  \"commonality\": {")
	for i, el := range a.Elements {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, "\n    %s: %s", q(el.ID), num(a.Commonality(el.Count)))
	}
	if len(a.Elements) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("}")
	if len(a.Inputs) > 0 {
		w.WriteString(",\n  \"inputs\": {")
		for i, ic := range a.Inputs {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(w, "\n    %s: {", q(ic.Input.Name))
			for j, v := range ic.Input.Values {
				if j > 0 {
					w.WriteString(", ")
				}
				fmt.Fprintf(w, "%s: %s", q(resolve.Flow(v)), num(a.Commonality(ic.Counts[j])))
			}
			w.WriteString("}")
		}
		w.WriteString("\n  }")
	}
	w.WriteString("\n}\n")
}
