package resolve

import (
	"os"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	mv "v4t/model/validate"
	"v4t/model/yamlsrc"
)

// The reference passes imports through to the output without reading them,
// and the conformance corpus imports files that do not exist, so a missing
// import is not an error here (v4t validate reports it). What the resolver
// does refuse, before any work, is what no output can make right: a local
// import that leaves the template's directory tree (unless AllowOutside),
// an imported file that is not YAML, and a cycle of imports.

// allowOutsideHint ends the message about a file outside the template's
// directory tree.
const allowOutsideHint = " (--allow-outside permits it)"

// maxImportDepth bounds chains of imports, as the validator does.
const maxImportDepth = 100

type importWalk struct {
	root  mv.Tree // the template's directory
	allow bool
	state map[string]int8 // by real path; 1: on the stack, 2: done
	stack []string
	reals []string // the real path of each file on the stack
}

// checkImports follows the local file imports of the template at path,
// whose document is doc, recursively.
func checkImports(path string, doc *yamlsrc.Value, allowOutside bool) error {
	if !doc.Get("imports").IsList() {
		return nil
	}
	w := importWalk{root: mv.NewTree(filepath.Dir(path)), allow: allowOutside, state: map[string]int8{}}
	return w.visit(path, mv.RealPath(path), doc)
}

func (w *importWalk) visit(file, real string, doc *yamlsrc.Value) error {
	w.state[real] = 1
	w.stack = append(w.stack, file)
	w.reals = append(w.reals, real)
	imports := doc.Get("imports")
	for i := 0; imports.IsList() && i < len(imports.List); i++ {
		name := importFile(imports.List[i])
		if name == nil || strings.Contains(name.Str, "://") {
			continue
		}
		pos := diag.Pos{File: file, Line: int(name.Line), Col: int(name.Col)}
		p := filepath.FromSlash(name.Str)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(file), p)
		}
		a := mv.RealPath(p)
		if why := w.root.Leaves(p); !w.allow && why != "" {
			return diag.At(pos, diag.StageLoad, "import \""+name.Str+"\""+why+allowOutsideHint)
		}
		switch w.state[a] {
		case 1:
			return diag.At(pos, diag.StageLoad, "import cycle: "+w.cycle(a, p))
		case 2:
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue // passed through, as the reference does
		}
		if len(w.stack) >= maxImportDepth {
			return diag.At(pos, diag.StageLoad, "import \""+name.Str+"\": imports nested deeper than 100 levels")
		}
		sub, err := yamlsrc.LoadFile(p)
		if err != nil {
			return err
		}
		if err := w.visit(p, a, sub); err != nil {
			return err
		}
	}
	w.state[real] = 2
	w.stack = w.stack[:len(w.stack)-1]
	w.reals = w.reals[:len(w.reals)-1]
	return nil
}

// cycle renders the chain of imports from the file at real (on the stack)
// back to it, as the validator does.
func (w *importWalk) cycle(real, file string) string {
	start := 0
	for i, r := range w.reals {
		if r == real {
			start = i
		}
	}
	var b strings.Builder
	for _, f := range w.stack[start:] {
		b.WriteString(filepath.ToSlash(f))
		b.WriteString(" → ")
	}
	b.WriteString(filepath.ToSlash(file))
	return b.String()
}

// importFile returns the file of an import definition: "file",
// {file: ...}, or the TOSCA 1.0 forms {name: "file"} and
// {name: {file: ...}}; nil for anything else.
func importFile(e *yamlsrc.Value) *yamlsrc.Value {
	if e.IsMap() && !e.Has("file") && e.Map.Len() == 1 {
		e = e.Map.Val(0)
	}
	if e.IsMap() {
		e = e.Get("file")
	}
	if !e.IsString() {
		return nil
	}
	return e
}
