package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/tosca"
	"v4t/model/yamlsrc"
)

// Spec variability.md §2 (loading): the template, type-specific conditions,
// technology rules, and the type definitions of the normative profile and of
// lib/ next to the template.

type loaded struct {
	doc *yamlsrc.Value
	// aliased says that the template uses an alias, so that its values
	// may be reached by more than one path (yamlsrc.LoadFileAliased).
	aliased      bool
	file         string
	dir          string
	root         tosca.Tree
	allowOutside bool
	// topology is a list or a date that the template has as its
	// topology_template, replaced in doc by an empty map (sideFiles).
	topology *yamlsrc.Value
	// sink receives the warnings about coerced input (may be nil).
	sink diag.Sink
}

// warn reports a coercion of the loader at v.
func (l *loaded) warn(v *yamlsrc.Value, msg string) {
	if l.sink != nil {
		l.sink(diag.Warning(diag.Pos{File: l.file, Line: int(v.Line), Col: int(v.Col)}, diag.StageLoad, msg))
	}
}

// loadTemplate reads the template at path, or parses data where it is not
// nil (path then names it), with its side files and types; allowOutside
// lets its imports and side files leave its directory tree.
func loadTemplate(path string, data []byte, allowOutside bool, warn diag.Sink) (*loaded, error) {
	doc, aliased, err := loadGivenAliased(path, data)
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
	l := &loaded{doc: doc, aliased: aliased, file: path, dir: filepath.Dir(path), root: tosca.NewTree(filepath.Dir(path)), allowOutside: allowOutside, sink: warn}
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

// loadYAML reads and parses the YAML file at path. A regular file goes
// through yamlsrc.LoadFile (its size limit, its errors); anything else, a
// pipe or a device given on the command line, is read up to the same limit
// (yamlsrc.ReadFile), so that --template /dev/zero ends in an error and not
// in an exhausted machine. named marks a file that the template names (a
// side file, a lib/ type file): it must be a regular file, which LoadFile
// requires.
func loadYAML(path string, named bool) (*yamlsrc.Value, error) {
	v, _, err := loadYAMLAliased(path, named)
	return v, err
}

// loadYAMLAliased is loadYAML that also says whether the document uses an
// alias (yamlsrc.LoadFileAliased).
func loadYAMLAliased(path string, named bool) (*yamlsrc.Value, bool, error) {
	if fi, err := os.Stat(path); named || err != nil || fi.Mode().IsRegular() {
		return yamlsrc.LoadFileAliased(path)
	}
	data, err := yamlsrc.ReadFile(path)
	if err != nil {
		d := diag.New(diag.StageLoad, path+": cannot read: "+unwrapPathError(err).Error())
		d.Code = yamlsrc.CodeRead
		return nil, false, d
	}
	return yamlsrc.ParseAliased(data, path)
}

// loadGiven parses data, the content of a file named on the command line
// that the caller has read (standard input), named path in positions; nil
// data reads the file at path (loadYAML).
func loadGiven(path string, data []byte) (*yamlsrc.Value, error) {
	v, _, err := loadGivenAliased(path, data)
	return v, err
}

// loadGivenAliased is loadGiven that also says whether the document uses
// an alias (yamlsrc.LoadFileAliased).
func loadGivenAliased(path string, data []byte) (*yamlsrc.Value, bool, error) {
	if data == nil {
		return loadYAMLAliased(path, false)
	}
	if len(data) > yamlsrc.MaxFileSize {
		d := diag.New(diag.StageLoad, path+": cannot read: "+yamlsrc.ErrTooLarge.Error())
		d.Code = yamlsrc.CodeRead
		return nil, false, d
	}
	return yamlsrc.ParseAliased(data, path)
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
	at := func(v *yamlsrc.Value) diag.Pos {
		return diag.Pos{File: l.file, Line: int(v.Line), Col: int(v.Col)}
	}
	if topo.IsList() || topo.Kind == yamlsrc.KindTime {
		// Quirk: scalar maps (README, "Malformed input"): the reference
		// sets its variability definition as properties of the list or
		// date object, which has no templates, and writes a non-empty
		// list back as it is (transform). Its stand-in here is an empty
		// topology template.
		what := "read as an empty topology template"
		if topo.IsList() && len(topo.List()) > 0 {
			what += " and written back as it is"
		}
		l.warn(topo, "expected topology_template as a map, found "+graph.Describe(topo)+": "+what+", as the reference does")
		l.topology = topo
		stand := yamlsrc.NewMap()
		stand.Line, stand.Col = topo.Line, topo.Col
		l.doc.Map().Set("topology_template", stand)
		topo = stand
	}
	vb := topo.Get("variability")
	// ensureVariability is the reference's loader creating the variability
	// definition where it is missing, and setting a key in it: both fail
	// on a string, a number or a boolean (a list or a date takes keys, and
	// has none that the pipeline reads: it stands for an empty map).
	ensureVariability := func() (*yamlsrc.Value, error) {
		if !topo.IsMap() {
			return nil, diag.AtRef(at(topo), diag.StageLoad, "expected topology_template as a map, found "+graph.Describe(topo),
				graph.MsgCannotCreateProperty("variability", topo))
		}
		switch {
		case vb.IsMap():
		case vb.IsNull() || vb.IsList() || vb.Kind == yamlsrc.KindTime:
			if !vb.IsNull() {
				l.warn(vb, "expected the variability definition as a map, found "+graph.Describe(vb)+": read as an empty one, as the reference does")
			}
			vb = yamlsrc.NewMap()
			topo.Map().Set("variability", vb)
		default:
			return nil, diag.AtRef(at(vb), diag.StageLoad, "expected the variability definition as a map, found "+graph.Describe(vb),
				graph.MsgCannotCreateProperty("type_specific_conditions", vb))
		}
		return vb, nil
	}
	// load reads a side file named by key, or found under one of its
	// default names where key is missing, and sets key to its content.
	load := func(key string, names ...string) error {
		v := vb.Get(key)
		var doc *yamlsrc.Value
		if v.IsString() {
			p := filepath.Join(l.dir, v.Str())
			if why := l.leaves(p); why != "" {
				return diag.At(at(v), diag.StageLoad, key+" \""+v.Str()+"\""+why)
			}
			var err error
			doc, err = loadYAML(p, true)
			if d, ok := diag.As(err); ok && d.Code == yamlsrc.CodeRead {
				// Where the file is named: the read error has no line.
				c := *d
				c.Pos = at(v)
				c.Message = key + " \"" + v.Str() + "\": " + strings.TrimPrefix(d.Message, p+": ")
				return &c
			}
			if err != nil {
				return err
			}
		} else if v.IsNull() {
			for _, n := range names {
				p := filepath.Join(l.dir, n)
				if exists(p) {
					if why := l.leaves(p); why != "" {
						return diag.At(diag.Pos{File: p, Line: 1, Col: 1}, diag.StageLoad, key+" file \""+filepath.ToSlash(n)+"\""+why)
					}
					var err error
					if doc, err = loadYAML(p, true); err != nil {
						return err
					}
					break
				}
			}
		}
		m, err := ensureVariability()
		if err != nil {
			return err
		}
		if doc != nil {
			m.Map().Set(key, doc)
		}
		return nil
	}
	if err := load("type_specific_conditions", "type-specific-conditions.yaml"); err != nil {
		return err
	}
	if err := load("qualities", "qualities.yaml", filepath.Join("lib", "qualities.yaml")); err != nil {
		return err
	}
	if _, err := ensureVariability(); err != nil {
		return err
	}
	// The reference's loader sets plugins.technology to [] where it is
	// missing, which fails on a scalar plugins ("Cannot create property
	// 'technology' on number '5'"), then iterates it as the plugin
	// sources, which fails on what is not iterable ("sources is not
	// iterable") and loads a module per character of a string.
	plugins := vb.Get("plugins")
	switch {
	case plugins.IsMap():
	case plugins.IsNull() || plugins.IsList():
		plugins = yamlsrc.NewMap()
		vb.Map().Set("plugins", plugins)
	default:
		return diag.At(at(plugins), diag.StageLoad, "expected plugins as a map, found "+kindName(plugins))
	}
	switch tech := plugins.Get("technology"); {
	case tech.IsNull():
		plugins.Map().Set("technology", yamlsrc.NewList())
	case tech.IsString() && tech.Str() != "":
		return diag.At(at(tech), diag.StageLoad, "technology plugins are not supported")
	case !tech.IsList() && !tech.IsString():
		return diag.At(at(tech), diag.StageLoad, "expected plugins.technology as a list of plugins, found "+kindName(tech))
	}
	if dirs := listDirs(filepath.Join(l.dir, "plugins", "technology")); len(dirs) > 0 {
		return diag.At(diag.Pos{File: filepath.Join(l.dir, "plugins", "technology", dirs[0])}, diag.StageLoad,
			"technology plugins are not supported")
	}
	return nil
}

// leaves returns "" when the file at path may be read: it is in the
// template's directory tree, links resolved, or AllowOutside is set; else
// the end of the message that says why not (tree.leaves).
func (l *loaded) leaves(path string) string {
	if l.allowOutside {
		return ""
	}
	if why := l.root.Leaves(path); why != "" {
		return why + allowOutsideHint
	}
	return ""
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

// normativeProfile is the embedded normative profile, parsed once per
// process with its type definitions marked as loaded: a run merges a copy of
// it into its document. The copies share the definitions themselves, which
// no run changes (readOnlyTypes).
var normativeProfile = sync.OnceValues(func() (*yamlsrc.Frozen, error) {
	// Decoded from its snapshot: parsing its YAML was most of a small
	// template's parse stage.
	profile, err := yamlsrc.DecodeSnapshot(tosca.NormativeSnapshot())
	if err != nil {
		return nil, err
	}
	for _, key := range tosca.TypeMaps() {
		if defs := profile.Get(key); defs.IsMap() {
			for i := range defs.Map().Len() {
				if def := defs.Map().Val(i); def.IsMap() {
					markLoaded(def, tosca.NormativeFile)
				}
			}
		}
	}
	return freeze(profile, readOnlyTypes(profile)...), nil
})

// readOnlyTypes returns the type definitions in doc's type maps that imports
// loaded (marked _loaded) and that a resolve only reads, for the copies of
// a frozen doc to share (yamlsrc.Freeze): a run looks a loaded type up and
// drops it from the output. Graph normalisation gives a type without
// derived_from its root, so such a type is left to be copied.
func readOnlyTypes(doc *yamlsrc.Value) []*yamlsrc.Value {
	var out []*yamlsrc.Value
	for _, key := range tosca.TypeMaps() {
		defs := doc.Get(key)
		if !defs.IsMap() {
			continue
		}
		for i := range defs.Map().Len() {
			if def := defs.Map().Val(i); def.IsMap() && def.Get("_loaded").Truthy() && !def.Get("derived_from").IsNull() {
				out = append(out, def)
			}
		}
	}
	return out
}

// markLoaded marks the type definition def as loaded from file, so that the
// transform drops it from the output.
func markLoaded(def *yamlsrc.Value, file string) {
	def.Map().Set("_loaded", yamlsrc.NewBool(true))
	def.Map().Set("_file", yamlsrc.NewString(file))
}

// types merges the normative profile and lib/ type definitions into the
// document, marking them as loaded (§2.5).
func (l *loaded) types() error {
	frozen, err := normativeProfile()
	if err != nil {
		return err
	}
	verifyShared(frozen)
	profile := frozen.Copy()
	// marked: the definitions carry their markers already.
	sources := []struct {
		file   string
		doc    *yamlsrc.Value
		marked bool
	}{{tosca.NormativeFile, profile, true}}
	lib := filepath.Join(l.dir, "lib")
	if exists(lib) {
		for _, f := range tosca.LibFiles(lib) {
			if why := l.leaves(f); why != "" {
				rel, err := filepath.Rel(l.dir, f)
				if err != nil {
					rel = f
				}
				return diag.At(diag.Pos{File: f, Line: 1, Col: 1}, diag.StageLoad, "type file \""+filepath.ToSlash(rel)+"\""+why)
			}
			doc, err := loadYAML(f, true)
			if err != nil {
				return err
			}
			sources = append(sources, struct {
				file   string
				doc    *yamlsrc.Value
				marked bool
			}{f, doc, false})
		}
	}
	for _, src := range sources {
		version := src.doc.Get("tosca_definitions_version")
		if version.IsNull() {
			continue
		}
		if !version.IsString() || version.Str() != "tosca_simple_yaml_1_3" {
			return diag.At(diag.Pos{File: src.file, Line: int(version.Line), Col: int(version.Col)}, diag.StageLoad,
				msgVersionNotSupported(version))
		}
		for _, key := range tosca.TypeMaps() {
			types := l.doc.Get(key)
			if types.IsNull() {
				types = yamlsrc.NewMap()
				l.doc.Map().Set(key, types)
			}
			if !types.IsMap() {
				return diag.At(diag.Pos{File: l.file, Line: int(types.Line), Col: int(types.Col)}, diag.StageLoad,
					"expected "+key+" as a map, found "+kindName(types))
			}
			defs := src.doc.Get(key)
			if !defs.IsMap() {
				continue
			}
			for i, name := range defs.Map().Keys() {
				def := defs.Map().Val(i)
				if types.Has(name) && !types.Get(name).IsNull() {
					return diag.At(diag.Pos{File: l.file}, diag.StageLoad,
						msgTypeDuplicated(key, name, src.file))
				}
				if d := def.Get("derived_from"); d.IsString() && d.Str() == name {
					return diag.At(diag.Pos{File: src.file, Line: int(d.Line), Col: int(d.Col)}, diag.StageLoad,
						msgDerivedFromItself(key, name))
				}
				if !def.IsMap() {
					return diag.At(diag.Pos{File: src.file, Line: int(defs.Line), Col: int(defs.Col)}, diag.StageLoad,
						"expected a type definition map for "+name+", found "+kindName(def))
				}
				if !src.marked {
					markLoaded(def, src.file)
				}
				types.Map().Set(name, def)
			}
		}
	}
	return nil
}
