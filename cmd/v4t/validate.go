package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"v4t/model/diag"
	"v4t/model/validate"
	"v4t/model/yamlsrc"
	"v4t/resolve"
	"v4t/resolve/complete"
)

func validateCommand() *command {
	return &command{
		name:    "validate",
		summary: "report every problem of a TOSCA or variable service template, with its position",
		usage:   "v4t validate FILE|- [--inputs FILE] [--preset NAME]... [--input NAME=VALUE]... [--format text|json] [--allow-outside]",
		help: `Validate reads a TOSCA 1.3 or Variability4TOSCA service template, the files
it imports and the type files in lib/ next to it, and reports every problem
it finds, sorted by file, line and column, one per line as
"file:line:col: message": YAML errors, wrong kinds of values, unknown and
missing fields, import cycles, imports that leave the template's directory
(unless --allow-outside), unknown and ambiguous type names, loops in
derived_from, overrides that break the parent type's contract, node
templates that do not match their types (properties, capabilities,
requirements and their targets, occurrences), operations, input defaults of
the wrong type, and variability options the resolver does not know.

With --inputs, --preset or --input, the template is also resolved and the
resolved variant validated as well; its problems are reported as
"<variant of FILE>: ...".

FILE - reads the template from standard input (named <stdin>; its imports
are relative to the working directory).

Exit status: 0 when there are no problems, 1 when there are, 2 on usage
errors.`,
		example: "v4t validate testdata/validate/valid/normative/template.yaml",
		setup:   setupValidate,
	}
}

func setupValidate(fs *pflag.FlagSet) func(context.Context, *env, []string) int {
	t := &templateFlags{cmd: "validate"}
	t.presets = &listValue{split: true}
	t.inputs = &listValue{}
	t.options = &listValue{}
	fs.StringVar(&t.inputsFile, "inputs", "", "also validate the variant resolved with the variability inputs in `FILE`")
	fs.Var(t.presets, "preset", "also validate the variant resolved with the preset `NAME`; repeatable, or a comma-separated list")
	fs.Var(t.inputs, "input", "also validate the variant resolved with the variability input `NAME=VALUE`; repeatable")
	var format string
	var allowOutside bool
	choiceVar(fs, &format, "format", "text", "print problems as `FORMAT`: %s", "text", "json")
	fs.BoolVar(&allowOutside, "allow-outside", false, "let imports leave the directory tree of the template")
	return func(ctx context.Context, e *env, args []string) int {
		if len(args) == 0 {
			return e.usage("validate", "expected a template FILE")
		}
		if len(args) > 1 {
			return e.usage("validate", fmt.Sprintf("unexpected argument %q", args[1]))
		}
		file := args[0]
		var data []byte // the template read from standard input
		if file == "-" {
			if t.inputsFile == "-" {
				return e.usage("validate", "the template and --inputs cannot both be read from standard input (-)")
			}
			var err error
			if data, err = e.readStdin(); err != nil {
				return e.fail("validate", err)
			}
			file = stdinName
		}
		if ownProcess {
			// Validation, like a resolve, keeps what it allocates (the
			// document, the entity model, the problems) until it prints.
			size := int64(-1)
			if data != nil {
				size = int64(len(data))
			}
			validateGC(file, size)
		}
		opts := validate.Options{AllowOutside: allowOutside, Embedded: embeddedImports()}
		var problems diag.List
		if data != nil {
			problems = validate.Bytes(ctx, data, file, opts)
		} else {
			problems = validate.File(ctx, file, opts)
		}
		if len(t.presets.items) > 0 || len(t.inputs.items) > 0 || t.inputsFile != "" {
			// A warning of the resolve that is a problem of the
			// template already (an unknown option) is not repeated.
			for _, p := range problems {
				e.said("warning: " + oneLine(p.Line()))
			}
			problems = append(problems, validateVariant(ctx, e, t, file, data, opts)...).Sorted()
		}
		if err := writeProblems(e.stdout, problems, format); err != nil {
			return e.fail("validate", err)
		}
		if slices.ContainsFunc(problems, isInternal) {
			return exitInternal
		}
		if len(problems) > 0 {
			e.problemsHeadline(problems)
			return exitRejected
		}
		return exitOK
	}
}

