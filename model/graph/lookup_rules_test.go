package graph

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// Spec variability.md §8.5: reference arguments, lookups by name and by
// index, and the lookup errors as the reference words them.

// lookupFixture has a name used twice in every list that can hold
// duplicates, so that both the by-name and the ambiguous paths are reached.
// bratans_unknown keeps fallback properties out (§3.4.3), so that property
// names are unique where the fixture writes them once.
const lookupFixture = `tosca_definitions_version: tosca_variability_1_0
imports:
  - a.yaml
  - b.yaml
topology_template:
  variability:
    options: {bratans_unknown: true}
  inputs:
    - i1: {type: string}
    - i2: {type: string}
    - i2: {type: string}
  outputs:
    - o1: {value: 1}
    - o2: {value: 2}
    - o2: {value: 3}
  node_templates:
    app:
      type: [{app: {}}, {app2: {}}]
      properties:
        - p: 1
        - p: 2
        - q: 3
      requirements:
        - host: vm
        - conn: {node: vm, relationship: r}
        - conn: db
      artifacts:
        - a: {file: f, properties: {ap: 1}}
        - a: g
        - b: h
      technology: [{ansible: {}}, {terraform: {}}, {Ansible: {}}]
    vm:
      type: vm
    db:
      type: db
  relationship_templates:
    r: {type: rt, properties: {x: 1}}
  groups:
    grp: {type: gt, members: [app, [app, 0]], properties: {gp: 1}}
  policies:
    - pol: {type: pt, targets: [vm, grp], properties: {pp: 1}}
    - pol: {type: pt}
    - other: {type: pt2}
`

// yv parses a YAML snippet into a value ("" is a missing value).
func yv(t *testing.T, src string) *Value {
	t.Helper()
	if src == "" {
		return nil
	}
	v, err := yamlsrc.Parse([]byte(src), "arg.yaml")
	require.NoError(t, err)
	return v
}

// byID finds an element of g by its id.
func byID(t *testing.T, g *Graph, id string) *Element {
	t.Helper()
	for _, e := range g.Elements {
		if e.ID() == id {
			return e
		}
	}
	require.Failf(t, "no element", "no element %s", id)
	return nil
}

// lookupCase is a lookup of variability.md §8.5 on lookupFixture: an
// element found by id, or an error.
type lookupCase struct {
	name string
	get  lookupFunc
	arg  string // YAML
	ctx  string // id of the context element, "" for none
	want string // id of the element found
	err  string
}

type lookupFunc func(g *Graph, arg *Value, ctx Context) (*Element, error)

// runLookups runs each case on a graph of lookupFixture.
func runLookups(t *testing.T, tests []lookupCase) {
	g, err := Build(doc(t, lookupFixture), "t.yaml")
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ctx Context
			if tc.ctx != "" {
				ctx.Element = byID(t, g, tc.ctx)
			}
			e, err := tc.get(g, yv(t, tc.arg), ctx)
			if tc.err != "" {
				require.EqualError(t, err, tc.err, "lookup of %s", tc.arg)
				return
			}
			require.NoError(t, err, "lookup of %s", tc.arg)
			require.Equal(t, tc.want, e.ID(), "lookup of %s", tc.arg)
		})
	}
}

