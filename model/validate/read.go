package validate

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Phase 1, reading: files, YAML, imports (TOSCA 1.3 §3.6.8 import
// definitions), the lib/ type files (variability.md §2.5).

// maxImportDepth bounds the nesting of imports; a chain this long is a
// mistake, not a design.
const maxImportDepth = 100

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
	u := v.newUnit(path, data, doc)
	if u == nil {
		return nil
	}
	v.visit(u, 0)
	v.loadLib(u)
	return u
}

func (v *validator) rootFromDoc(path string, data []byte, doc *yamlsrc.Value) *unit {
	u := v.newUnit(path, data, doc)
	if u == nil {
		return nil
	}
	v.visit(u, 0)
	v.loadLib(u)
	return u
}

// newUnit registers a parsed file; it reports and returns nil when the
// document is not a map.
func (v *validator) newUnit(file string, data []byte, doc *yamlsrc.Value) *unit {
	u := &unit{file: file, abs: RealPath(file), data: data, doc: doc}
	if !doc.IsMap() {
		if doc.IsNull() {
			v.add(diag.Pos{File: file, Line: 1, Col: 1}, "kind", "expected a service template (a map), found an empty document")
		} else {
			v.add(u.at(doc), "kind", "expected a service template (a map), found %s", kindOf(doc))
		}
		return nil
	}
	if ver := doc.Get("tosca_definitions_version"); ver.IsString() && strings.HasPrefix(ver.Str, "tosca_variability_") {
		u.variable = true
	}
	v.units[u.abs] = u
	v.order = append(v.order, u)
	return u
}

// visit loads the imports of u depth-first; u is on the stack meanwhile, so
// that an import of a unit on the stack is a cycle.
func (v *validator) visit(u *unit, depth int) {
	u.state = 1
	v.stack = append(v.stack, u)
	defer func() {
		v.stack = v.stack[:len(v.stack)-1]
		u.state = 2
	}()
	imps := u.doc.Get("imports")
	if imps == nil {
		return
	}
	if !imps.IsList() {
		// The grammar of the service template reports any other kind
		// (syntax phase), for every unit read.
		return
	}
	for _, e := range imps.List {
		if v.ctx.Err() != nil {
			return
		}
		v.importEntry(u, e, depth)
	}
}

// importEntry reads one import definition: "file", {file: ..., ...}, or
// the TOSCA 1.0 form {name: "file"} / {name: {file: ...}}.
func (v *validator) importEntry(u *unit, e *yamlsrc.Value, depth int) {
	def := e
	if e.IsMap() && !e.Has("file") && e.Map.Len() == 1 {
		def = e.Map.Val(0)
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
			return // reported by checkFields
		}
		if p := def.Get("namespace_prefix"); p.IsString() {
			prefix = p.Str
		}
		if r := def.Get("repository"); r.IsString() {
			v.add(u.at(r), "import", "import %q: repository %q is not supported: there is no network access", file.Str, r.Str)
			return
		}
	default:
		v.add(u.at(e), "kind", "expected an import (a file name or a map), found %s", kindOf(e))
		return
	}
	at := u.at(file)
	name := file.Str
	if depth+1 >= maxImportDepth {
		v.add(at, "import", "import %q: imports nested deeper than %d levels", name, maxImportDepth)
		return
	}
	var target *unit
	if strings.Contains(name, "://") {
		emb, ok := v.opts.Embedded[name]
		if !ok {
			v.add(at, "import", "import %q: URL imports are not supported: there is no network access", name)
			return
		}
		target = v.units[name]
		if target == nil {
			doc, err := yamlsrc.Parse(emb.Data, emb.Name)
			if err != nil {
				v.addErr(emb.Name, emb.Data, err)
				return
			}
			target = v.newUnit(emb.Name, emb.Data, doc)
			if target == nil {
				return
			}
			delete(v.units, target.abs)
			v.units[name] = target
			v.visit(target, depth+1)
		}
	} else {
		path := filepath.FromSlash(name)
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(u.file), path)
		}
		abs := RealPath(path)
		if why := v.root.Leaves(path); why != "" && !v.opts.AllowOutside && !u.builtin {
			v.add(at, "import", "import %q%s", name, why)
			return
		}
		target = v.units[abs]
		if target == nil {
			data, err := ReadNamedFile(path)
			if err != nil {
				v.add(at, "import", "import %q: cannot read: %s", name, errText(err))
				return
			}
			doc, err := yamlsrc.Parse(data, path)
			if err != nil {
				v.addErr(path, data, err)
				return
			}
			target = v.newUnit(path, data, doc)
			if target == nil {
				return
			}
			v.visit(target, depth+1)
		} else if target.state == 1 {
			v.add(at, "import", "import cycle: %s", v.cycle(target))
			return
		}
	}
	u.imports = append(u.imports, importRef{u: target, prefix: prefix, pos: at})
}

// cycle renders the import chain from target (on the stack) back to it.
func (v *validator) cycle(target *unit) string {
	var b strings.Builder
	start := 0
	for i, s := range v.stack {
		if s == target {
			start = i
		}
	}
	for _, s := range v.stack[start:] {
		b.WriteString(filepath.ToSlash(s.file))
		b.WriteString(" → ")
	}
	b.WriteString(filepath.ToSlash(target.file))
	return b.String()
}

// loadLib loads the type files below lib/ next to the template, as the
// resolver does (variability.md §2.5), as unprefixed imports of the root.
// Files without tosca_definitions_version are skipped, like the resolver.
func (v *validator) loadLib(root *unit) {
	if v.opts.NoLib {
		return
	}
	for _, f := range tosca.LibFiles(filepath.Join(filepath.Dir(root.file), "lib")) {
		abs := RealPath(f)
		if t := v.units[abs]; t != nil {
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
		v.stack = append(v.stack[:0], root)
		v.visit(t, 1)
		v.stack = v.stack[:0]
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
	return &unit{file: tosca.NormativeFile, abs: tosca.NormativeFile, data: data, doc: doc, builtin: true, state: 2}
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}