// problemsHeadline says on standard error why validate exits with 1: the
// first problem, and how many more are listed on standard output. When
// both streams go to the same place (a terminal, or 2>&1) the list has
// said it already.
func (e *env) problemsHeadline(problems diag.List) {
	if sameFile(e.stdout, e.stderr) {
		return
	}
	more := ""
	if n := len(problems) - 1; n > 0 {
		more = " (and " + plural(n, "more problem") + " on standard output)"
	}
	fmt.Fprintf(e.stderr, "error: %s%s\n", oneLine(problems[0].Line()), more)
}

// sameFile reports whether writers a and b are the same open file.
func sameFile(a, b io.Writer) bool {
	fa, ok1 := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// embeddedImports are the import URLs served without network access.
func embeddedImports() map[string]validate.Embedded {
	return map[string]validate.Embedded{
		complete.ToskerTypesURL: {Name: "<tosker types>", Data: complete.ToskerTypes()},
	}
}

// writeProblems prints problems one per line, or as a JSON array with the
// field names of style.md §3.4.
func writeProblems(w io.Writer, problems diag.List, format string) error {
	var b strings.Builder
	if format == "json" {
		type jsonProblem struct {
			File    string `json:"file,omitempty"`
			Line    int    `json:"line,omitempty"`
			Col     int    `json:"col,omitempty"`
			Stage   string `json:"stage,omitempty"`
			Code    string `json:"code,omitempty"`
			Message string `json:"message"`
			// Reference is the reference's message where v4t words
			// the problem differently (README, "Malformed input").
			Reference string `json:"reference,omitempty"`
		}
		out := make([]jsonProblem, 0, len(problems))
		for _, d := range problems {
			out = append(out, jsonProblem{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Stage: d.Stage, Code: d.Code, Message: d.Message, Reference: d.Reference})
		}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	} else {
		for _, d := range problems {
			b.WriteString(d.Line())
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("cannot write the problems: %w", err)
	}
	return nil
}

// validateVariant resolves the template with the given inputs and
// validates the resolved variant. Its problems carry the template's file
// name: resolved values keep their positions in the template, and a problem
// both have is reported once.
//
// data is the template when it was read from standard input (file is then
// stdinName).
func validateVariant(ctx context.Context, e *env, t *templateFlags, file string, data []byte, opts validate.Options) diag.List {
	t.template, t.templateData = file, data
	in, ropts, _, err := t.parse(e, nil)
	if err == nil {
		var res *resolve.Result
		res, err = resolve.Resolve(ctx, in, ropts)
		if err == nil {
			return validate.Document(ctx, res.Doc, file, opts)
		}
	}
	d, ok := diag.As(err)
	if !ok {
		d = diag.New(diag.StageValidate, err.Error())
	}
	c := *d
	c.Message = "cannot resolve the variant: " + c.Message
	if c.Pos.File == "" {
		c.Pos.File = file
	}
	return diag.List{&c}
}

// templateProblems runs when a resolve, enumerate, analyze, sample or
// graph of in failed with err, before anything is printed: when err is a
// diagnostic about the template, it returns the problems v4t validate finds
// in the template, less those at the error's own position, and err with
// the "did you mean" hint of such a problem added to its message. A
// successful command never gets here, so validation costs nothing unless
// something is wrong. The reference's message stays the error line; at most
// a hint follows it (reportProblems), so a failure is one or two lines.
func (e *env) templateProblems(ctx context.Context, in resolve.Input, opts resolve.Options, err error) (diag.List, error) {
	if !aboutTemplate(in, err) || ctx.Err() != nil {
		return nil, err
	}
	vopts := validate.Options{Embedded: embeddedImports(), AllowOutside: opts.AllowOutside}
	var all diag.List
	if in.TemplateData != nil {
		all = validate.Bytes(ctx, in.TemplateData, in.TemplatePath, vopts)
	} else {
		all = validate.File(ctx, in.TemplatePath, vopts)
	}
	if ctx.Err() != nil {
		return nil, err // a timeout: the partial list would mislead
	}
	d, _ := diag.As(err)
	hint := ""
	problems := all[:0:0]
	for _, p := range all {
		switch {
		case isInternal(p): // a bug of the validator is not the template's problem
		case sameDefect(p, d):
			if i := strings.Index(p.Message, " (did you mean "); i >= 0 && hint == "" && !strings.Contains(d.Message, "did you mean") {
				hint = p.Message[i:]
			}
		default:
			problems = append(problems, p)
		}
	}
	if hint != "" {
		c := *d
		c.Message += hint
		err = &c
	}
	return problems, err
}

// failTemplate fails cmd with err, which came of reading the template: the
// error line, then what else v4t validate finds in the template
// (templateProblems, reportProblems; all lists them). It returns the exit
// status.
func (e *env) failTemplate(ctx context.Context, cmd string, in resolve.Input, opts resolve.Options, all bool, err error) int {
	problems, err := e.templateProblems(ctx, in, opts, err)
	code := e.fail(cmd, err)
	e.reportProblems(in, problems, all)
	return code
}

// warnAll writes each warning on standard error as one line.
func (e *env) warnAll(warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(w))
	}
}