func TestLookupRules(t *testing.T) {
	node := (*Graph).GetNode
	relation := (*Graph).GetRelation
	group := (*Graph).GetGroup
	policy := (*Graph).GetPolicy
	artifact := (*Graph).GetArtifact
	imp := (*Graph).GetImport
	input := (*Graph).GetInput
	output := (*Graph).GetOutput
	technology := (*Graph).GetTechnology
	runLookups(t, []lookupCase{
		// Nodes.
		{name: "node by name", get: node, arg: "app", want: "node.app"},
		{name: "node SELF", get: node, arg: "SELF", ctx: "node.vm", want: "node.vm"},
		{name: "node CONTAINER of a property", get: node, arg: "CONTAINER", ctx: "property.q@2.node.app", want: "node.app"},
		{name: "node TARGET of a relation", get: node, arg: "TARGET", ctx: "relation.conn@2.node.app", want: "node.db"},
		{name: "node SOURCE of a relation", get: node, arg: "SOURCE", ctx: "relation.conn@2.node.app", want: "node.app"},
		{name: "node SELF of a relation", get: node, arg: "SELF", ctx: "relation.host@0.node.app", err: `Relation "host@0" of node "app" is not a node`},
		{name: "node SELF without context", get: node, arg: "SELF", err: "Element not defined"},
		{name: "node CONTAINER of a node", get: node, arg: "CONTAINER", ctx: "node.app", err: `Node "app" has no container`},
		{name: "node TARGET of a node", get: node, arg: "TARGET", ctx: "node.app", err: `Node "app" is not a relation`},
		{name: "node TARGET without context", get: node, arg: "TARGET", err: "Element not defined"},
		{name: "node unknown", get: node, arg: "nope", err: `Node "nope" not found`},
		{name: "node number", get: node, arg: "5", err: `Element "5" is not a string`},
		{name: "node missing", get: node, arg: "", err: `Element "undefined" is not a string`},

		// Relations: [node, name or index], SELF, CONTAINER.
		{name: "relation by name", get: relation, arg: "[app, host]", want: "relation.host@0.node.app"},
		{name: "relation by index", get: relation, arg: "[app, 2]", want: "relation.conn@2.node.app"},
		{name: "relation node SELF", get: relation, arg: "[SELF, 1]", ctx: "node.app", want: "relation.conn@1.node.app"},
		{name: "relation SELF", get: relation, arg: "SELF", ctx: "relation.conn@1.node.app", want: "relation.conn@1.node.app"},
		{name: "relation CONTAINER of a relation property", get: relation, arg: "CONTAINER", ctx: "property.x@0.relation.conn@1.node.app", want: "relation.conn@1.node.app"},
		{name: "relation SELF of a node", get: relation, arg: "SELF", ctx: "node.app", err: `Node "app" is not a relation`},
		{name: "relation ambiguous", get: relation, arg: "[app, conn]", err: "Relation \"[\n    \"app\",\n    \"conn\"\n]\" is ambiguous"},
		{name: "relation unknown name", get: relation, arg: "[app, db]", err: "Relation \"[\n    \"app\",\n    \"db\"\n]\" not found"},
		{name: "relation index out of range", get: relation, arg: "[app, 3]", err: "Relation \"[\n    \"app\",\n    3\n]\" not found"},
		{name: "relation fractional index", get: relation, arg: "[app, 0.5]", err: "Relation \"[\n    \"app\",\n    0.5\n]\" not found"},
		{name: "relation not a list", get: relation, arg: "app", err: `Element ""app"" is not an array`},
		{name: "relation node not a string", get: relation, arg: "[1, 0]", err: `Element "1" is not a string`},
		{name: "relation name a boolean", get: relation, arg: "[app, true]", err: `Element "true" is neither a string nor a number`},

		// Groups.
		{name: "group by name", get: group, arg: "grp", want: "group.grp"},
		{name: "group CONTAINER of a group property", get: group, arg: "CONTAINER", ctx: "property.gp@0.group.grp", want: "group.grp"},
		{name: "group SELF of a node", get: group, arg: "SELF", ctx: "node.app", err: `Node "app" is not a group`},
		{name: "group unknown", get: group, arg: "nope", err: `Group "nope" not found`},
		{name: "group by index", get: group, arg: "0", err: `Element "0" is not a string`},

		// Policies: name or index.
		{name: "policy by name", get: policy, arg: "other", want: "policy.other@2"},
		{name: "policy by index", get: policy, arg: "1", want: "policy.pol@1"},
		{name: "policy SELF", get: policy, arg: "SELF", ctx: "policy.pol@0", want: "policy.pol@0"},
		{name: "policy ambiguous", get: policy, arg: "pol", err: `Policy "pol" is ambiguous`},
		{name: "policy unknown", get: policy, arg: "nope", err: `Policy "nope" not found`},
		{name: "policy index out of range", get: policy, arg: "3", err: `Policy "3" not found`},
		{name: "policy negative index", get: policy, arg: "-1", err: `Policy "-1" not found`},
		{name: "policy boolean", get: policy, arg: "true", err: `Element "true" is neither a string nor a number`},

		// Artifacts: the node part ignores the context (§8.5).
		{name: "artifact by name", get: artifact, arg: "[app, b]", want: "artifact.b@2.node.app"},
		{name: "artifact by index", get: artifact, arg: "[app, 1]", want: "artifact.a@1.node.app"},
		{name: "artifact SELF", get: artifact, arg: "SELF", ctx: "artifact.b@2.node.app", want: "artifact.b@2.node.app"},
		{name: "artifact CONTAINER of an artifact property", get: artifact, arg: "CONTAINER", ctx: "property.ap@0.artifact.a@0.node.app", want: "artifact.a@0.node.app"},
		{name: "artifact node SELF", get: artifact, arg: "[SELF, 0]", ctx: "node.app", err: "Element not defined"},
		{name: "artifact ambiguous", get: artifact, arg: "[app, a]", err: "Artifact \"[\n    \"app\",\n    \"a\"\n]\" is ambiguous"},
		{name: "artifact unknown", get: artifact, arg: "[vm, a]", err: "Artifact \"[\n    \"vm\",\n    \"a\"\n]\" not found"},
		{name: "artifact index out of range", get: artifact, arg: "[app, 3]", err: "Artifact \"[\n    \"app\",\n    3\n]\" not found"},
		// A string is indexed by character, as JavaScript does.
		{name: "artifact a string", get: artifact, arg: "vm", err: `Node "v" not found`},
		{name: "artifact name a list", get: artifact, arg: "[app, [0]]", err: `Element "[0]" is neither a string nor a number`},

		// Imports: an index only.
		{name: "import by index", get: imp, arg: "1", want: "import.1@1"},
		{name: "import SELF", get: imp, arg: "SELF", ctx: "import.0@0", want: "import.0@0"},
		{name: "import SELF of a node", get: imp, arg: "SELF", ctx: "node.app", err: `Node "app" is not a import`},
		{name: "import by name", get: imp, arg: "a.yaml", err: `Element ""a.yaml"" is not a number`},
		{name: "import out of range", get: imp, arg: "2", err: `Import "2" not found`},

		// Inputs and outputs: name or index.
		{name: "input by name", get: input, arg: "i1", want: "input.i1@0"},
		{name: "input by index", get: input, arg: "2", want: "input.i2@2"},
		{name: "input SELF", get: input, arg: "SELF", ctx: "input.i2@1", want: "input.i2@1"},
		{name: "input SELF of a node", get: input, arg: "SELF", ctx: "node.app", err: `Node "app" is not a input`},
		{name: "input ambiguous", get: input, arg: "i2", err: `Input "i2" is ambiguous`},
		{name: "input unknown", get: input, arg: "i9", err: `Input "i9" not found`},
		{name: "input out of range", get: input, arg: "3", err: `Input "3" not found`},
		{name: "input a list", get: input, arg: "[i1]", err: `Element "["i1"]" is neither a string nor a number`},
		{name: "output by name", get: output, arg: "o1", want: "output.o1@0"},
		{name: "output by index", get: output, arg: "1", want: "output.o2@1"},
		{name: "output SELF of a node", get: output, arg: "SELF", ctx: "node.app", err: `Node "app" is not an output`},
		{name: "output ambiguous", get: output, arg: "o2", err: `Output "o2" is ambiguous`},
		{name: "output unknown", get: output, arg: "o9", err: `Output "o9" not found`},

		// Technologies: [node, name or index]; names are lower-cased by the
		// normaliser (§3.2), so "Ansible" makes "ansible" ambiguous.
		{name: "technology by name", get: technology, arg: "[app, terraform]", want: "technology.terraform@1.node.app"},
		{name: "technology by index", get: technology, arg: "[app, 2]", want: "technology.ansible@2.node.app"},
		{name: "technology node SELF", get: technology, arg: "[SELF, 0]", ctx: "node.app", want: "technology.ansible@0.node.app"},
		{name: "technology ambiguous", get: technology, arg: "[app, ansible]", err: "Technology \"[\n    \"app\",\n    \"ansible\"\n]\" is ambiguous"},
		// Quirk: the closing quote is missing (§8.5).
		{name: "technology unknown", get: technology, arg: "[app, puppet]", err: "Technology \"[\n    \"app\",\n    \"puppet\"\n] not found"},
		{name: "technology not a list", get: technology, arg: "app", err: `Element ""app"" is not an array`},
		{name: "technology node a number", get: technology, arg: "[0, 0]", err: `Element "0" is not a string`},
		{name: "technology name a map", get: technology, arg: "[app, {a: 1}]", err: `Element "{"a":1}" is neither a string nor a number`},
	})
}

