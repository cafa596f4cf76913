package encode

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8 and §10.2 as seen in the CNF: numbering, the
// projections for uniqueness and technology counting, the semantics of the
// clauses, and the origin of every clause.

// dpll reports whether clauses over variables 1..n are satisfiable: a
// plain backtracking search with unit propagation, independent of the
// solver package (which encode may not import).
func dpll(clauses [][]int, assign []int8) bool {
	for {
		unit := 0
		for _, c := range clauses {
			open, sat := 0, false
			last := 0
			for _, l := range c {
				v := assign[abs(l)]
				switch {
				case v == 0:
					open++
					last = l
				case (v > 0) == (l > 0):
					sat = true
				}
				if sat {
					break
				}
			}
			if sat {
				continue
			}
			if open == 0 {
				return false
			}
			if open == 1 && unit == 0 {
				unit = last
			}
		}
		if unit == 0 {
			break
		}
		if unit > 0 {
			assign[unit] = 1
		} else {
			assign[-unit] = -1
		}
	}
	for v := 1; v < len(assign); v++ {
		if assign[v] != 0 {
			continue
		}
		for _, val := range []int8{1, -1} {
			next := append([]int8(nil), assign...)
			next[v] = val
			if dpll(clauses, next) {
				return true
			}
		}
		return false
	}
	return true
}

// sat reports whether the result's clauses have a model in which each
// named variable has the given value.
func sat(t *testing.T, res *Result, assume map[string]bool) bool {
	t.Helper()
	names := res.Names()
	clauses := unpack(res.Clauses)
	for name, v := range assume {
		found := false
		for i, n := range names {
			if n == name {
				lit := i
				if !v {
					lit = -i
				}
				clauses = append(clauses, []int{lit})
				found = true
			}
		}
		require.True(t, found, "no variable %s", name)
	}
	return dpll(clauses, make([]int8, res.NumVars+1))
}

