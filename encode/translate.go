package encode

import (
	"regexp"
	"strings"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8 (SAT encoding): element conditions, manual
// variables, constraints, implies, logic operators and presence operators.

// Evaluator evaluates value expressions (variability.md §9); a nil result is
// undefined.
type Evaluator interface {
	Eval(x *yamlsrc.Value) (*yamlsrc.Value, error)
}

type (
	// Value is a document node.
	Value = yamlsrc.Value
	// Element is a graph element.
	Element = graph.Element
)

// Result is the encoded problem.
type Result struct {
	NumVars int
	Clauses [][]int
	Names   []string
	// Unsat is set when a requirement folded to false.
	Unsat bool
	// ElementVars holds the variable of each element, in global order.
	ElementVars []int
	// NodeVars and TechnologyVars are the named variables whose names start
	// with "node" and "technology" (the reference's uniqueness projections).
	NodeVars, TechnologyVars []int
	// TechnologyNameLits holds, per distinct technology name in order of
	// first occurrence, the literal or(technologies with that name).
	TechnologyNameLits []int
	// ClauseGroups holds the origin of every clause as an index into
	// Groups plus one; 0 marks definitions that are always satisfiable.
	ClauseGroups []int
	Groups       []Group
	// UnsatGroup is the group (index plus one) whose requirement folded to
	// false when Unsat is set.
	UnsatGroup int

	builder *Builder
}

// Group is the origin of a set of requirements: an element's conditions,
// one constraint, or an element's implies list.
type Group struct {
	Element    *Element
	Constraint *Value
	Implies    bool
}

// Builder exposes the builder, e.g. to add objective literals.
func (r *Result) Builder() *Builder { return r.builder }

type encoder struct {
	// evars and mvars hold each element's variable and manual variable,
	// indexed by Seq, so that the hot path avoids name lookups.
	evars, mvars []Lit
	g            *graph.Graph
	b            *Builder
	ev           Evaluator
	exprs        *Value
	named        map[*Value]Lit
}

func errf(msg string) error { return diag.New(diag.StageSolve, msg) }

// Encode translates the graph's conditions, constraints and implies into CNF.
func Encode(g *graph.Graph, ev Evaluator) (*Result, error) {
	e := &encoder{g: g, b: NewBuilderSize(2*len(g.Elements) + 16), ev: ev, exprs: g.Variability().Get("expressions"), named: map[*Value]Lit{}}
	for _, el := range g.Groups {
		if el.Variability {
			return nil, diag.At(el.Pos(), diag.StageSolve, "Variability groups are not allowed")
		}
	}
	res := &Result{builder: e.b}
	res.ElementVars = make([]int, len(g.Elements))
	e.evars = make([]Lit, len(g.Elements))
	e.mvars = make([]Lit, len(g.Elements))
	for i, el := range g.Elements {
		e.evars[i] = e.b.Var(el.ID())
		res.ElementVars[i] = int(e.evars[i])
	}
	for i, el := range g.Elements {
		e.mvars[i] = e.b.Var(el.ManualID())
	}
	group := func(gr Group) {
		res.Groups = append(res.Groups, gr)
		e.b.SetGroup(len(res.Groups))
	}
	for _, el := range g.Elements {
		group(Group{Element: el})
		if err := e.element(el); err != nil {
			return nil, withPos(err, el.Pos())
		}
	}
	if cs := g.Variability().Get("constraints"); !cs.IsNull() {
		if !cs.IsList() {
			return nil, errf("Element \"" + graph.JSONOf(cs) + "\" is not an array")
		}
		for _, c := range cs.List {
			group(Group{Constraint: c})
			l, err := e.translate(c, nil)
			if err != nil {
				return nil, withPos(err, diag.Pos{File: g.File, Line: int(c.Line), Col: int(c.Col)})
			}
			e.b.Require(l)
		}
	}
	for _, el := range g.Elements {
		if el.Raw.Get("implies").IsNull() {
			continue
		}
		group(Group{Element: el, Implies: true})
		if err := e.implies(el); err != nil {
			return nil, withPos(err, el.Pos())
		}
	}
	e.b.SetGroup(0)
	// Technology names in order of first occurrence.
	var names []string
	byName := map[string][]Lit{}
	for _, t := range g.Technologies {
		if _, ok := byName[t.Name]; !ok {
			names = append(names, t.Name)
		}
		byName[t.Name] = append(byName[t.Name], e.evars[t.Seq])
	}
	for _, n := range names {
		res.TechnologyNameLits = append(res.TechnologyNameLits, int(e.b.Materialize(e.b.Or(byName[n]...))))
	}
	for v := 1; v < len(e.b.names); v++ {
		name := e.b.names[v]
		switch {
		case strings.HasPrefix(name, "node"):
			res.NodeVars = append(res.NodeVars, v)
		case strings.HasPrefix(name, "technology"):
			res.TechnologyVars = append(res.TechnologyVars, v)
		}
	}
	res.NumVars = e.b.NumVars()
	res.Clauses = e.b.clauses
	res.Names = e.b.names
	res.Unsat = e.b.unsat
	res.UnsatGroup = e.b.unsatGroup
	res.ClauseGroups = e.b.clauseGroups
	return res, nil
}

func withPos(err error, p diag.Pos) error {
	if d, ok := diag.As(err); ok && !d.Pos.Known() {
		d.Pos = p
	}
	return err
}

func isGenerated(c *Value) bool {
	return c.IsMap() && c.Get("_generated").IsTrue()
}

// element encodes one element's conditions (§8.2).
func (e *encoder) element(el *Element) error {
	id := e.evars[el.Seq]
	manual := e.mvars[el.Seq]
	conds := el.Conditions
	if len(conds) == 0 {
		e.b.Require(manual)
		e.b.Require(id)
		return nil
	}
	var manualConds []*Value
	for _, c := range conds {
		if !isGenerated(c) {
			manualConds = append(manualConds, c)
		}
	}
	m, err := e.and(manualConds, el)
	if err != nil {
		return err
	}
	e.b.RequireEquiv(manual, m)
	if len(conds) == 1 {
		c := conds[0]
		switch {
		case c.IsTrue():
			e.b.Require(id)
			return nil
		case c.IsFalse():
			e.b.Require(-id)
			return nil
		}
		l, err := e.translate(c, el)
		if err != nil {
			return err
		}
		e.b.RequireEquiv(id, l)
		return nil
	}
	all, err := e.and(conds, el)
	if err != nil {
		return err
	}
	e.b.RequireEquiv(id, all)
	return nil
}

func (e *encoder) and(conds []*Value, ctx *Element) (Lit, error) {
	lits := make([]Lit, len(conds))
	for i, c := range conds {
		l, err := e.translate(c, ctx)
		if err != nil {
			return 0, err
		}
		lits[i] = l
	}
	return e.b.And(lits...), nil
}

// implies encodes an element's implies list (§8.3).
func (e *encoder) implies(el *Element) error {
	list := el.Raw.Get("implies")
	if list.IsNull() {
		return nil
	}
	if !list.IsList() {
		return errf("Element \"" + graph.JSONOf(list) + "\" is not an array")
	}
	id := e.evars[el.Seq]
	for _, imp := range list.List {
		if !imp.IsList() {
			return errf("implies is not iterable")
		}
		if len(imp.List) > 2 {
			return errf(el.DisplayUpper() + " has an implies with more than 2 elements")
		}
		var target, cond *Value
		if len(imp.List) > 0 {
			target = imp.List[0]
		}
		if len(imp.List) > 1 {
			cond = imp.List[1]
		}
		if target.IsNull() {
			return errf(el.DisplayUpper() + " has an implies without an target")
		}
		left := id
		if !cond.IsNull() {
			l, err := e.translate(yamlsrc.MapOf("and", yamlsrc.NewList(yamlsrc.NewString(el.ID()), cond)), el)
			if err != nil {
				return err
			}
			left = l
		}
		right, err := e.translate(target, el)
		if err != nil {
			return err
		}
		e.b.Require(e.b.Implies(left, right))
	}
	return nil
}

// term resolves a string in logic position (§8.1).
func (e *encoder) term(s string) (Lit, error) {
	name := strings.TrimLeft(s, "-")
	if strings.Trim(name, "0123456789") == "" {
		return 0, errf(`"` + jsonEscape(s) + `" is not a Formula or Term`)
	}
	neg := (len(s)-len(name))%2 == 1
	var l Lit
	switch {
	case name == "$T":
		l = True
	case name == "$F":
		l = False
	case strings.HasPrefix(name, "$"):
		return 0, errf("Only generated variable names can start with $")
	default:
		l = e.b.Var(name)
	}
	if neg {
		return -l, nil
	}
	return l, nil
}

func jsonEscape(s string) string {
	q := yamlsrc.JSON(yamlsrc.NewString(s))
	return q[1 : len(q)-1]
}

// logicKeys is the dispatch order of §8.4/§8.5.
var logicKeys = []string{
	"logic_expression", "and", "or", "not", "xor", "exo", "implies", "amo",
	"node_presence", "host_presence", "has_source", "has_incoming_relation", "has_incoming_relation_naive",
	"has_outgoing_relation", "has_outgoing_relation_naive", "has_artifact", "has_artifact_naive",
	"relation_presence", "source_presence", "target_presence", "container_presence", "policy_presence",
	"has_present_target", "group_presence", "has_present_member", "artifact_presence", "is_managed",
	"node_property_presence", "relation_property_presence", "group_property_presence", "policy_property_presence",
	"artifact_property_presence", "input_presence", "is_consumed", "output_presence", "is_produced",
	"import_presence", "technology_presence", "node_type_presence", "relation_type_presence",
	"group_type_presence", "policy_type_presence", "artifact_type_presence",
}

var logicRank = func() map[string]int {
	m := make(map[string]int, len(logicKeys))
	for i, k := range logicKeys {
		m[k] = i
	}
	return m
}()

// translate is T(x) of §8.4 with context element ctx.
func (e *encoder) translate(x *Value, ctx *Element) (Lit, error) {
	if x == nil {
		return 0, errf("Cannot read properties of undefined (reading '_cached_element')")
	}
	switch x.Kind {
	case yamlsrc.KindString:
		return e.term(x.Str)
	case yamlsrc.KindBool:
		if x.Bool {
			return True, nil
		}
		return False, nil
	case yamlsrc.KindNull:
		return 0, errf("Cannot read properties of null (reading '_cached_element')")
	case yamlsrc.KindMap:
		// The first recognised key in dispatch order wins; maps have few
		// keys, so rank the keys present instead of probing every operator.
		key, best := "", len(logicKeys)
		for i, k := range x.Map.Keys() {
			if r, ok := logicRank[k]; ok && r < best && !x.Map.Val(i).IsNull() {
				key, best = k, r
			}
		}
		if key != "" {
			return e.operator(key, x, ctx)
		}
	}
	v, err := e.ev.Eval(x)
	if err != nil {
		return 0, err
	}
	if v == nil || v.Kind != yamlsrc.KindBool {
		return 0, errf("Element \"" + graph.JSONOf(v) + "\" is not a boolean")
	}
	if v.Bool {
		return True, nil
	}
	return False, nil
}

func (e *encoder) operands(x *Value, key string, ctx *Element) ([]Lit, error) {
	v := x.Get(key)
	if !v.IsList() {
		return nil, errf("expression." + key + ".map is not a function")
	}
	out := make([]Lit, len(v.List))
	for i, c := range v.List {
		l, err := e.translate(c, ctx)
		if err != nil {
			return nil, err
		}
		out[i] = l
	}
	return out, nil
}

func (e *encoder) ids(es []*Element) []Lit {
	out := make([]Lit, len(es))
	for i, el := range es {
		out[i] = e.evars[el.Seq]
	}
	return out
}

func (e *encoder) operator(key string, x *Value, ctx *Element) (Lit, error) {
	g, b := e.g, e.b
	arg := x.Get(key)
	c := graph.Context{Element: ctx}
	switch key {
	case "logic_expression":
		name := arg
		if name.Kind != yamlsrc.KindString {
			return 0, errf("Element \"" + graph.JSONOf(name) + "\" is not a string")
		}
		found := e.exprs.Get(name.Str)
		if found.IsNull() {
			return 0, errf(`Did not find logic expression "` + name.Str + `"`)
		}
		switch found.Kind {
		case yamlsrc.KindString:
			return 0, errf(`Logic expression "` + graph.PrettyOf(x) + `" must not be a string`)
		case yamlsrc.KindBool:
			return e.translate(found, ctx)
		case yamlsrc.KindNumber:
			return 0, errf("Cannot create property '_id' on number '" + graph.JSString(found) + "'")
		case yamlsrc.KindTime:
			return 0, errf("Unknown value expression \"" + graph.PrettyOf(found) + "\"")
		}
		if v, ok := e.named[found]; ok {
			return v, nil
		}
		v := b.Var("expression." + name.Str)
		e.named[found] = v
		l, err := e.translate(found, ctx)
		if err != nil {
			return 0, err
		}
		b.RequireEquiv(v, l)
		return v, nil
	case "and", "or", "xor", "exo", "amo":
		ls, err := e.operands(x, key, ctx)
		if err != nil {
			return 0, err
		}
		switch key {
		case "and":
			return b.And(ls...), nil
		case "or":
			return b.Or(ls...), nil
		case "xor":
			return b.Xor(ls...), nil
		case "exo":
			return b.Exo(ls...), nil
		}
		return b.Amo(ls...), nil
	case "not":
		l, err := e.translate(arg, ctx)
		return -l, err
	case "implies":
		var a0, a1 *Value
		if arg.IsList() {
			if len(arg.List) > 0 {
				a0 = arg.List[0]
			}
			if len(arg.List) > 1 {
				a1 = arg.List[1]
			}
		}
		l0, err := e.translate(a0, ctx)
		if err != nil {
			return 0, err
		}
		l1, err := e.translate(a1, ctx)
		if err != nil {
			return 0, err
		}
		return b.Implies(l0, l1), nil
	case "node_presence", "host_presence", "has_source", "has_incoming_relation", "has_incoming_relation_naive",
		"has_outgoing_relation", "has_outgoing_relation_naive", "has_artifact", "has_artifact_naive":
		n, err := g.GetNode(arg, c)
		if err != nil {
			return 0, err
		}
		switch key {
		case "node_presence":
			return e.evars[n.Seq], nil
		case "host_presence":
			var ls []Lit
			for _, r := range n.Outgoing {
				if r.IsHostedOn() {
					ls = append(ls, e.evars[r.Target.Seq])
				}
			}
			return b.Or(ls...), nil
		case "has_source":
			ls := make([]Lit, len(n.Ingoing))
			for i, r := range n.Ingoing {
				ls[i] = e.evars[r.Container.Seq]
			}
			return b.Or(ls...), nil
		case "has_incoming_relation":
			ls := make([]Lit, len(n.Ingoing))
			for i, r := range n.Ingoing {
				ls[i] = b.And(e.mvars[r.Seq], e.evars[r.Container.Seq])
			}
			return b.Or(ls...), nil
		case "has_incoming_relation_naive":
			return b.Or(e.ids(n.Ingoing)...), nil
		case "has_outgoing_relation":
			ls := make([]Lit, len(n.Outgoing))
			for i, r := range n.Outgoing {
				ls[i] = b.And(e.mvars[r.Seq], e.evars[r.Target.Seq])
			}
			return b.Or(ls...), nil
		case "has_outgoing_relation_naive":
			return b.Or(e.ids(n.Outgoing)...), nil
		case "has_artifact":
			ls := make([]Lit, len(n.Artifacts))
			for i, a := range n.Artifacts {
				ls[i] = e.mvars[a.Seq]
			}
			return b.Or(ls...), nil
		}
		return b.Or(e.ids(n.Artifacts)...), nil
	case "relation_presence", "source_presence", "target_presence":
		r, err := g.GetRelation(arg, c)
		if err != nil {
			return 0, err
		}
		switch key {
		case "relation_presence":
			return e.evars[r.Seq], nil
		case "source_presence":
			return e.evars[r.Container.Seq], nil
		}
		return e.evars[r.Target.Seq], nil
	case "container_presence":
		if arg.IsString() && (arg.Str == "SELF" || arg.Str == "CONTAINER") {
			cont, err := g.GetContainer(ctx)
			if err != nil {
				return 0, err
			}
			if arg.Str == "CONTAINER" {
				if cont, err = g.GetContainer(cont); err != nil {
					return 0, err
				}
			}
			return e.evars[cont.Seq], nil
		}
		return 0, errf("Unexpected error")
	case "policy_presence", "has_present_target":
		p, err := g.GetPolicy(arg, c)
		if err != nil {
			return 0, err
		}
		if key == "policy_presence" {
			return e.evars[p.Seq], nil
		}
		ls := make([]Lit, len(p.Targets))
		for i, t := range p.Targets {
			if t.Kind == graph.KindNode {
				ls[i] = e.evars[t.Seq]
			} else {
				ls[i] = b.Or(e.ids(t.Members)...)
			}
		}
		return b.Or(ls...), nil
	case "group_presence", "has_present_member":
		gr, err := g.GetGroup(arg, c)
		if err != nil {
			return 0, err
		}
		if key == "group_presence" {
			return e.evars[gr.Seq], nil
		}
		return b.Or(e.ids(gr.Members)...), nil
	case "artifact_presence", "is_managed":
		a, err := g.GetArtifact(arg, c)
		if err != nil {
			return 0, err
		}
		if key == "artifact_presence" {
			return e.evars[a.Seq], nil
		}
		techs, err := managing(g, a)
		if err != nil {
			return 0, err
		}
		return b.Or(e.ids(techs)...), nil
	case "node_property_presence", "relation_property_presence", "group_property_presence",
		"policy_property_presence", "artifact_property_presence":
		p, err := g.GetProperty(refKind(key), arg, c)
		if err != nil {
			return 0, err
		}
		return e.evars[p.Seq], nil
	case "node_type_presence", "relation_type_presence", "group_type_presence",
		"policy_type_presence", "artifact_type_presence":
		t, err := g.GetType(refKind(key), arg, c)
		if err != nil {
			return 0, err
		}
		return e.evars[t.Seq], nil
	case "input_presence", "is_consumed":
		in, err := g.GetInput(arg, c)
		if err != nil {
			return 0, err
		}
		if key == "input_presence" {
			return e.evars[in.Seq], nil
		}
		return b.Or(e.ids(in.Consumers)...), nil
	case "output_presence", "is_produced":
		out, err := g.GetOutput(arg, c)
		if err != nil {
			return 0, err
		}
		if key == "output_presence" {
			return e.evars[out.Seq], nil
		}
		return b.Or(e.ids(out.Producers)...), nil
	case "import_presence":
		imp, err := g.GetImport(arg, c)
		if err != nil {
			return 0, err
		}
		return e.evars[imp.Seq], nil
	case "technology_presence":
		t, err := g.GetTechnology(arg, c)
		if err != nil {
			return 0, err
		}
		return e.evars[t.Seq], nil
	}
	return 0, errf("Unexpected error")
}

func refKind(key string) graph.PropertyKind {
	switch {
	case strings.HasPrefix(key, "relation_"):
		return graph.RefRelation
	case strings.HasPrefix(key, "group_"):
		return graph.RefGroup
	case strings.HasPrefix(key, "policy_"):
		return graph.RefPolicy
	case strings.HasPrefix(key, "artifact_"):
		return graph.RefArtifact
	}
	return graph.RefNode
}

// implementationName matches <type>~<component>[#<artifact>]::<technology>[@<hosting>].
var implementationName = regexp.MustCompile(`([^~]*)~([^#]*)(#([^:]*))?::([^@]*)(@(.*))?`)

// managing returns the technologies of an artifact's node whose
// implementation name manages the artifact's type (is_managed, §8.5).
func managing(g *graph.Graph, a *Element) ([]*Element, error) {
	var out []*Element
	for _, t := range a.Container.Technologies {
		m := implementationName.FindStringSubmatch(t.Assign)
		if m == nil {
			return nil, errf("Unexpected error")
		}
		if m[3] == "" {
			continue
		}
		at, err := a.SingleType()
		if err != nil {
			return nil, err
		}
		ok, err := g.IsA("artifact_types", at.Name, m[4])
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, t)
		}
	}
	return out, nil
}