// TestLookupPropertyTypeRules looks properties and types up in each kind
// of container.
func TestLookupPropertyTypeRules(t *testing.T) {
	property := func(k PropertyKind) lookupFunc {
		return func(g *Graph, arg *Value, ctx Context) (*Element, error) { return g.GetProperty(k, arg, ctx) }
	}
	typ := func(k PropertyKind) lookupFunc {
		return func(g *Graph, arg *Value, ctx Context) (*Element, error) { return g.GetType(k, arg, ctx) }
	}
	runLookups(t, []lookupCase{
		// Properties of each container kind.
		{name: "node property by name", get: property(RefNode), arg: "[app, q]", want: "property.q@2.node.app"},
		{name: "node property by index", get: property(RefNode), arg: "[app, 1]", want: "property.p@1.node.app"},
		{name: "node property SELF", get: property(RefNode), arg: "[SELF, q]", ctx: "node.app", want: "property.q@2.node.app"},
		{name: "node property ambiguous", get: property(RefNode), arg: "[app, p]", err: "Property \"[\n    \"app\",\n    \"p\"\n]\" is ambiguous"},
		{name: "node property unknown", get: property(RefNode), arg: "[app, z]", err: "Property \"[\n    \"app\",\n    \"z\"\n]\" not found"},
		{name: "node property out of range", get: property(RefNode), arg: "[app, 3]", err: "Property \"[\n    \"app\",\n    3\n]\" not found"},
		{name: "node property name a boolean", get: property(RefNode), arg: "[app, true]", err: `Element "true" is neither a string nor a number`},
		{name: "node property node a number", get: property(RefNode), arg: "[1, p]", err: `Element "1" is not a string`},
		{name: "relation property", get: property(RefRelation), arg: "[app, 1, x]", want: "property.x@0.relation.conn@1.node.app"},
		{name: "relation property by names", get: property(RefRelation), arg: "[app, conn, x]", err: "Relation \"[\n    \"app\",\n    \"conn\"\n]\" is ambiguous"},
		{name: "relation property without property", get: property(RefRelation), arg: "[app, 1]", err: `Element "undefined" is neither a string nor a number`},
		{name: "group property", get: property(RefGroup), arg: "[grp, gp]", want: "property.gp@0.group.grp"},
		{name: "group property group a number", get: property(RefGroup), arg: "[0, gp]", err: `Element "0" is not a string`},
		{name: "policy property by policy index", get: property(RefPolicy), arg: "[0, pp]", want: "property.pp@0.policy.pol@0"},
		{name: "policy property ambiguous policy", get: property(RefPolicy), arg: "[pol, pp]", err: `Policy "pol" is ambiguous`},
		{name: "artifact property", get: property(RefArtifact), arg: "[app, 0, ap]", want: "property.ap@0.artifact.a@0.node.app"},
		{name: "artifact property by index", get: property(RefArtifact), arg: "[app, 0, 0]", want: "property.ap@0.artifact.a@0.node.app"},
		{name: "artifact property ambiguous artifact", get: property(RefArtifact), arg: "[app, a, ap]", err: "Artifact \"[\n    \"app\",\n    \"a\"\n]\" is ambiguous"},

		// Types of each container kind.
		{name: "node type by name", get: typ(RefNode), arg: "[app, app2]", want: "type.app2@1.node.app"},
		{name: "node type by index", get: typ(RefNode), arg: "[app, 0]", want: "type.app@0.node.app"},
		{name: "node type unknown", get: typ(RefNode), arg: "[app, vm]", err: "Type \"[\n    \"app\",\n    \"vm\"\n]\" not found"},
		{name: "relation type", get: typ(RefRelation), arg: "[app, 1, rt]", want: "type.rt@0.relation.conn@1.node.app"},
		{name: "group type", get: typ(RefGroup), arg: "[grp, 0]", want: "type.gt@0.group.grp"},
		{name: "policy type by policy name", get: typ(RefPolicy), arg: "[other, pt2]", want: "type.pt2@0.policy.other@2"},
		// A policy type reference takes the policy by name only.
		{name: "policy type by policy index", get: typ(RefPolicy), arg: "[0, pt]", err: `Element "0" is not a string`},
		{name: "artifact type", get: typ(RefArtifact), arg: "[app, b, 0]", want: "type.tosca.artifacts.File@0.artifact.b@2.node.app"},
		{name: "artifact type name", get: typ(RefArtifact), arg: "[app, b, tosca.artifacts.File]", want: "type.tosca.artifacts.File@0.artifact.b@2.node.app"},
	})
}

