package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"v4t/model/yamlsrc"
	"v4t/resolve"
)

func enumerateCommand() *command {
	return &command{
		name:    "enumerate",
		summary: "list every variant of a variable service template",
		usage:   "v4t enumerate --template FILE [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--option NAME=VALUE]... [--open-inputs[=NAME,...]] [--count] [--limit N] [--format text|json|yaml] [--output-dir DIR] [--problems] [--dump cnf|opb FILE]",
		help: `Enumerate lists the variants of a template: every distinct set of present
node templates and relations that its conditions and constraints allow,
without optimisation and uniqueness checks. Inputs and presets fix what they
assign; everything else stays open. Variants are sorted canonically (by the
positions of their present elements in the template, then by the values of
open inputs).

` + openInputsHelp + ` A variant prints as
"variant 3: node.a node.b | mode=large backup=true"; with --format json or
yaml it has an "inputs" map besides "present".

--count prints only the number of variants, exactly: the space is compiled
once into a Decision-DNNF (unit propagation, independent components,
a component cache: what sharpSAT and d4 do), so a chain of 2,000 coupled
choices (about 10^418 variants) counts in well under a second. --limit N
stops after N variants and says so on standard error. Without --limit, a
template with more than 100,000 variants is an error that gives the count
(counted first, so nothing is listed or written), and so is one whose count
needs a circuit of more than a million nodes.
--format json|yaml prints each variant's present element ids for scripts.
--output-dir DIR writes each variant as a resolved template
(DIR/variant-0001.yaml, ...); elements other than nodes and relations follow
v4t's tie-break, and variants the checker rejects are reported.`,
		example: "v4t enumerate --template testdata/examples/webshop/template.yaml --format yaml",
		setup:   setupEnumerate,
	}
}

func setupEnumerate(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "enumerate"}
	t.register(fs)
	t.registerProblems(fs)
	var count bool
	var limit int
	var format, outDir string
	fs.BoolVar(&count, "count", false, "print only the number of variants")
	fs.IntVar(&limit, "limit", 0, "stop after `N` variants (0: no limit)")
	choiceVar(fs, &format, "format", "text", "output `FORMAT`: %s", "text", "json", "yaml")
	fs.StringVar(&outDir, "output-dir", "", "write each variant as a resolved template into `DIR`")
	open := registerOpenInputs(fs)
	return func(ctx context.Context, e *env, args []string) int {
		in, opts, _, err := t.parse(e, args)
		if err != nil {
			return e.fail("enumerate", err)
		}
		if limit < 0 {
			return e.usage("enumerate", "--limit must not be negative")
		}
		stop := e.progress("enumerate: counting the variants")
		res, err := resolve.Enumerate(ctx, in, opts, resolve.EnumerateOptions{Limit: limit, CountOnly: count, Resolve: outDir != "", Max: maxVariants, Space: open.options()})
		stop()
		if err != nil {
			return e.failTemplate(ctx, "enumerate", in, opts, t.problems, err)
		}
		e.warnAll(res.Warnings)
		if !res.Complete {
			fmt.Fprintf(e.stderr, "stopped after %s (--limit %d); there are more\n", plural(limit, "variant"), limit)
		}
		if count {
			fmt.Fprintln(e.stdout, res.Count.String())
			return exitOK
		}
		failed := 0
		if outDir != "" {
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return e.fail("enumerate", fmt.Errorf("%s: cannot create: %w", outDir, unwrapPath(err)))
			}
			for i, v := range res.Variants {
				name := filepath.Join(outDir, fmt.Sprintf("variant-%04d.yaml", i+1))
				if v.Err != nil {
					failed++
					fmt.Fprintf(e.stderr, "variant %d: rejected: %s\n", i+1, oneLine(errText(v.Err)))
					continue
				}
				if err := writeFileAtomic(name, yamlsrc.Marshal(v.Doc)); err != nil {
					return e.fail("enumerate", err)
				}
			}
		}
		if err := printVariants(e, format, res, open.set); err != nil {
			return e.fail("enumerate", err)
		}
		if failed > 0 {
			return exitRejected
		}
		return exitOK
	}
}

// maxVariants is the most variants v4t enumerate lists without --limit;
// larger spaces would take hours and all memory to list.
const maxVariants = 100000

// printVariants prints the variants; withInputs adds their open inputs'
// values (--open-inputs).
func printVariants(e *env, format string, res *resolve.Enumeration, withInputs bool) error {
	switch format {
	case "text":
		for i, v := range res.Variants {
			writeVariant(e.stdout, "variant", i+1, v.Present, v.Inputs)
		}
		fmt.Fprintln(e.stdout, plural(len(res.Variants), "variant"))
		return nil
	case "json":
		out := struct {
			Count    int           `json:"count"`
			Complete bool          `json:"complete"`
			Variants []variantJSON `json:"variants"`
		}{Count: len(res.Variants), Complete: res.Complete, Variants: []variantJSON{}}
		for _, v := range res.Variants {
			out.Variants = append(out.Variants, newVariantJSON(v.Present, v.Inputs, withInputs))
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	variants := yamlsrc.NewList()
	for _, v := range res.Variants {
		ids := yamlsrc.NewList()
		for _, id := range v.Present {
			ids.SetList(append(ids.List(), yamlsrc.NewString(id)))
		}
		vy := yamlsrc.MapOf("present", ids)
		if withInputs {
			vy.Map().Set("inputs", inputsYAML(v.Inputs))
		}
		variants.SetList(append(variants.List(), vy))
	}
	doc := yamlsrc.MapOf("count", yamlsrc.NewNumber(float64(len(res.Variants))),
		"complete", yamlsrc.NewBool(res.Complete), "variants", variants)
	_, err := e.stdout.Write(yamlsrc.Marshal(doc))
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