func TestEncodeRules(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    constraints: [{exo: [node.a, node.b]}, {implies: [nodeish, node.a]}]
  node_templates:
    a: {type: t, conditions: {not: {node_presence: b}}, technology: [{ansible: {}}, {terraform: {conditions: x}}]}
    b: {type: t, conditions: y, technology: [{ansible: {conditions: {node_presence: b}}}]}
`
	g := build(t, src)
	res, err := Encode(g, evaluator(g), Options{})
	require.NoError(t, err)
	names := res.Names()
	// Element variables first, in global element order.
	for i, e := range g.Elements {
		require.Equal(t, i+1, res.ElementVars[i], e.ID())
		require.Equal(t, e.ID(), names[res.ElementVars[i]])
	}
	require.Equal(t, "manual.type.t@0.node.a", names[len(g.Elements)+1])
	nameOf := func(vs []int) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = names[v]
		}
		return out
	}
	// The uniqueness projections are the variables whose names start
	// with node and technology, free variables included (§10.2).
	require.Equal(t, []string{"node.a", "node.b", "nodeish"}, nameOf(res.NodeVars))
	require.Equal(t, []string{"technology.ansible@0.node.a", "technology.terraform@1.node.a", "technology.ansible@0.node.b"}, nameOf(res.TechnologyVars))
	// One literal per distinct technology name, in order of first
	// occurrence.
	require.Len(t, res.TechnologyNameLits, 2)
	require.False(t, res.Unsat)
	require.Same(t, res.Builder(), res.Builder())
	require.Equal(t, res.NumVars, res.Builder().NumVars())

	for _, tc := range []struct {
		assume map[string]bool
		want   bool
	}{
		{map[string]bool{"node.a": true, "node.b": false}, true},
		{map[string]bool{"node.a": false, "node.b": true}, true},
		// exo(node.a, node.b) and a ⇔ ¬b.
		{map[string]bool{"node.a": true, "node.b": true}, false},
		{map[string]bool{"node.a": false, "node.b": false}, false},
		// nodeish → node.a.
		{map[string]bool{"nodeish": true, "node.b": true}, false},
		// Elements without conditions are required, with their manual
		// variable.
		{map[string]bool{"technology.ansible@0.node.a": false}, false},
		{map[string]bool{"manual.technology.ansible@0.node.a": false}, false},
		// manual.node.a ⇔ ¬node.b.
		{map[string]bool{"manual.node.a": true, "node.b": true}, false},
		{map[string]bool{"manual.node.b": true, "y": false}, false},
		{map[string]bool{"manual.type.t@0.node.a": false}, false},
		// A single condition: element ⇔ condition, manual ⇔ and(manual
		// conditions).
		{map[string]bool{"technology.terraform@1.node.a": true, "x": false}, false},
		{map[string]bool{"technology.terraform@1.node.a": false, "x": true}, false},
		{map[string]bool{"technology.ansible@0.node.b": true, "node.b": false}, false},
		{map[string]bool{"technology.ansible@0.node.b": true, "node.b": true, "manual.technology.ansible@0.node.b": false}, false},
	} {
		require.Equal(t, tc.want, sat(t, res, tc.assume), "%v", tc.assume)
	}
}

// TestEncodeGroupRules: with Options.Groups every clause knows the
// requirement it came from, and a requirement that folds to false is
// reported.
func TestEncodeGroupRules(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    constraints: [a, false]
  node_templates:
    n: {type: t, implies: [[m]]}
`
	g := build(t, src)
	res, err := Encode(g, evaluator(g), Options{Groups: true})
	require.NoError(t, err)
	require.True(t, res.Unsat)
	require.Len(t, res.ClauseGroups, len(res.Clauses.Refs))
	// Groups: the two elements, the two constraints, the implies of n.
	require.Len(t, res.Groups, 5)
	require.Equal(t, "type.t@0.node.n", res.Groups[0].Element.ID())
	require.Equal(t, "node.n", res.Groups[1].Element.ID())
	require.Equal(t, "a", res.Groups[2].Constraint.Str())
	require.True(t, res.Groups[3].Constraint.IsFalse())
	require.True(t, res.Groups[4].Implies)
	require.Equal(t, "node.n", res.Groups[4].Element.ID())
	require.Equal(t, 4, res.UnsatGroup, "the false constraint")
	seen := map[int]bool{}
	for _, cg := range res.ClauseGroups {
		require.GreaterOrEqual(t, cg, 0)
		require.LessOrEqual(t, cg, len(res.Groups))
		seen[cg] = true
	}
	// The required element variables and the constraint a and the
	// implication each leave a clause of their group.
	for _, gr := range []int{1, 2, 3, 5} {
		require.True(t, seen[gr], "group %d", gr)
	}

	// Without Options.Groups nothing is tracked.
	res, err = Encode(build(t, src), evaluator(g), Options{})
	require.NoError(t, err)
	require.True(t, res.Unsat)
	require.Empty(t, res.Groups)
	require.Empty(t, res.ClauseGroups)
}