func TestGetContainerRules(t *testing.T) {
	g, err := Build(doc(t, lookupFixture), "t.yaml")
	require.NoError(t, err)
	_, err = g.GetContainer(nil)
	require.EqualError(t, err, "Element is not defined")
	_, err = g.GetContainer(g.NodeByName("app"))
	require.EqualError(t, err, `Node "app" has no container`)
	c, err := g.GetContainer(byID(t, g, "type.tosca.artifacts.File@0.artifact.b@2.node.app"))
	require.NoError(t, err)
	require.Equal(t, "artifact.b@2.node.app", c.ID())
}

// TestNamedLookups: the by-name helpers give the same answer below and
// above the size where they switch to an index.
func TestNamedLookups(t *testing.T) {
	for _, n := range []int{3, 12} {
		src := "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    options: {bratans_unknown: true}\n  node_templates:\n    a:\n      type: t\n      properties:\n"
		for i := range n {
			name := "p"
			if i%3 == 1 {
				name = "q"
			}
			src += "        - " + name + ": " + itoa(i) + "\n"
		}
		g, err := Build(doc(t, src), "t.yaml")
		require.NoError(t, err)
		a := g.NodeByName("a")
		var ps, qs []int
		for _, p := range a.PropertiesNamed("p") {
			ps = append(ps, int(p.Index))
		}
		for _, q := range a.PropertiesNamed("q") {
			qs = append(qs, int(q.Index))
		}
		var wantP, wantQ []int
		for i := range n {
			if i%3 == 1 {
				wantQ = append(wantQ, i)
			} else {
				wantP = append(wantP, i)
			}
		}
		require.Equal(t, wantP, ps, "n=%d", n)
		require.Equal(t, wantQ, qs, "n=%d", n)
		require.Empty(t, a.PropertiesNamed("r"), "n=%d", n)
		// The index is built once; asking again gives the same answer.
		require.Len(t, a.PropertiesNamed("q"), len(wantQ), "n=%d", n)
		require.Len(t, a.TypesNamed("t"), 1)
		require.Empty(t, a.OutgoingNamed("host"))
		require.Empty(t, a.ArtifactsNamed("a"))
	}
}

