package validate

import (
	"context"
	"fmt"
	"path/filepath"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// debugPanics lets panics through, for debugging the validator.
const debugPanics = false

// Options configure a validation.
type Options struct {
	// AllowOutside lets imports leave the directory tree of the template.
	AllowOutside bool
	// Embedded maps import URLs to documents served without network access
	// (for example the TosKer types). Any other URL import is an error.
	Embedded map[string]Embedded
	// NoLib leaves out the lib/ type files next to the template, which the
	// resolver merges into every template (variability.md §2.5).
	NoLib bool
	// MaxProblems caps the number of problems returned; zero means no cap.
	MaxProblems int
}

// Embedded is a document served for an import URL.
type Embedded struct {
	// Name is the file name used in positions, e.g. "<tosker types>".
	Name string
	Data []byte
}

// File validates the template at path and everything it imports. The
// result is sorted and without duplicates; it is empty when the template is
// clean.
func File(ctx context.Context, path string, opts Options) diag.List {
	v := newValidator(ctx, path, opts)
	return v.run(func() *unit { return v.loadRoot(path, nil) })
}

// Bytes validates a template given as bytes, named file in positions;
// imports are read relative to the directory of file.
func Bytes(ctx context.Context, data []byte, file string, opts Options) diag.List {
	v := newValidator(ctx, file, opts)
	return v.run(func() *unit { return v.loadRoot(file, data) })
}

// Document validates a template that is already parsed, for example a
// resolved variant, named file in positions. Imports are read relative to
// the directory of file. The document is not modified. Its values are
// taken to carry positions in file (a resolved variant keeps those of its
// template), so file is read, when it can be, to locate keys.
func Document(ctx context.Context, doc *yamlsrc.Value, file string, opts Options) diag.List {
	v := newValidator(ctx, file, opts)
	data, _ := ReadFile(file)
	return v.run(func() *unit { return v.rootFromDoc(file, data, doc) })
}

func newValidator(ctx context.Context, path string, opts Options) *validator {
	return &validator{ctx: ctx, opts: opts, root: tosca.NewTree(filepath.Dir(path))}
}

// run runs the phases. A panic is a bug in v4t; it becomes an internal
// error diagnostic (style.md §3.3) so that callers never see a stack trace.
func (v *validator) run(load func() *unit) (out diag.List) {
	defer func() {
		if r := recover(); r != nil {
			if debugPanics {
				panic(r)
			}
			out = append(sortProblems(v.problems), &diag.Diagnostic{
				Stage: diag.StageValidate, Code: "internal",
				Message: fmt.Sprintf("internal error: %v (a bug in v4t: please report it)", r),
			})
		}
	}()
	root := load()
	if root != nil && v.ctx.Err() == nil {
		v.normative = normativeUnit()
		v.decodeAll()
		v.namespaces(root)
		v.hierarchy()
		v.inherit()
		v.render(root)
		v.variability(root)
	}
	if err := v.ctx.Err(); err != nil {
		v.problems.Add(diag.New(diag.StageValidate, err.Error()))
	}
	out = sortProblems(v.problems)
	if v.opts.MaxProblems > 0 && len(out) > v.opts.MaxProblems {
		out = out[:v.opts.MaxProblems]
	}
	return out
}
