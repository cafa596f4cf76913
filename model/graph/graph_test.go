package graph

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

const sample = `tosca_definitions_version: tosca_variability_1_0
topology_template:
  inputs:
    in1: {type: string}
  node_templates:
    app:
      type: app
      properties:
        p: 1
      requirements:
        - host: vm
        - conn:
            node: vm
            relationship: r
      artifacts:
        a: ./file
    vm:
      type: [{vm: {}}, {other: {conditions: false}}]
      properties:
        - p: {value: 1}
        - q: 2
        - p: {value: 3, conditions: false}
  relationship_templates:
    r:
      type: rt
      properties:
        x: 5
  policies:
    - pol:
        type: pt
        targets: [vm]
  groups:
    grp:
      type: gt
      members: [app, [app, 0]]
  outputs:
    o: {value: 1}
imports:
  - a.yaml
`

func TestIDsAndDisplays(t *testing.T) {
	g, err := Build(doc(t, sample), "t.yaml")
	require.NoError(t, err)
	ids := make([]string, len(g.Elements))
	for i, e := range g.Elements {
		ids[i] = e.ID()
	}
	require.Equal(t, []string{
		"type.app@0.node.app", "type.rt@0.relation.conn@1.node.app", "type.tosca.artifacts.File@0.artifact.a@0.node.app",
		"type.vm@0.node.vm", "type.other@1.node.vm", "type.gt@0.group.grp", "type.pt@0.policy.pol@0",
		"node.app", "node.vm",
		"relation.host@0.node.app", "relation.conn@1.node.app",
		// fallbacks follow each container's own properties
		"property.p@0.node.app", "property.p@1.node.app",
		"property.x@0.relation.conn@1.node.app", "property.x@1.relation.conn@1.node.app",
		"property.p@0.node.vm", "property.q@1.node.vm", "property.p@2.node.vm", "property.p@3.node.vm", "property.q@4.node.vm",
		"policy.pol@0", "group.grp", "input.in1@0", "artifact.a@0.node.app", "import.0@0", "output.o@0",
	}, ids)
	vm := g.NodeByName("vm")
	require.Equal(t, `Property "p@3" of node "vm"`, vm.Properties[3].DisplayUpper())
	require.Equal(t, `Type "tosca.artifacts.File@0" of artifact "a@0" of node "app"`, g.Artifacts[0].Types[0].DisplayUpper())
	require.Equal(t, []*Element{g.NodeByName("app"), g.Relations[0]}, g.GroupByName("grp").Members)
	// The false default of the second type is the type's own condition.
	require.Equal(t, 1, len(vm.Types[1].Conditions))

	// A node's name value is made once, any other element's each time.
	require.Same(t, vm.NameValue(), vm.NameValue())
	require.Equal(t, "vm", vm.NameValue().Str())
	grp := g.GroupByName("grp")
	require.NotSame(t, grp.NameValue(), grp.NameValue())
	require.Equal(t, "grp", grp.NameValue().Str())
}

func TestIsHostedOn(t *testing.T) {
	for name, want := range map[string]bool{
		"host": true, "my_host": true, "host_2": true, "a_host_b": true,
		"hosts": false, "ghost": false, "hostname": false, "x_hostb": false, "_host": true,
	} {
		e := &Element{Name: name}
		require.Equal(t, want, e.IsHostedOn(), name)
	}
}

func TestPopulatorErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"version", "tosca_definitions_version: tosca_2_0\n", "Unsupported TOSCA definitions version"},
		{"self", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    SELF: {type: a}\n", `Node must not be named "SELF"`},
		{"no type", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {properties: {p: 1}}\n", "Unexpected error"},
		{"target", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: a, requirements: [{host: b}]}\n", `Target "b" of relation "host@0" of node "a" does not exist`},
		// The target is read with the requirement, checked once every
		// node is known: a number names no node even where one has that
		// name, a list (which the reference reads on) names none.
		{"target a number", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    \"5\": {type: a}\n    a: {type: a, requirements: [{host: {node: 5}}]}\n", `Target "5" of relation "host@0" of node "a" does not exist`},
		{"target in a list", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: a, requirements: [{host: [a]}]}\n", `Target "undefined" of relation "host@0" of node "a" does not exist`},
		{"target after", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: a, requirements: [{host: b}, {db: c}]}\n    b: {type: b}\n", `Target "c" of relation "db@1" of node "a" does not exist`},
		{"multiple defaults", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a:\n      type: a\n      properties:\n        - p: {value: 1, default_alternative: true}\n        - p: {value: 2, default_alternative: true}\n", `Property "p@0" of node "a" has multiple defaults`},
		{"never used", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: a}\n  relationship_templates:\n    r: {type: t}\n", `Relation "r" is never used`},
		{"persistent", "tosca_definitions_version: tosca_variability_1_0_rc_2\ntopology_template:\n  node_templates:\n    a: {type: a}\n", `Node default condition mode "incoming(naive)-host" requires at least one persistent node template`},
		{"weight", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    n: {type: a, weight: true}\n", `Weight "true" of node "n" is not a number or boolean`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(doc(t, tc.src), "t.yaml")
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestNameGroups: elements grouped by name in order of first appearance,
// below and above smallGroups; a group's capacity is its length, so that
// appending to one never writes into the next.
func TestNameGroups(t *testing.T) {
	for _, names := range []string{"", "a", "a b a c b a", "a a a", "a b c d e f g h", "a b c d e f g h a", "x y x y x y x y x y z"} {
		var elems []*Element
		want := map[string][]int{}
		var order []string
		for i, n := range strings.Fields(names) {
			elems = append(elems, &Element{Name: n, Index: int32(i)})
			if _, ok := want[n]; !ok {
				order = append(order, n)
			}
			want[n] = append(want[n], i)
		}
		groups := NameGroups(elems)
		require.Len(t, groups, len(order), names)
		for g, name := range order {
			var got []int
			for _, e := range groups[g] {
				require.Equal(t, name, e.Name, names)
				got = append(got, int(e.Index))
			}
			require.Equal(t, want[name], got, "%q: group %s", names, name)
			if len(elems) <= smallGroups {
				require.Equal(t, len(groups[g]), cap(groups[g]), "%q: group %s", names, name)
			}
		}
	}
}

// TestNameGrouper: one grouper over lists of several sizes, in turn, gives
// what NameGroups gives for each, and once its storage is large enough
// allocates nothing for a short list.
func TestNameGrouper(t *testing.T) {
	list := func(names string) []*Element {
		var elems []*Element
		for i, n := range strings.Fields(names) {
			elems = append(elems, &Element{Name: n, Index: int32(i)})
		}
		return elems
	}
	var ng NameGrouper
	many := func(n, distinct int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "n%d ", (i*7)%distinct)
		}
		return b.String()
	}
	for _, names := range []string{"a b a c b a", "", "a", "x y x y x y x y x y z", "a a a", "a b c d e f g h", "p q p",
		many(12, 5), many(40, 40), many(9, 9), many(30, 3), "a b a", many(11, 11)} {
		elems := list(names)
		want := NameGroups(elems)
		got := ng.Groups(elems)
		require.Equal(t, want, got, "%q", names)
		for g := range got {
			if len(elems) <= smallGroups {
				require.Equal(t, len(got[g]), cap(got[g]), "%q: group %d", names, g)
			}
		}
	}
	short := list("a b a c")
	ng.Groups(list("a b c d e f g h"))
	require.Zero(t, testing.AllocsPerRun(10, func() { ng.Groups(short) }), "storage reused")
	// Lists longer than smallGroups reuse the map and arrays too.
	long := list(many(16, 10))
	ng.Groups(list(many(20, 20)))
	require.Zero(t, testing.AllocsPerRun(10, func() { ng.Groups(long) }), "storage of long lists reused")
}

// TestKeySet: each key of the set has its own member, other keys none, and
// an element's set is its map's keys at the build, a null value included.
func TestKeySet(t *testing.T) {
	names := []string{"implies", "implied", "default_condition_mode", "default_condition",
		"default_consistency_condition", "default_semantic_condition", "pruning",
		"consistency_pruning", "semantic_pruning", "persistent", "default_alternative"}
	var all KeySet
	for _, k := range names {
		m := KeyOf(k)
		require.Equal(t, 1, bits.OnesCount16(uint16(m)), k)
		require.Zero(t, all&m, "%s shares a member", k)
		all |= m
	}
	require.Equal(t, all, KeysOf(names...))
	require.Zero(t, KeyOf("conditions"))
	require.Zero(t, KeyOf("Implies"))
	require.Zero(t, keysOf(yamlsrc.NewString("implies")))
	g, err := Build(doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    n: {type: a, pruning: null, persistent: true, properties: [p: {value: 1, implied: false}]}\n"), "t.yaml")
	require.NoError(t, err)
	require.Equal(t, KeyPruning|KeyPersistent, g.NodeByName("n").Keys)
	require.Equal(t, KeyImplied, g.NodeByName("n").Properties[0].Keys)
}

// TestBuildWithArrays builds graphs through one Arrays, as a batch
// worker's runs do, with a Reset before each: a graph built in the arrays
// of another template's graph has the elements, ids and lists of a fresh
// build.
func TestBuildWithArrays(t *testing.T) {
	summary := func(g *Graph) []string {
		var out []string
		for _, e := range g.Elements {
			line := fmt.Sprintf("%s conditions=%d", e.ID(), len(e.Conditions))
			if e.TemplateParts != nil {
				line += fmt.Sprintf(" types=%d properties=%d", len(e.Types), len(e.Properties))
			}
			if e.NodeLinks != nil {
				line += fmt.Sprintf(" outgoing=%d", len(e.Outgoing))
			}
			out = append(out, line)
		}
		return out
	}
	small := "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    one: {type: t, conditions: true}\n"
	var arrays Arrays
	for _, text := range []string{sample, small, sample, sample} {
		fresh, err := Build(doc(t, text), "t.yaml")
		require.NoError(t, err)
		arrays.Reset()
		g, err := BuildWith(doc(t, text), "t.yaml", BuildOptions{Arrays: &arrays})
		require.NoError(t, err)
		require.Equal(t, summary(fresh), summary(g))
	}
	require.NotZero(t, arrays.elements.Held(), "the builds took their elements from the arrays")
}

// TestUniqueIDs: an id reads back unambiguously unless a name holds an "@",
// or a "." where no index follows but a container id does; the graph knows
// from its build whether any element's does.
func TestUniqueIDs(t *testing.T) {
	for _, tc := range []struct {
		name         string
		index        int
		hasContainer bool
		want         bool
	}{
		{"x", -1, false, false},
		{"p", -1, true, false},
		{"y.node.x", -1, false, false},       // a dotted node name
		{"tosca.nodes.Root", 0, true, false}, // a dotted type with an index
		{"p.node.y", -1, true, true},         // property.p.node.y.node.x: p.node.y of x or p of y.node.x
		{"a@0", -1, false, true},             // an at sign
		{"t@1", 2, true, true},
	} {
		require.Equal(t, tc.want, AmbiguousID(tc.name, tc.index, tc.hasContainer), "%s %d %v", tc.name, tc.index, tc.hasContainer)
	}
	for src, want := range map[string]bool{
		"  node_templates:\n    a: {type: t, properties: {p: 1}}\n":   true,
		"  node_templates:\n    a@0: {type: t}\n":                     false,
		"  node_templates:\n    y.node.x: {type: tosca.nodes.Root}\n": true,
	} {
		g, err := Build(doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n"+src), "t.yaml")
		require.NoError(t, err, src)
		require.Equal(t, want, g.UniqueIDs(), src)
	}
}

// TestAnyKeys: the graph's union of its elements' keys.
func TestAnyKeys(t *testing.T) {
	g, err := Build(doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: t}\n    b: {type: t, pruning: true, properties: [p: {value: 1, implied: false}]}\n"), "t.yaml")
	require.NoError(t, err)
	var union KeySet
	for _, e := range g.Elements {
		union |= e.Keys
	}
	require.Equal(t, union, g.AnyKeys())
	require.NotZero(t, g.AnyKeys()&KeyImplied)
	g, err = Build(doc(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: t}\n"), "t.yaml")
	require.NoError(t, err)
	require.Zero(t, g.AnyKeys())
}

// An element's manual name is "manual." and its id, whichever is asked
// for first: asked first, the manual name carries the id in its tail.
func TestManualIDOrder(t *testing.T) {
	build := func() *Graph {
		d, err := yamlsrc.Parse([]byte(sample), "t.yaml")
		require.NoError(t, err)
		g, err := Build(d, "t.yaml")
		require.NoError(t, err)
		return g
	}
	idFirst, manualFirst := build(), build()
	require.NotEmpty(t, idFirst.Elements)
	for i, e := range idFirst.Elements {
		id := e.ID()
		require.Equal(t, "manual."+id, e.ManualID())
		m := manualFirst.Elements[i]
		require.Equal(t, "manual."+id, m.ManualID())
		require.Equal(t, id, m.ID())
	}
}