// TestGetNodeByTag: a node's NameValue finds the node through its tag, and
// a tag is only a hint: a value whose tag names another node, no node, or
// that is no name value at all still finds the node by its name; a tagged
// value names the same node in another graph that has it elsewhere, and
// none in a graph without it.
func TestGetNodeByTag(t *testing.T) {
	g := buildRules(t, v1+"topology_template:\n  node_templates:\n    a: {type: t}\n    b: {type: t}\n    c: {type: t}\n")
	other := buildRules(t, v1+"topology_template:\n  node_templates:\n    c: {type: t}\n    a: {type: t}\n")
	none := buildRules(t, v1+"topology_template:\n  node_templates:\n    d: {type: t}\n")
	tagged := func(name string, tag uint64) *Value {
		v := yamlsrc.NewString(name)
		v.SetTag(tag)
		return v
	}
	b := g.NodeByName("b")
	require.Equal(t, uint64(2), b.NameValue().Tag(), "b is the second node")
	require.Zero(t, b.NameValue().Num(), "a tag is no number")
	for _, tc := range []struct {
		what string
		g    *Graph
		v    *Value
		want string // the node's name; "" for not found
	}{
		{"own tag", g, b.NameValue(), "b"},
		{"untagged", g, yamlsrc.NewString("c"), "c"},
		{"tag of another node", g, tagged("c", 1), "c"},
		{"tag past the nodes", g, tagged("a", 99), "a"},
		{"largest tag", g, tagged("a", ^uint64(0)), "a"},
		{"another graph", other, g.NodeByName("a").NameValue(), "a"},
		{"no such node", none, g.NodeByName("a").NameValue(), ""},
		{"tag of a node with another name", none, tagged("a", 1), ""},
	} {
		t.Run(tc.what, func(t *testing.T) {
			n, err := tc.g.GetNode(tc.v, Context{})
			if tc.want == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Same(t, tc.g.NodeByName(tc.want), n)
		})
	}
}

