package sd

import (
	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// merger merges a Delta side into a Full side with one merge function
// (§6.1, §8-§10). While it combines SD[i] (i ≥ 1) into the SDs before it,
// its problems carry the prefix "SD[i]: " (§6.2).
type merger struct {
	// fn is the merge function: basic-merge, basic-exclusion-merge or
	// extended-merge.
	fn   Mode
	warn func(*diag.Diagnostic)
	// seq is the i of the SD[i] being combined; 0 for the merge into the
	// Full SD.
	seq int
}

func (m *merger) report(d *diag.Diagnostic) {
	if m.seq > 0 {
		d = prefixed(d, m.seq)
	}
	m.warn(d)
}

func (m *merger) fail(err error) error {
	if d, ok := diag.As(err); ok && m.seq > 0 {
		return prefixed(d, m.seq)
	}
	return err
}

// merge returns the merge of Delta side d into Full side f. Neither input
// is changed; the result may share values with them.
func (m *merger) merge(f, d *doc) (*yamlsrc.Value, error) {
	switch m.fn {
	case ExtendedMerge:
		v, err := m.extended(f, d)
		if err != nil {
			return nil, m.fail(err)
		}
		return v, nil
	case BasicExclusionMerge:
		return m.basic(f, d, true), nil
	}
	return m.basic(f, d, false), nil
}

// basicKey is what basic Matching compares: the Name and deployPostfix.
type basicKey struct{ name, postfix string }

// basic is basic-merge (§8) and, with exclusion, basic-exclusion-merge
// (§9). The result is {applications: R}.
func (m *merger) basic(f, d *doc, exclusion bool) *yamlsrc.Value {
	firstMatch := make(map[basicKey]*app, len(d.apps))
	for _, da := range d.apps {
		k := basicKey{da.name, da.postfix}
		if firstMatch[k] == nil {
			firstMatch[k] = da
		}
	}
	inFull := make(map[basicKey]bool, len(f.apps))
	r := make([]*yamlsrc.Value, 0, len(f.apps)+len(d.apps))
	for _, fa := range f.apps {
		k := basicKey{fa.name, fa.postfix}
		inFull[k] = true
		da := firstMatch[k]
		switch {
		case da == nil:
			r = append(r, fa.v)
		case da.version == fa.version:
			// Duplicating: unchanged, or removed by exclusion.
			if !exclusion {
				r = append(r, fa.v)
			}
		default:
			r = append(r, withVersion(fa, da.version))
		}
	}
	for _, da := range d.apps {
		if inFull[basicKey{da.name, da.postfix}] {
			continue
		}
		if exclusion {
			m.report(warnNewIgnored(d.pos(da.v), da.text, da.postfix))
			continue
		}
		r = append(r, da.v)
	}
	return crop(yamlsrc.NewList(r...))
}

// crop returns the SD {applications: list}.
func crop(list *yamlsrc.Value) *yamlsrc.Value {
	v := yamlsrc.NewMap()
	v.Map().Append("applications", list)
	return v
}

// withVersion returns application a with only its version text replaced
// by <Name>:<version>; the version keeps its place among a's keys.
func withVersion(a *app, version string) *yamlsrc.Value {
	text := a.name + ":" + version
	if a.v.IsString() {
		return yamlsrc.NewStringAt(text, a.v.Line, a.v.Col)
	}
	c := copyMap(a.v)
	old := a.v.Get("version")
	c.Map().Set("version", yamlsrc.NewStringAt(text, old.Line, old.Col))
	return c
}

// extMatch is extended Matching (§1): the Name, and deployPostfix and alias,
// each present on both sides with the same value or absent on both.
func extMatch(x, y *app) bool {
	return x.name == y.name &&
		x.hasPostfix == y.hasPostfix && x.postfix == y.postfix &&
		x.hasAlias == y.hasAlias && x.alias == y.alias
}

// headerText describes a top-level value for V1: its scalar text, or
// "<none>" or "<non-scalar>".
func headerText(v *yamlsrc.Value, key string) (shown, text string, scalar bool) {
	if !v.Has(key) {
		return "<none>", "", false
	}
	t, ok := scalarText(v.Get(key))
	if !ok {
		return "<non-scalar>", "", false
	}
	return "'" + t + "'", t, true
}

// aliases returns the set of Aliases listed in a deployGraph's chunks.
func aliases(g *yamlsrc.Value) map[string]bool {
	set := map[string]bool{}
	if g == nil {
		return set
	}
	for _, c := range g.List() {
		for _, x := range c.Get("apps").List() {
			set[x.Str()] = true
		}
	}
	return set
}

// extended is extended-merge (§10): the validations V1-V6 in order
// (checkExtended), then the merge of the applications (§10.2 rule 1) and of
// the deployGraph (rule 2).
func (m *merger) extended(f, d *doc) (*yamlsrc.Value, error) {
	x, err := checkExtended(f, d)
	if err != nil {
		return nil, err
	}
	out := copyMap(f.v)
	out.Map().Set("applications", x.applications())
	if x.fg == nil {
		return out, nil
	}
	if g := x.deployGraph(); g != nil {
		out.Map().Set("deployGraph", g)
	}
	return out, nil
}

// extPair is a Full side f and a Delta side d under extended-merge, with
// what the validations learn about them for the merge.
type extPair struct {
	f, d *doc
	// fg and dg are the sides' deployGraphs, or nil.
	fg, dg *yamlsrc.Value
	// fChunks are the chunks of fg by chunkName.
	fChunks map[string]*yamlsrc.Value
	// matchOf[i] is the first Delta application that matches Full
	// application i (extMatch), or nil; isNew[j] tells that Delta
	// application j matches none: it is a New Application.
	matchOf []*app
	isNew   []bool
}

// checkExtended runs the validations of extended-merge, V1-V6 (§10.1), in
// order, and returns the pair for the merge.
func checkExtended(f, d *doc) (*extPair, error) {
	if err := checkHeaders(f, d); err != nil {
		return nil, err
	}
	if err := checkModels(f, d); err != nil {
		return nil, err
	}
	x := &extPair{f: f, d: d, fg: f.graph(), dg: d.graph()}
	if err := x.checkChunks(); err != nil {
		return nil, err
	}
	x.match()
	if err := x.checkAliases(); err != nil {
		return nil, err
	}
	return x, nil
}

// checkHeaders is V1: version, type and deployMode are the same scalar on
// both sides, or absent on both.
func checkHeaders(f, d *doc) error {
	for _, key := range []string{"version", "type", "deployMode"} {
		fs, ft, fok := headerText(f.v, key)
		ds, dt, dok := headerText(d.v, key)
		if !f.v.Has(key) && !d.v.Has(key) {
			continue
		}
		if !fok || !dok || ft != dt {
			return errHeaderDiffers(d.pos(d.v.Get(key)), key, fs, ds)
		}
	}
	return nil
}

// checkModels is V2: every application of both sides has the model of the
// first one, the Full SD's before the Delta SD's.
func checkModels(f, d *doc) error {
	var first *app
	firstLabel := ""
	for _, side := range []struct {
		label string
		doc   *doc
	}{{"Full SD", f}, {"Delta SD", d}} {
		for _, a := range side.doc.apps {
			if first == nil {
				first, firstLabel = a, side.label
				continue
			}
			if a.model != first.model {
				return errModelsDiffer(side.doc.pos(a.v), firstLabel, first.j, first.model, side.label, a.j, a.model)
			}
		}
	}
	return nil
}

// checkChunks is V3, a Delta deployGraph needs a Full one, and V4, every
// Delta chunk names a Full chunk.
func (x *extPair) checkChunks() error {
	if x.dg != nil && x.fg == nil {
		return errDeltaGraphOnly(x.d.pos(x.dg))
	}
	x.fChunks = map[string]*yamlsrc.Value{}
	if x.fg != nil {
		for _, c := range x.fg.List() {
			x.fChunks[c.Get("chunkName").Str()] = c
		}
	}
	if x.dg != nil {
		for _, c := range x.dg.List() {
			if name := c.Get("chunkName"); x.fChunks[name.Str()] == nil {
				return errNewChunk(x.d.pos(name), name.Str())
			}
		}
	}
	return nil
}

// match is extended Matching between the sides, for V5 and the merge.
func (x *extPair) match() {
	f, d := x.f, x.d
	x.matchOf = make([]*app, len(f.apps))
	x.isNew = make([]bool, len(d.apps))
	for i, fa := range f.apps {
		for _, da := range d.apps {
			if extMatch(fa, da) {
				x.matchOf[i] = da
				break
			}
		}
	}
	for j, da := range d.apps {
		x.isNew[j] = true
		for _, fa := range f.apps {
			if extMatch(fa, da) {
				x.isNew[j] = false
				break
			}
		}
	}
}

// checkAliases is V5, a New Application is listed in the Delta deployGraph
// when there is a Full one, and V6, every application of a side with a
// deployGraph is listed in it.
func (x *extPair) checkAliases() error {
	f, d := x.f, x.d
	dSet := aliases(x.dg)
	if x.fg != nil {
		for j, da := range d.apps {
			if x.isNew[j] && !dSet[da.Alias()] {
				return errNewAppNotInGraph(d.pos(da.v), da.Alias())
			}
		}
		fSet := aliases(x.fg)
		for _, fa := range f.apps {
			if !fSet[fa.Alias()] {
				return errAppNotInGraph(f.pos(fa.v), "Full SD", fa.Alias())
			}
		}
	}
	if x.dg != nil {
		for _, da := range d.apps {
			if !dSet[da.Alias()] {
				return errAppNotInGraph(d.pos(da.v), "Delta SD", da.Alias())
			}
		}
	}
	return nil
}

// applications is §10.2 rule 1: the Full applications, with the version of
// their matching Delta application, then the New Applications.
func (x *extPair) applications() *yamlsrc.Value {
	r := make([]*yamlsrc.Value, 0, len(x.f.apps)+len(x.d.apps))
	for i, fa := range x.f.apps {
		switch da := x.matchOf[i]; {
		case da == nil || da.version == fa.version:
			r = append(r, fa.v)
		default:
			r = append(r, withVersion(fa, da.version))
		}
	}
	for j, da := range x.d.apps {
		if x.isNew[j] {
			r = append(r, da.v)
		}
	}
	return yamlsrc.NewList(r...)
}

// deployGraph is §10.2 rule 2 where the Full SD has a deployGraph: New
// Applications' Aliases, in Delta applications order, go to the end of the
// Full chunk of the same name as each Delta chunk that lists them. It
// returns nil when that adds nothing.
func (x *extPair) deployGraph() *yamlsrc.Value {
	added := x.addedAliases()
	if len(added) == 0 {
		return nil
	}
	graph := make([]*yamlsrc.Value, len(x.fg.List()))
	for k, c := range x.fg.List() {
		name := c.Get("chunkName").Str()
		if len(added[name]) == 0 {
			graph[k] = c
			continue
		}
		apps := c.Get("apps")
		list := append([]*yamlsrc.Value(nil), apps.List()...)
		for _, a := range added[name] {
			list = append(list, yamlsrc.NewString(a))
		}
		nc := copyMap(c)
		nl := yamlsrc.NewList(list...)
		nl.Line, nl.Col = apps.Line, apps.Col
		nc.Map().Set("apps", nl)
		graph[k] = nc
	}
	g := yamlsrc.NewList(graph...)
	g.Line, g.Col = x.fg.Line, x.fg.Col
	return g
}

// addedAliases returns, by Full chunk name, the Aliases of New
// Applications that the chunk gains, in Delta applications order.
func (x *extPair) addedAliases() map[string][]string {
	added := map[string][]string{}
	if x.dg == nil {
		return added
	}
	has := make(map[string]map[string]bool, len(x.fChunks))
	for name, c := range x.fChunks {
		set := map[string]bool{}
		for _, a := range c.Get("apps").List() {
			set[a.Str()] = true
		}
		has[name] = set
	}
	for j, da := range x.d.apps {
		if !x.isNew[j] {
			continue
		}
		alias := da.Alias()
		for _, c := range x.dg.List() {
			name := c.Get("chunkName").Str()
			for _, a := range c.Get("apps").List() {
				if a.Str() == alias && !has[name][alias] {
					has[name][alias] = true
					added[name] = append(added[name], alias)
				}
			}
		}
	}
	return added
}

// combine combines the incoming SDs into one (§6.4): under basic rules the
// result starts as SD[0] cropped to its applications, under extended rules
// as SD[0]; each later SD[i] is merged into it as a Delta.
func combine(docs []*doc, mode Mode, warn func(*diag.Diagnostic)) (*doc, error) {
	res := docs[0]
	if !mode.extended() {
		res = &doc{v: crop(docs[0].v.Get("applications")), label: docs[0].label, file: docs[0].file, apps: docs[0].apps}
	}
	m := merger{fn: mode.mergeFunc(), warn: warn}
	for i := 1; i < len(docs); i++ {
		m.seq = i
		v, err := m.merge(res, docs[i])
		if err != nil {
			return nil, err
		}
		next := &doc{v: v, label: res.label, file: res.file}
		if err := validate(next, mode); err != nil {
			// The merge of two valid SDs is valid.
			panic("sd: combined SD is invalid: " + err.Error())
		}
		res = next
	}
	return res, nil
}