// TestEncodeSharedIDRules: ids that may not be unique (a name with an @)
// are plain named variables; names still read back.
func TestEncodeSharedIDRules(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
  node_templates:
    a@1: {type: t, conditions: {node_presence: b}}
    b: {type: t, conditions: c}
`
	g := build(t, src)
	res, err := Encode(g, evaluator(g), Options{})
	require.NoError(t, err)
	names := res.Names()
	for i, e := range g.Elements {
		require.Equal(t, e.ID(), names[res.ElementVars[i]])
	}
	require.Equal(t, []string{"node.a@1", "node.b"}, []string{names[res.NodeVars[0]], names[res.NodeVars[1]]})
	require.False(t, sat(t, res, map[string]bool{"node.a@1": true, "c": false}))
	require.True(t, sat(t, res, map[string]bool{"node.a@1": true, "c": true}))
}

// TestBuilderRules: the builder operations the optimiser uses directly.
func TestBuilderRules(t *testing.T) {
	b := NewBuilder()
	x, y := b.Var("x"), b.Var("y")
	require.Equal(t, x, b.Var("x"))
	l, ok := b.Lookup("y")
	require.True(t, ok)
	require.Equal(t, y, l)
	_, ok = b.Lookup("z")
	require.False(t, ok)
	// Constants fold.
	require.Equal(t, x, b.Equiv(x, True))
	require.Equal(t, Not(x), b.Equiv(x, False))
	e := b.Equiv(x, y)
	require.False(t, e.IsConst())
	b.Require(e)
	b.Require(x)
	clauses := b.Clauses()
	require.False(t, satisfiable(append(clauses, []int{int(-y)}), b.NumVars(), nil), "x ⇔ y and x force y")
	require.True(t, satisfiable(clauses, b.NumVars(), nil))
	// Materialize turns a constant into a variable fixed by a unit clause.
	tl := b.Materialize(True)
	fl := b.Materialize(False)
	require.False(t, tl.IsConst())
	require.Equal(t, Not(tl), fl)
	require.Equal(t, x, b.Materialize(x))
	require.False(t, satisfiable(append(b.Clauses(), []int{int(-tl)}), b.NumVars(), nil))
	// RequireEquiv of two constants that differ makes the problem unsat.
	require.False(t, b.Unsat())
	b.SetGroup(7)
	b.RequireEquiv(True, False)
	require.True(t, b.Unsat())
	require.Equal(t, 7, b.UnsatGroup())
}

// TestDPLLHelper: the test's own search agrees with brute force, so that
// the semantic checks above can fail.
func TestDPLLHelper(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 300 {
		n := 1 + r.Intn(8)
		var clauses [][]int
		for c := r.Intn(12); c > 0; c-- {
			var cl []int
			for k := r.Intn(4); k >= 0; k-- {
				l := 1 + r.Intn(n)
				if r.Intn(2) == 0 {
					l = -l
				}
				cl = append(cl, l)
			}
			clauses = append(clauses, cl)
		}
		require.Equal(t, satisfiable(clauses, n, nil), dpll(clauses, make([]int8, n+1)), "%v", clauses)
	}
}

// TestTaggedIDTerms: a constraint that names elements by their id values
// (graph.Element.IDValue, ManualIDValue, as enrichment's generated ones
// do, found through their tags) encodes to the same formula as one that
// spells the same names, which the encoder looks up, in a template whose
// element ids are unique (a lazy block of element variables) and in one
// where they are not; and a tagged value whose element sits elsewhere in
// the encoded graph is looked up by its name.
func TestTaggedIDTerms(t *testing.T) {
	withVariability := strings.Replace(nodes, "topology_template:\n", "topology_template:\n  variability: {constraints: []}\n", 1)
	for _, src := range []string{
		withVariability,
		// Two properties of one name: their ids are equal.
		withVariability + "      properties:\n        - p: 1\n        - p: 2\n",
	} {
		g := build(t, src)
		n, m := g.NodeByName("n"), g.NodeByName("m")
		other := build(t, strings.Replace(src, "    n: {type: t}\n", "    o: {type: t}\n    n: {type: t}\n", 1))
		constraints := func(n, m *graph.Element, tagged bool) []*yamlsrc.Value {
			id, manual := n.IDValue(), m.ManualIDValue()
			if !tagged {
				id, manual = yamlsrc.NewString(n.ID()), yamlsrc.NewString(m.ManualID())
			}
			return []*yamlsrc.Value{
				yamlsrc.MapOf("implies", yamlsrc.NewList(id, manual)),
				yamlsrc.MapOf("or", yamlsrc.NewList(yamlsrc.MapOf("not", id), yamlsrc.NewString("-"+n.ID()))),
			}
		}
		encodeWith := func(g *graph.Graph, cs []*yamlsrc.Value) ([][]int, []string) {
			v := g.Variability()
			require.NotNil(t, v.Map(), "the template has a variability map")
			v.Map().Set("constraints", yamlsrc.NewList(cs...))
			res, err := Encode(g, nil, Options{})
			require.NoError(t, err)
			return res.Builder().Clauses(), res.Names()
		}
		spelt, speltNames := encodeWith(g, constraints(n, m, false))
		got, gotNames := encodeWith(g, constraints(n, m, true))
		require.Equal(t, spelt, got)
		require.Equal(t, speltNames, gotNames)
		// other has an element before n, so n's tag names another one.
		on, om := other.NodeByName("n"), other.NodeByName("m")
		spelt, speltNames = encodeWith(other, constraints(on, om, false))
		got, gotNames = encodeWith(other, constraints(n, m, true))
		require.Equal(t, spelt, got)
		require.Equal(t, speltNames, gotNames)
	}
}