// TestElementOfID: an element's id and manual id values lead back to it
// through their tags, and only to an element with that id at the same
// position: a graph with the same elements, yes; one where they sit
// elsewhere, another kind of value or a tag that names past the elements,
// no.
func TestElementOfID(t *testing.T) {
	src := v1 + "topology_template:\n  node_templates:\n    a: {type: t}\n    b: {type: t}\n"
	g, same := buildRules(t, src), buildRules(t, src)
	moved := buildRules(t, v1+"topology_template:\n  node_templates:\n    b: {type: t}\n    a: {type: t}\n")
	a := g.NodeByName("a")
	tagged := func(s string, tag uint64) *Value {
		v := yamlsrc.NewString(s)
		v.SetTag(tag)
		return v
	}
	for _, tc := range []struct {
		what       string
		g          *Graph
		v          *Value
		want       string // the element's id; "" for none
		wantManual bool
	}{
		{"id value", g, a.IDValue(), a.ID(), false},
		{"manual id value", g, a.ManualIDValue(), a.ID(), true},
		{"same elements elsewhere built", same, a.IDValue(), a.ID(), false},
		{"manual, same elements", same, a.ManualIDValue(), a.ID(), true},
		{"element moved", moved, a.IDValue(), "", false},
		{"manual, element moved", moved, a.ManualIDValue(), "", false},
		{"untagged id", g, yamlsrc.NewString(a.ID()), "", false},
		{"id under the manual tag", g, tagged(a.ID(), a.ManualIDValue().Tag()), "", false},
		{"manual id under the plain tag", g, tagged(a.ManualID(), a.IDValue().Tag()), "", false},
		{"tag past the elements", g, tagged(a.ID(), 1000), "", false},
		{"manual bit alone", g, tagged(a.ManualID(), 1<<63), "", false},
		{"a number", g, yamlsrc.NewNumber(float64(a.Seq + 1)), "", false},
	} {
		t.Run(tc.what, func(t *testing.T) {
			e, manual, ok := tc.g.ElementOfID(tc.v)
			if tc.want == "" {
				require.False(t, ok)
				return
			}
			require.True(t, ok)
			require.Equal(t, tc.want, e.ID())
			require.Equal(t, tc.wantManual, manual)
			require.Same(t, tc.g.Elements[e.Seq], e)
		})
	}
}
