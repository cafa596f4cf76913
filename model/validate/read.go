package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Phase 1, reading: files, YAML, imports (TOSCA 1.3 §3.6.8 import
// definitions), the lib/ type files (variability.md §2.5).

func (v *validator) loadRoot(path string, data []byte) *unit {
	if data == nil {
		b, err := ReadFile(path)
		if err != nil {
			v.add(diag.Pos{File: path}, "read", "cannot read: %s", errText(err))
			return nil
		}
		data = b
	}
	doc, err := yamlsrc.Parse(data, path)
	if err != nil {
		v.addErr(path, data, err)
		return nil
	}
	return v.rootFromDoc(path, data, doc)
}

func (v *validator) rootFromDoc(path string, data []byte, doc *yamlsrc.Value) *unit {
	u := v.newUnit(path, data, doc)
	if u == nil {
		return nil
	}
	w := v.importWalk()
	_ = w.Walk(u, u.file, 0) // the hooks report; they stop only when ctx is done
	v.loadLib(w, u)
	return u
}

// newUnit registers a parsed file; it reports and returns nil when the
// document is not a map.
func (v *validator) newUnit(file string, data []byte, doc *yamlsrc.Value) *unit {
	u := &unit{file: file, data: data, doc: doc}
	if !doc.IsMap() {
		if doc.IsNull() {
			v.add(diag.Pos{File: file, Line: 1, Col: 1}, "kind", "expected a service template (a map), found an empty document")
		} else {
			v.add(u.at(doc), "kind", "expected a service template (a map), found %s", graph.Describe(doc))
		}
		return nil
	}
	if ver := doc.Get("tosca_definitions_version"); ver.IsString() && strings.HasPrefix(ver.Str(), "tosca_variability_") {
		u.variable = true
	}
	v.order = append(v.order, u)
	return u
}

// importWalk returns the walk of the imports (model/tosca's, shared with
// the resolver), whose hooks report every problem and go on.
func (v *validator) importWalk() *tosca.ImportWalk[*unit] {
	w := &tosca.ImportWalk[*unit]{Tree: v.root, AllowOutside: v.opts.AllowOutside}
	w.Imports = func(u *unit) error { return v.visit(w, u) }
	w.Read = v.readImport
	w.Outside = func(imp *tosca.Import, why string) error {
		v.add(imp.Pos(), "import", "import %q%s", imp.Name.Str(), why)
		return nil
	}
	w.Cycle = func(imp *tosca.Import, files []string) error {
		v.add(imp.Pos(), "import", "import cycle: %s", tosca.ImportCycle(files, files[0]))
		return nil
	}
	w.TooDeep = func(imp *tosca.Import) error {
		v.add(imp.Pos(), "import", "import %q: imports nested deeper than %d levels", imp.Name.Str(), tosca.MaxImportDepth)
		return nil
	}
	return w
}

// visit follows the imports of u; only a cancelled context stops it.
func (v *validator) visit(w *tosca.ImportWalk[*unit], u *unit) error {
	imps := u.doc.Get("imports")
	if !imps.IsList() {
		// The grammar of the service template reports any other kind
		// (syntax phase), for every unit read.
		return nil
	}
	for _, e := range imps.List() {
		if err := v.ctx.Err(); err != nil {
			return err
		}
		if err := v.importEntry(w, u, e); err != nil {
			return err
		}
	}
	return nil
}

// importEntry reads one import definition: "file", {file: ..., ...}, or
// the TOSCA 1.0 form {name: "file"} / {name: {file: ...}}.
func (v *validator) importEntry(w *tosca.ImportWalk[*unit], u *unit, e *yamlsrc.Value) error {
	def := e
	if e.IsMap() && !e.Has("file") && e.Map().Len() == 1 {
		def = e.Map().Val(0)
	}
	var file *yamlsrc.Value
	prefix := ""
	switch {
	case def.IsString():
		file = def
	case def.IsMap():
		v.checkFields(u, def, bare("import", nil), importFields(u.variable))
		file = def.Get("file")
		if !file.IsString() {
			return nil // reported by checkFields
		}
		if p := def.Get("namespace_prefix"); p.IsString() {
			prefix = p.Str()
		}
		if r := def.Get("repository"); r.IsString() {
			v.add(u.at(r), "import", "import %q: repository %q is not supported: there is no network access", file.Str(), r.Str())
			return nil
		}
	default:
		v.add(u.at(e), "kind", "expected an import (a file name or a map), found %s", graph.Describe(e))
		return nil
	}
	target, ok, err := w.Follow(file)
	if ok {
		u.imports = append(u.imports, importRef{u: target, prefix: prefix, pos: u.at(file)})
	}
	return err
}

// readImport reads the file of an import the walk has not read: a local
// file, or a URL that Options.Embedded serves.
func (v *validator) readImport(imp *tosca.Import) (*unit, string, error) {
	name, data := imp.Path, []byte(nil)
	if imp.URL {
		emb, ok := v.opts.Embedded[imp.Path]
		if !ok {
			v.add(imp.Pos(), "import", "import %q: URL imports are not supported: there is no network access", imp.Name.Str())
			return nil, "", tosca.SkipImport
		}
		name, data = emb.Name, emb.Data
	} else {
		b, err := ReadNamedFile(imp.Path)
		if err != nil {
			v.add(imp.Pos(), "import", "import %q: cannot read: %s", imp.Name.Str(), errText(err))
			return nil, "", tosca.SkipImport
		}
		data = b
	}
	doc, err := yamlsrc.Parse(data, name)
	if err != nil {
		v.addErr(name, data, err)
		return nil, "", tosca.SkipImport
	}
	t := v.newUnit(name, data, doc)
	if t == nil {
		return nil, "", tosca.SkipImport
	}
	return t, name, nil
}

// loadLib loads the type files below lib/ next to the template, as the
// resolver does (variability.md §2.5), as unprefixed imports of the root.
// Files without tosca_definitions_version are skipped, like the resolver.
func (v *validator) loadLib(w *tosca.ImportWalk[*unit], root *unit) {
	if v.opts.NoLib {
		return
	}
	for _, f := range tosca.LibFiles(filepath.Join(filepath.Dir(root.file), "lib")) {
		if _, ok := w.Lookup(f); ok {
			continue // imported explicitly
		}
		if why := v.root.Leaves(f); why != "" && !v.opts.AllowOutside {
			rel, err := filepath.Rel(filepath.Dir(root.file), f)
			if err != nil {
				rel = f
			}
			v.add(diag.Pos{File: f, Line: 1, Col: 1}, "import", "type file %q%s", filepath.ToSlash(rel), why)
			continue
		}
		data, err := ReadNamedFile(f)
		if err != nil {
			v.add(diag.Pos{File: f}, "read", "cannot read: %s", errText(err))
			continue
		}
		doc, err := yamlsrc.Parse(data, f)
		if err != nil {
			v.addErr(f, data, err)
			continue
		}
		if doc.Get("tosca_definitions_version").IsNull() {
			continue
		}
		t := v.newUnit(f, data, doc)
		if t == nil {
			continue
		}
		_ = w.Walk(t, f, 1)
		root.imports = append(root.imports, importRef{u: t, pos: diag.Pos{File: f}})
	}
}

// normativeUnit parses the embedded normative types (a few hundred
// microseconds; each run decodes its own copy, since inheritance fills the
// type definitions in).
func normativeUnit() *unit {
	data := tosca.Normative()
	doc, err := yamlsrc.Parse(data, tosca.NormativeFile)
	if err != nil {
		panic("the embedded normative types do not parse: " + err.Error())
	}
	return &unit{file: tosca.NormativeFile, data: data, doc: doc, builtin: true}
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}
