package sd

import (
	"fmt"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// doc is one SD: a mapping, with the label messages name it by (§6.2) and
// the file it was read from, for positions.
type doc struct {
	v     *yamlsrc.Value
	label string
	file  string
	// apps holds the Applications once validate has accepted the SD.
	apps []*app
}

// app is one Application (sd-merge.md §1).
type app struct {
	v *yamlsrc.Value
	// j is the index in the SD's applications.
	j int
	// model is 1 (a "<name>:<version>" string), 2 (version and
	// deployPostfix) or 3 (with alias).
	model int
	// text is the version text; name and version its parts around the
	// first ':'.
	text, name, version string
	postfix             string
	hasPostfix          bool
	alias               string
	hasAlias            bool
}

// Alias is the Application Alias (§1): the alias, else
// <Name>:<deployPostfix>, else <Name>.
func (a *app) Alias() string {
	switch {
	case a.hasAlias:
		return a.alias
	case a.hasPostfix:
		return a.name + ":" + a.postfix
	}
	return a.name
}

func (d *doc) pos(v *yamlsrc.Value) diag.Pos {
	if v == nil {
		return diag.Pos{File: d.file}
	}
	return diag.Pos{File: d.file, Line: int(v.Line), Col: int(v.Col)}
}

// applications returns the SD's applications list, or nil.
func (d *doc) applications() *yamlsrc.Value {
	if l := d.v.Get("applications"); l.IsList() {
		return l
	}
	return nil
}

// graph returns the SD's deployGraph, or nil when it has none (absent or
// null, §6.3 step 3).
func (d *doc) graph() *yamlsrc.Value {
	g := d.v.Get("deployGraph")
	if g.IsNull() {
		return nil
	}
	return g
}

// splitVersion splits a version text at its first ':' and reports whether
// both parts are non-empty (§1).
func splitVersion(s string) (name, version string, ok bool) {
	name, version, found := strings.Cut(s, ":")
	return name, version, found && name != "" && version != ""
}

// validate checks an SD under the model rules of mode (§6.3 steps 1-3) and
// fills d.apps. It returns the first problem.
func validate(d *doc, mode Mode) error {
	l := d.applications()
	if l == nil {
		return errNoApplications(d.pos(d.v.Get("applications")), d.label)
	}
	ext := mode.extended()
	d.apps = make([]*app, 0, len(l.List()))
	for j, x := range l.List() {
		a, err := readApp(d, x, j, mode)
		if err != nil {
			return err
		}
		if !ext {
			// Basic rules take no alias into account (§6.3, basic 5).
			a.hasAlias, a.alias = false, ""
		}
		d.apps = append(d.apps, a)
	}
	if ext {
		return checkGraph(d)
	}
	return nil
}

// readApp checks application x at index j and returns it.
func readApp(d *doc, x *yamlsrc.Value, j int, mode Mode) (*app, error) {
	loc := fmt.Sprintf("%s.applications[%d]", d.label, j)
	path := fmt.Sprintf("applications[%d]", j)
	pos := d.pos(x)
	ext := mode.extended()
	a := &app{v: x, j: j}
	switch {
	case x.IsString():
		if !ext {
			return nil, errNoPostfix(pos, path, x.Str(), loc, mode)
		}
		name, version, ok := splitVersion(x.Str())
		if !ok {
			return nil, errAppString(pos, path, loc, x.Str())
		}
		a.model, a.text, a.name, a.version = 1, x.Str(), name, version
		return a, nil
	case !x.IsMap():
		return nil, errAppShape(pos, path, loc)
	}
	ver := x.Get("version")
	if !ver.IsString() {
		return nil, errAppVersion(d.pos(orValue(ver, x)), path+".version", loc)
	}
	name, version, ok := splitVersion(ver.Str())
	if !ok {
		return nil, errAppVersion(d.pos(ver), path+".version", loc)
	}
	a.model, a.text, a.name, a.version = 2, ver.Str(), name, version
	pf := x.Get("deployPostfix")
	if !pf.IsString() || pf.Str() == "" {
		if ext {
			return nil, errAppPostfix(d.pos(orValue(pf, x)), path+".deployPostfix", loc)
		}
		return nil, errNoPostfix(pos, path, ver.Str(), loc, mode)
	}
	a.postfix, a.hasPostfix = pf.Str(), true
	if x.Has("alias") {
		al := x.Get("alias")
		if ext && (!al.IsString() || al.Str() == "") {
			return nil, errAppAlias(d.pos(orValue(al, x)), path+".alias", loc)
		}
		a.model = 3
		if al.IsString() {
			a.alias, a.hasAlias = al.Str(), true
		}
	}
	return a, nil
}

// orValue returns v, or fallback when v is missing.
func orValue(v, fallback *yamlsrc.Value) *yamlsrc.Value {
	if v == nil {
		return fallback
	}
	return v
}

// checkGraph is the deployGraph check of §6.3 step 3.
func checkGraph(d *doc) error {
	g := d.graph()
	if g == nil {
		return nil
	}
	if !g.IsList() {
		return errGraphNotList(d.pos(g), d.label)
	}
	seen := map[string]bool{}
	for k, c := range g.List() {
		path := fmt.Sprintf("deployGraph[%d]", k)
		name := c.Get("chunkName")
		if !c.IsMap() || !name.IsString() || name.Str() == "" {
			return errChunkName(d.pos(c), path, d.label, k)
		}
		apps := c.Get("apps")
		if !apps.IsList() {
			return errChunkApps(d.pos(c), path, d.label, name.Str())
		}
		for _, x := range apps.List() {
			if !x.IsString() {
				return errChunkApps(d.pos(x), path+".apps", d.label, name.Str())
			}
		}
		if seen[name.Str()] {
			return errChunkTwice(d.pos(name), path+".chunkName", d.label, name.Str())
		}
		seen[name.Str()] = true
	}
	return nil
}

// dupKey identifies an Application for the duplicate check (§6.3 step 4):
// version text and deployPostfix, and under extended rules the alias.
type dupKey struct {
	text, postfix, alias string
	hasPostfix, hasAlias bool
}

// checkDuplicates is the duplicate check of §6.3 step 4. fullPath is the
// Full SD's relative path, or empty for an incoming SD.
func checkDuplicates(d *doc, extended bool, fullPath string) error {
	counts := map[dupKey]int{}
	var order []dupKey
	first := map[dupKey]*app{}
	for _, a := range d.apps {
		k := dupKey{text: a.text, postfix: a.postfix, hasPostfix: a.hasPostfix}
		if extended {
			k.alias, k.hasAlias = a.alias, a.hasAlias
		}
		if counts[k] == 0 {
			order = append(order, k)
			first[k] = a
		}
		counts[k]++
	}
	var lines []string
	var pos diag.Pos
	for _, k := range order {
		if counts[k] > 1 {
			if lines == nil {
				pos = d.pos(first[k].v)
			}
			lines = append(lines, dupLine(first[k], extended, counts[k]))
		}
	}
	if lines == nil {
		return nil
	}
	return errDuplicates(pos, d.label, fullPath, lines)
}
