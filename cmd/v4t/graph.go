package main

import (
	"context"

	"github.com/spf13/pflag"

	"v4t/resolve/picture"
)

func graphCommand() *command {
	return &command{
		name:    "graph",
		summary: "draw the topology of a template, or of a resolved variant, as DOT or Mermaid",
		usage:   "v4t graph --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--variant] [--hide-absent] [--format dot|mermaid] [--output FILE] [--problems]",
		help: `Graph draws the node templates of a variable service template as boxes and
their relations as arrows, each labelled with its type or name and the
conditions written on it ("if ..."). Conditional elements are dashed;
hosting relations are bold and blue, with a hollow arrowhead.

Without inputs, presets or --variant it draws the variable topology. With
any of them it resolves the template and draws the variant: absent elements
are grey, or left out with --hide-absent. The picture shows the conditions
as written, not the default conditions that pruning modes add.

--format dot (the default) writes Graphviz DOT ("dot -Tsvg FILE > FILE.svg");
--format mermaid writes a Mermaid flowchart for Markdown.`,
		example: `v4t graph --template testdata/examples/motivation/variable-service-template.yaml --output motivation.dot
v4t graph --template testdata/examples/motivation/variable-service-template.yaml --preset elastic --hide-absent --format mermaid`,
		setup: setupGraph,
	}
}

func setupGraph(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "graph", noDump: true}
	t.register(fs)
	t.registerProblems(fs)
	var format, output string
	var variant, hideAbsent bool
	choiceVar(fs, &format, "format", "dot", "picture `FORMAT`: %s", "dot", "mermaid")
	fs.StringVarP(&output, "output", "o", "", "write the picture to `FILE` (default: standard output)")
	fs.BoolVar(&variant, "variant", false, "resolve and draw the variant even without inputs or presets")
	fs.BoolVar(&hideAbsent, "hide-absent", false, "leave out the elements absent from the variant instead of greying them")
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("graph", err)
		}
		variant = variant || in.InputsPath != "" || len(in.Presets) > 0 || len(in.Inputs) > 0
		if hideAbsent && !variant {
			return e.usage("graph", "--hide-absent needs a variant: give inputs, presets or --variant")
		}
		p, err := picture.Load(ctx, in, opts, variant)
		if err != nil {
			return e.failTemplate(ctx, "graph", in, opts, t.problems, err)
		}
		data, err := picture.Draw(p, picture.Options{Format: format, HideAbsent: hideAbsent})
		if err != nil {
			return e.fail("graph", err)
		}
		if err := writeOutput(e, output, data); err != nil {
			return e.fail("graph", err)
		}
		return exitOK
	}
}