// reportProblems follows the error line with what templateProblems found:
// one hint line, "hint: v4t validate FILE lists N more problems", or with
// all (--problems) every problem, each as "  problem: file:line:col:
// message". Nothing when the validator finds nothing beyond the error.
func (e *env) reportProblems(in resolve.Input, problems diag.List, all bool) {
	if len(problems) == 0 {
		return
	}
	var b strings.Builder
	if !all {
		file := shellQuote(in.TemplatePath)
		if in.TemplateData != nil {
			file = "-" // the template came from standard input
		}
		fmt.Fprintf(&b, "hint: v4t validate %s lists %s\n", file, plural(len(problems), "more problem"))
	} else {
		for _, d := range problems {
			b.WriteString("  problem: ")
			b.WriteString(oneLine(d.Line()))
			b.WriteByte('\n')
		}
	}
	_, _ = io.WriteString(e.stderr, b.String())
}

// sameDefect reports whether the validator's problem p is the resolver's
// error d in other words: at the same place, on the same line (the
// resolver points at a condition's map, the validator at its operator), or
// in the same file about the same quoted name (the resolver's `Node
// "ghost" not found` is at the node whose condition names ghost, the
// validator's at the name).
func sameDefect(p, d *diag.Diagnostic) bool {
	if d == nil {
		return false
	}
	if samePlace(p.Pos, d.Pos) {
		return true
	}
	if p.Pos.File != d.Pos.File || p.Pos.Line == 0 || d.Pos.Line == 0 {
		return false
	}
	if p.Pos.Line == d.Pos.Line {
		return true
	}
	name, ok := firstQuoted(d.Message)
	return ok && strings.Contains(p.Message, strconv.Quote(name))
}

// firstQuoted returns the first double-quoted word of a message of the
// reference's, such as ghost in `Node "ghost" not found`.
func firstQuoted(msg string) (string, bool) {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(msg[i+1:], '"')
	if j <= 0 || strings.ContainsAny(msg[i+1:i+1+j], "\n{[") {
		return "", false
	}
	return msg[i+1 : i+1+j], true
}

// samePlace reports whether positions p and q name the same place: the
// same file and line, and the same column unless one of them has none.
func samePlace(p, q diag.Pos) bool {
	return p.File == q.File && p.Line == q.Line && p.Line > 0 &&
		(p.Col == q.Col || p.Col == 0 || q.Col == 0)
}

// aboutTemplate reports whether err, the failure of a resolve or
// enumerate of in, is a diagnostic about the template: not a usage error,
// a timeout, an internal error, a file that cannot be read, enumerate's
// refusal to list too many variants, or a problem of the inputs file.
func aboutTemplate(in resolve.Input, err error) bool {
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	d, ok := diag.As(err)
	if !ok || isInternal(d) || d.Code == yamlsrc.CodeRead || d.Code == resolve.CodeTooManyVariants {
		return false
	}
	return in.InputsPath == "" || d.Pos.File != in.InputsPath
}
