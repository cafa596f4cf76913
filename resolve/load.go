package resolve

import (
	"os"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Spec variability.md §2 (loading): the template, type-specific conditions,
// technology rules, and the type definitions of the normative profile and of
// lib/ next to the template.

type loaded struct {
	doc          *yamlsrc.Value
	file         string
	dir          string
	allowOutside bool
}

// loadTemplate reads the template at path with its side files and types;
// allowOutside lets its imports and side files leave its directory tree.
func loadTemplate(path string, allowOutside bool) (*loaded, error) {
	doc, err := yamlsrc.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if !doc.IsMap() {
		pos := diag.Pos{File: path, Line: int(doc.Line), Col: int(doc.Col)}
		if pos.Line == 0 { // an empty document
			pos.Line, pos.Col = 1, 1
		}
		return nil, diag.At(pos, diag.StageLoad, "expected a service template (a map), found "+kindName(doc))
	}
	l := &loaded{doc: doc, file: path, dir: filepath.Dir(path), allowOutside: allowOutside}
	if err := checkImports(path, doc, allowOutside); err != nil {
		return nil, err
	}
	if err := l.sideFiles(); err != nil {
		return nil, err
	}
	if err := l.types(); err != nil {
		return nil, err
	}
	return l, nil
}

func kindName(v *yamlsrc.Value) string {
	if v == nil {
		return "nothing"
	}
	return v.Kind.String()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sideFiles loads type-specific conditions and technology rules and sets up
// the plugins entry like the reference's loader (§2.2–2.4).
func (l *loaded) sideFiles() error {
	topo := l.doc.Get("topology_template")
	if topo.IsNull() {
		return nil
	}
	if !topo.IsMap() {
		return diag.At(diag.Pos{File: l.file, Line: int(topo.Line), Col: int(topo.Col)}, diag.StageLoad,
			"expected topology_template as a map, found "+kindName(topo))
	}
	vb := topo.Get("variability")
	ensureVariability := func() *yamlsrc.Value {
		if !vb.IsMap() {
			vb = yamlsrc.NewMap()
			topo.Map.Set("variability", vb)
		}
		return vb
	}
	load := func(key string, names ...string) error {
		v := vb.Get(key)
		if v.IsString() {
			p := filepath.Join(l.dir, v.Str)
			if !l.allowOutside && !l.inside(p) {
				return diag.At(diag.Pos{File: l.file, Line: int(v.Line), Col: int(v.Col)}, diag.StageLoad,
					key+" \""+v.Str+"\" leaves the directory tree of the template (--allow-outside permits it)")
			}
			doc, err := yamlsrc.LoadFile(p)
			if d, ok := diag.As(err); ok && d.Code == yamlsrc.CodeRead {
				// Where the file is named: the read error has no line.
				c := *d
				c.Pos = diag.Pos{File: l.file, Line: int(v.Line), Col: int(v.Col)}
				c.Message = key + " \"" + v.Str + "\": " + strings.TrimPrefix(d.Message, p+": ")
				return &c
			}
			if err != nil {
				return err
			}
			ensureVariability().Map.Set(key, doc)
			return nil
		}
		if v.IsNull() {
			for _, n := range names {
				p := filepath.Join(l.dir, n)
				if exists(p) {
					doc, err := yamlsrc.LoadFile(p)
					if err != nil {
						return err
					}
					ensureVariability().Map.Set(key, doc)
					return nil
				}
			}
		}
		return nil
	}
	if err := load("type_specific_conditions", "type-specific-conditions.yaml"); err != nil {
		return err
	}
	if err := load("qualities", "qualities.yaml", filepath.Join("lib", "qualities.yaml")); err != nil {
		return err
	}
	vb = ensureVariability()
	plugins := vb.Get("plugins")
	if !plugins.IsMap() {
		plugins = yamlsrc.NewMap()
		vb.Map.Set("plugins", plugins)
	}
	if plugins.Get("technology").IsNull() {
		plugins.Map.Set("technology", yamlsrc.NewList())
	}
	if dirs := listDirs(filepath.Join(l.dir, "plugins", "technology")); len(dirs) > 0 {
		return diag.At(diag.Pos{File: filepath.Join(l.dir, "plugins", "technology", dirs[0])}, diag.StageLoad,
			"technology plugins are not supported")
	}
	return nil
}

// inside reports whether path is in the template's directory tree.
func (l *loaded) inside(path string) bool {
	dir, err1 := filepath.Abs(l.dir)
	p, err2 := filepath.Abs(path)
	return err1 == nil && err2 == nil && tosca.Within(dir, p)
}

func listDirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// types merges the normative profile and lib/ type definitions into the
// document, marking them as loaded (§2.5).
func (l *loaded) types() error {
	profile, err := yamlsrc.Parse(tosca.Normative(), tosca.NormativeFile)
	if err != nil {
		return err
	}
	sources := []struct {
		file string
		doc  *yamlsrc.Value
	}{{tosca.NormativeFile, profile}}
	lib := filepath.Join(l.dir, "lib")
	if exists(lib) {
		for _, f := range tosca.LibFiles(lib) {
			doc, err := yamlsrc.LoadFile(f)
			if err != nil {
				return err
			}
			sources = append(sources, struct {
				file string
				doc  *yamlsrc.Value
			}{f, doc})
		}
	}
	for _, src := range sources {
		version := src.doc.Get("tosca_definitions_version")
		if version.IsNull() {
			continue
		}
		if !version.IsString() || version.Str != "tosca_simple_yaml_1_3" {
			return diag.At(diag.Pos{File: src.file, Line: int(version.Line), Col: int(version.Col)}, diag.StageLoad,
				`TOSCA definitions version "`+graph.JSString(version)+`" not supported`)
		}
		for _, key := range tosca.TypeMaps() {
			types := l.doc.Get(key)
			if types.IsNull() {
				types = yamlsrc.NewMap()
				l.doc.Map.Set(key, types)
			}
			if !types.IsMap() {
				return diag.At(diag.Pos{File: l.file, Line: int(types.Line), Col: int(types.Col)}, diag.StageLoad,
					"expected "+key+" as a map, found "+kindName(types))
			}
			defs := src.doc.Get(key)
			if !defs.IsMap() {
				continue
			}
			for i, name := range defs.Map.Keys() {
				def := defs.Map.Val(i)
				if types.Has(name) && !types.Get(name).IsNull() {
					return diag.At(diag.Pos{File: l.file}, diag.StageLoad,
						key+` "`+name+`" duplicated in service template "`+src.file+`"`)
				}
				if d := def.Get("derived_from"); d.IsString() && d.Str == name {
					return diag.At(diag.Pos{File: src.file, Line: int(d.Line), Col: int(d.Col)}, diag.StageLoad,
						key+` "`+name+`" is derived from itself...`)
				}
				if !def.IsMap() {
					return diag.At(diag.Pos{File: src.file, Line: int(defs.Line), Col: int(defs.Col)}, diag.StageLoad,
						"expected a type definition map for "+name+", found "+kindName(def))
				}
				def.Map.Set("_loaded", yamlsrc.NewBool(true))
				def.Map.Set("_file", yamlsrc.NewString(src.file))
				types.Map.Set(name, def)
			}
		}
	}
	return nil
}
