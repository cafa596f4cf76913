package tosca

import (
	"errors"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Imports (TOSCA 1.3 §3.6.8 import definitions): the one walker of a
// template's file imports. The resolver refuses, before any work, what no
// output can make right and passes the rest through as the reference does;
// the validator reads everything and reports every problem. What they
// share is here: where an imported file is, that each file is read once,
// the template's directory tree, cycles and the depth of chains. What they
// do about each is theirs, in the walk's hooks.

// MaxImportDepth bounds chains of imports: a chain this long is a mistake,
// not a design. The template is at depth 0.
const MaxImportDepth = 100

// SkipImport, returned by ImportWalk.Read, leaves an import out and goes
// on with the next one: the hook has reported why, or the import is
// passed through unread.
var SkipImport = errors.New("import skipped")

// An Import is one import definition being followed.
type Import struct {
	// From is the name of the importing file.
	From string
	// Name is the file name as written in From: a string scalar.
	Name *yamlsrc.Value
	// URL says that Name is a URL (it has "://"); else it names a local
	// file, relative to the directory of From unless absolute.
	URL bool
	// Path is the local file, resolved against From's directory, or the
	// URL.
	Path string
	// Key tells files apart: the real path of a local file (RealPath), or
	// the URL.
	Key string
	// Depth is the depth of the imported file: 1 for the template's own
	// imports.
	Depth int
}

// Pos returns the position of the import's file name.
func (imp *Import) Pos() diag.Pos {
	return diag.Pos{File: imp.From, Line: int(imp.Name.Line), Col: int(imp.Name.Col)}
}

// ImportWalk follows the imports of a template and of the files it
// imports, depth first, reading each file once; F is the caller's record
// of a file read. Read and Imports are required; a nil Outside, Cycle or
// TooDeep leaves the import out without a word.
type ImportWalk[F any] struct {
	// Tree is the template's directory tree. A local import whose file
	// leaves it goes to Outside, unless AllowOutside.
	Tree         Tree
	AllowOutside bool

	// Imports follows the imports of a file read, while the file is being
	// walked, by calling Follow for each import definition it accepts. It
	// is called once per file.
	Imports func(f F) error
	// Read reads the file of an import the first time an import names it,
	// from disk or, for a URL, from wherever the caller serves it. name is
	// the file's name in positions and in cycles; its own imports are
	// resolved against its directory. SkipImport leaves the import out;
	// any other error stops the walk.
	Read func(imp *Import) (f F, name string, err error)
	// Outside, Cycle and TooDeep return nil to leave the import out and go
	// on, or an error to stop the walk.
	//
	// Outside is called for a local import whose file leaves Tree, with
	// the words of Tree.Leaves.
	Outside func(imp *Import, why string) error
	// Cycle is called for an import of a file that is being walked: files
	// names the files of the cycle, from the imported one to the importer
	// (ImportCycle renders it).
	Cycle func(imp *Import, files []string) error
	// TooDeep is called for an import that would read a file at
	// MaxImportDepth.
	TooDeep func(imp *Import) error

	files map[string]*importNode[F] // by Import.Key
	stack []*importNode[F]
}

type importNode[F any] struct {
	f     F
	name  string
	depth int
	open  bool // being walked: on the stack
}

// Walk walks the file f, named name, and what it imports; depth is 0 for
// the template and 1 for a file the caller reads as if the template
// imported it (the lib/ type files). It returns the error that stopped
// the walk, if one did.
func (w *ImportWalk[F]) Walk(f F, name string, depth int) error {
	return w.visit(f, name, RealPath(name), depth)
}

// Lookup returns the record of the local file at path if the walk has
// read it.
func (w *ImportWalk[F]) Lookup(path string) (F, bool) {
	if n := w.files[RealPath(path)]; n != nil {
		return n.f, true
	}
	var zero F
	return zero, false
}

func (w *ImportWalk[F]) visit(f F, name, key string, depth int) error {
	if w.files == nil {
		w.files = map[string]*importNode[F]{}
	}
	n := &importNode[F]{f: f, name: name, depth: depth, open: true}
	w.files[key] = n
	w.stack = append(w.stack, n)
	err := w.Imports(f)
	w.stack = w.stack[:len(w.stack)-1]
	n.open = false
	return err
}

// Follow follows one import of the file being walked, whose Imports hook
// calls it; name is the file name of the import definition. It returns
// the record of the imported file, read now or before, and true; false
// where the import is left out; and the error that stops the walk, if any.
// The checks come in this order: the tree, a cycle, a file read before,
// the depth, and then Read.
func (w *ImportWalk[F]) Follow(name *yamlsrc.Value) (F, bool, error) {
	var zero F
	from := w.stack[len(w.stack)-1]
	imp := &Import{From: from.name, Name: name, Path: name.Str(), Key: name.Str(), Depth: from.depth + 1}
	if strings.Contains(name.Str(), "://") {
		imp.URL = true
	} else {
		p := filepath.FromSlash(name.Str())
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(from.name), p)
		}
		imp.Path, imp.Key = p, RealPath(p)
		if !w.AllowOutside {
			if why := w.Tree.Leaves(p); why != "" {
				return zero, false, call(w.Outside, imp, why)
			}
		}
	}
	if n := w.files[imp.Key]; n != nil {
		if n.open {
			return zero, false, call(w.Cycle, imp, w.cycle(n))
		}
		return n.f, true, nil
	}
	if imp.Depth >= MaxImportDepth {
		if w.TooDeep == nil {
			return zero, false, nil
		}
		return zero, false, w.TooDeep(imp)
	}
	f, fname, err := w.Read(imp)
	if err != nil {
		if errors.Is(err, SkipImport) {
			err = nil
		}
		return zero, false, err
	}
	if err := w.visit(f, fname, imp.Key, imp.Depth); err != nil {
		return zero, false, err
	}
	return f, true, nil
}

// call calls a hook that may be nil.
func call[A any](hook func(*Import, A) error, imp *Import, a A) error {
	if hook == nil {
		return nil
	}
	return hook(imp, a)
}

// cycle returns the names of the files on the stack from n on.
func (w *ImportWalk[F]) cycle(n *importNode[F]) []string {
	start := 0
	for i, s := range w.stack {
		if s == n {
			start = i
		}
	}
	files := make([]string, 0, len(w.stack)-start+1)
	for _, s := range w.stack[start:] {
		files = append(files, s.name)
	}
	return files
}

// ImportCycle renders a cycle of imports for a message, with slashes:
// "a.yaml → b.yaml → a.yaml" for the files a.yaml and b.yaml closed by
// a.yaml (or by the name the closing import wrote).
func ImportCycle(files []string, closing string) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(filepath.ToSlash(f))
		b.WriteString(" → ")
	}
	b.WriteString(filepath.ToSlash(closing))
	return b.String()
}
