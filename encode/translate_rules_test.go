package encode

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/expr"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §8: element conditions, constraints, implies, the
// logic operators and the presence operators, checked as formulas. The
// recorder is a Backend that writes every formula as text, so that a test
// sees exactly what the translator asks of the SAT library.

// recorder records the requirements per group: an element's id, "implies
// <id>" for its implies list, or "constraint <n>".
type recorder struct {
	group       string
	constraints int
	reqs        map[string][]string
}

func newRecorder() *recorder { return &recorder{reqs: map[string][]string{}} }

func (r *recorder) True() string               { return "T" }
func (r *recorder) False() string              { return "F" }
func (r *recorder) Term(name string) string    { return name }
func (r *recorder) Element(e *Element) string  { return e.ID() }
func (r *recorder) Manual(e *Element) string   { return e.ManualID() }
func (r *recorder) Not(f string) string        { return "not(" + f + ")" }
func (r *recorder) And(fs ...string) string    { return "and(" + strings.Join(fs, ",") + ")" }
func (r *recorder) Or(fs ...string) string     { return "or(" + strings.Join(fs, ",") + ")" }
func (r *recorder) Xor(fs ...string) string    { return "xor(" + strings.Join(fs, ",") + ")" }
func (r *recorder) Exo(fs ...string) string    { return "exo(" + strings.Join(fs, ",") + ")" }
func (r *recorder) Amo(fs ...string) string    { return "amo(" + strings.Join(fs, ",") + ")" }
func (r *recorder) Implies(a, b string) string { return "implies(" + a + "," + b + ")" }
func (r *recorder) Require(f string)           { r.reqs[r.group] = append(r.reqs[r.group], "req "+f) }
func (r *recorder) RequireEquiv(a, b string)   { r.reqs[r.group] = append(r.reqs[r.group], a+" <=> "+b) }
func (r *recorder) Group(g Group) {
	switch {
	case g.Constraint != nil:
		r.group = "constraint " + strconv.Itoa(r.constraints)
		r.constraints++
	case g.Implies:
		r.group = "implies " + g.Element.ID()
	default:
		r.group = g.Element.ID()
	}
}

var _ Backend[string] = (*recorder)(nil)

// evaluator is the value-expression evaluator of the graph's document.
func evaluator(g *graph.Graph) *expr.Evaluator {
	vb := g.Variability()
	return expr.New(expr.Env{Expressions: vb.Get("expressions"), Inputs: vb.Get("inputs"), File: g.File})
}

// record translates src and returns the requirements per group.
func record(t *testing.T, src string) (map[string][]string, error) {
	t.Helper()
	g := build(t, src)
	r := newRecorder()
	err := Translate[string](g, evaluator(g), r)
	return r.reqs, err
}

// operatorFixture has every element kind; node x carries the condition of
// a case (%s). bratans_unknown keeps fallback properties out.
const operatorFixture = `tosca_definitions_version: tosca_variability_1_0
imports: [a.yaml]
topology_template:
  variability:
    options: {bratans_unknown: true}
    expressions:
      e1: {and: [a, b]}
      self: {node_presence: SELF}
      s: str
      bt: true
      num: 5
      date: 2023-01-01
    inputs:
      flag: {type: boolean, default: true}
  inputs:
    i1: {type: string}
  outputs:
    o1: {value: {get_property: [vm, c]}}
    o2: {value: 1}
  node_templates:
    app:
      type: [{app: {}}, {app2: {}}]
      properties: {q: 3}
      requirements:
        - host: vm
        - conn: {node: vm, relationship: r}
      artifacts:
        a: {file: f, properties: {ap: 1}}
        b: g
      technology: [{ansible: {}}, {terraform: {}}]
    vm:
      type: vm
      properties: {c: {get_input: i1}}
    x:
      type: t
      conditions: %s
  relationship_templates:
    r: {type: rt, properties: {rx: 1}}
  groups:
    grp: {type: gt, members: [app, [app, 0]], properties: {gp: 1}}
  policies:
    - pol: {type: pt, targets: [vm, grp], properties: {pp: 1}}
`

func withCondition(cond string) string {
	return strings.Replace(operatorFixture, "%s", cond, 1)
}

// single is what a single condition c that translates to f requires of
// node x (§8.2).
func single(f string) []string {
	return []string{"manual.node.x <=> and(" + f + ")", "node.x <=> " + f}
}

func TestOperatorRules(t *testing.T) {
	tests := []struct {
		name, cond string
		want       []string
		err        string
	}{
		// Terms (§8.1).
		{name: "term", cond: "a", want: single("a")},
		{name: "negated term", cond: "-a", want: single("not(a)")},
		{name: "double negation", cond: "--a", want: single("a")},
		{name: "generated constant", cond: "$T", want: single("T")},
		{name: "digits", cond: `"12"`, err: `"12" is not a Formula or Term`},
		{name: "dash", cond: `"-"`, err: `"-" is not a Formula or Term`},
		{name: "dollar name", cond: `"$x"`, err: "Only generated variable names can start with $"},

		// Constants and connectives (§8.4).
		{name: "true", cond: "true", want: []string{"manual.node.x <=> and(T)", "req node.x"}},
		{name: "false", cond: "false", want: []string{"manual.node.x <=> and(F)", "req not(node.x)"}},
		{name: "several conditions", cond: "[a, true]", want: []string{"manual.node.x <=> and(a,T)", "node.x <=> and(a,T)"}},
		{name: "and", cond: "{and: [a, b]}", want: single("and(a,b)")},
		{name: "empty and", cond: "{and: []}", want: single("and()")},
		{name: "or", cond: "{or: [a, {not: b}]}", want: single("or(a,not(b))")},
		{name: "not", cond: "{not: {not: a}}", want: single("not(not(a))")},
		{name: "xor", cond: "{xor: [a, b, c]}", want: single("xor(a,b,c)")},
		{name: "exo", cond: "{exo: [a]}", want: single("exo(a)")},
		{name: "amo", cond: "{amo: [a, b]}", want: single("amo(a,b)")},
		{name: "implies", cond: "{implies: [a, {or: [b]}]}", want: single("implies(a,or(b))")},
		{name: "implies without consequence", cond: "{implies: [a]}", err: "expected a condition, found nothing"},
		{name: "and of a map", cond: "{and: {a: b}}", err: "expected the operands of and as a list, found a map"},
		{name: "amo of a string", cond: "{amo: a}", err: "expected the operands of amo as a list, found a string"},
		{name: "null operand", cond: "{or: [a, null]}", err: "expected a condition, found null"},

		// Dispatch order: logic_expression, and, or, not, xor, exo,
		// implies, amo, then the presence operators; a null value counts
		// as absent; marker keys are ignored.
		{name: "and before or", cond: "{or: [a], and: [b]}", want: single("and(b)")},
		{name: "not before presence", cond: "{node_presence: app, not: a}", want: single("not(a)")},
		{name: "amo after implies", cond: "{amo: [a], implies: [b, c]}", want: single("implies(b,c)")},
		{name: "null value is absent", cond: "{and: null, or: [a]}", want: single("or(a)")},
		{name: "markers ignored", cond: "{_bratan: true, not: a}", want: single("not(a)")},

		// Named logic expressions: defined on first use, with the context
		// of that use.
		{name: "logic expression", cond: "[{logic_expression: e1}, {logic_expression: e1}]",
			want: []string{"expression.e1 <=> and(a,b)", "manual.node.x <=> and(expression.e1,expression.e1)", "node.x <=> and(expression.e1,expression.e1)"}},
		{name: "logic expression with SELF", cond: "{logic_expression: self}",
			want: []string{"expression.self <=> node.x", "manual.node.x <=> and(expression.self)", "node.x <=> expression.self"}},
		{name: "boolean logic expression", cond: "{logic_expression: bt}", want: single("T")},
		{name: "string logic expression", cond: "{logic_expression: s}", err: "Logic expression \"{\n    \"logic_expression\": \"s\"\n}\" must not be a string"},
		{name: "unknown logic expression", cond: "{logic_expression: nope}", err: `Did not find logic expression "nope"`},
		{name: "logic expression name a number", cond: "{logic_expression: 5}", err: `Element "5" is not a string`},
		{name: "numeric logic expression", cond: "{logic_expression: num}", err: `expected the logic expression "num" as a map, a list or a boolean, found a number`},
		{name: "date logic expression", cond: "{logic_expression: date}", err: "Unknown value expression \"\"2023-01-01T00:00:00.000Z\"\""},

		// Presence operators over nodes (§8.5).
		{name: "node_presence", cond: "{node_presence: app}", want: single("node.app")},
		{name: "node_presence SELF", cond: "{node_presence: SELF}", want: single("node.x")},
		{name: "host_presence", cond: "{host_presence: app}", want: single("or(node.vm)")},
		{name: "host_presence without host", cond: "{host_presence: vm}", want: single("or()")},
		{name: "has_source", cond: "{has_source: vm}", want: single("or(node.app,node.app)")},
		{name: "has_incoming_relation", cond: "{has_incoming_relation: vm}",
			want: single("or(and(manual.relation.host@0.node.app,node.app),and(manual.relation.conn@1.node.app,node.app))")},
		{name: "has_incoming_relation_naive", cond: "{has_incoming_relation_naive: vm}", want: single("or(relation.host@0.node.app,relation.conn@1.node.app)")},
		{name: "has_outgoing_relation", cond: "{has_outgoing_relation: app}",
			want: single("or(and(manual.relation.host@0.node.app,node.vm),and(manual.relation.conn@1.node.app,node.vm))")},
		{name: "has_outgoing_relation_naive", cond: "{has_outgoing_relation_naive: app}", want: single("or(relation.host@0.node.app,relation.conn@1.node.app)")},
		{name: "has_artifact", cond: "{has_artifact: app}", want: single("or(manual.artifact.a@0.node.app,manual.artifact.b@1.node.app)")},
		{name: "has_artifact_naive", cond: "{has_artifact_naive: app}", want: single("or(artifact.a@0.node.app,artifact.b@1.node.app)")},
		{name: "unknown node", cond: "{has_artifact: nope}", err: `Node "nope" not found`},
		{name: "node by index", cond: "{node_presence: 0}", err: `Element "0" is not a string`},

		// Relations.
		{name: "relation_presence", cond: "{relation_presence: [app, conn]}", want: single("relation.conn@1.node.app")},
		{name: "source_presence", cond: "{source_presence: [app, 0]}", want: single("node.app")},
		{name: "target_presence", cond: "{target_presence: [app, 0]}", want: single("node.vm")},
		{name: "relation_presence SELF of a node", cond: "{relation_presence: SELF}", err: `Node "x" is not a relation`},
		{name: "container_presence of a node", cond: "{container_presence: SELF}", err: `Node "x" has no container`},
		{name: "container_presence of a name", cond: "{container_presence: app}", err: "Unexpected error"},

		// Policies and groups.
		{name: "policy_presence", cond: "{policy_presence: pol}", want: single("policy.pol@0")},
		{name: "has_present_target", cond: "{has_present_target: 0}", want: single("or(node.vm,or(node.app,relation.host@0.node.app))")},
		{name: "group_presence", cond: "{group_presence: grp}", want: single("group.grp")},
		{name: "has_present_member", cond: "{has_present_member: grp}", want: single("or(node.app,relation.host@0.node.app)")},
		{name: "unknown group", cond: "{group_presence: nope}", err: `Group "nope" not found`},

		// Artifacts, properties, types, technologies.
		{name: "artifact_presence", cond: "{artifact_presence: [app, b]}", want: single("artifact.b@1.node.app")},
		{name: "artifact_presence SELF node", cond: "{artifact_presence: [SELF, 0]}", err: "Element not defined"},
		{name: "node_property_presence", cond: "{node_property_presence: [app, q]}", want: single("property.q@0.node.app")},
		{name: "relation_property_presence", cond: "{relation_property_presence: [app, 1, rx]}", want: single("property.rx@0.relation.conn@1.node.app")},
		{name: "group_property_presence", cond: "{group_property_presence: [grp, 0]}", want: single("property.gp@0.group.grp")},
		{name: "policy_property_presence", cond: "{policy_property_presence: [pol, pp]}", want: single("property.pp@0.policy.pol@0")},
		{name: "artifact_property_presence", cond: "{artifact_property_presence: [app, a, ap]}", want: single("property.ap@0.artifact.a@0.node.app")},
		{name: "node_type_presence", cond: "{node_type_presence: [app, app2]}", want: single("type.app2@1.node.app")},
		{name: "relation_type_presence", cond: "{relation_type_presence: [app, conn, 0]}", want: single("type.rt@0.relation.conn@1.node.app")},
		{name: "group_type_presence", cond: "{group_type_presence: [grp, gt]}", want: single("type.gt@0.group.grp")},
		{name: "policy_type_presence", cond: "{policy_type_presence: [pol, 0]}", want: single("type.pt@0.policy.pol@0")},
		{name: "artifact_type_presence", cond: "{artifact_type_presence: [app, 1, 0]}", want: single("type.tosca.artifacts.File@0.artifact.b@1.node.app")},
		{name: "technology_presence", cond: "{technology_presence: [app, terraform]}", want: single("technology.terraform@1.node.app")},
		{name: "ambiguous property", cond: "{node_type_presence: [app, nope]}", err: "Type \"[\n    \"app\",\n    \"nope\"\n]\" not found"},

		// Inputs, outputs and imports.
		{name: "input_presence", cond: "{input_presence: i1}", want: single("input.i1@0")},
		{name: "is_consumed", cond: "{is_consumed: 0}", want: single("or(property.c@0.node.vm)")},
		{name: "output_presence", cond: "{output_presence: 1}", want: single("output.o2@1")},
		{name: "is_produced", cond: "{is_produced: o1}", want: single("or(node.vm)")},
		{name: "is_produced without producer", cond: "{is_produced: o2}", want: single("or()")},
		{name: "import_presence", cond: "{import_presence: 0}", want: single("import.0@0")},
		{name: "unknown input", cond: "{input_presence: i9}", err: `Input "i9" not found`},
		{name: "unknown output", cond: "{output_presence: 5}", err: `Output "5" not found`},
		{name: "unknown import", cond: "{import_presence: 1}", err: `Import "1" not found`},

		// Value expressions in logic position (§8.6) are constants.
		{name: "value expression true", cond: "{equal: [1, 1]}", want: single("T")},
		{name: "value expression false", cond: "{greater: [1, 2]}", want: single("F")},
		{name: "variability input", cond: "{variability_input: flag}", want: single("T")},
		{name: "value expression not a boolean", cond: "{concat: [a, b]}", err: `Element ""ab"" is not a boolean`},
		{name: "number in logic position", cond: "{and: [5]}", err: `Element "5" is not a boolean`},
		{name: "nested list", cond: "{and: [[true]]}", err: `Element "[true]" is not a boolean`},
		{name: "unknown operator", cond: "{nope: 1}", err: "Unknown value expression \"{\n    \"nope\": 1\n}\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reqs, err := record(t, withCondition(tc.cond))
			if tc.err != "" {
				require.EqualError(t, err, tc.err, "condition %s", tc.cond)
				return
			}
			require.NoError(t, err, "condition %s", tc.cond)
			require.Equal(t, tc.want, reqs["node.x"], "condition %s", tc.cond)
		})
	}
}

// TestElementConditionRules: §8.2, what each element requires, and the
// context of SELF, CONTAINER, SOURCE and TARGET per element kind.
func TestElementConditionRules(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    options: {bratans_unknown: true}
  node_templates:
    a:
      type: [{t: {conditions: {container_presence: SELF}}}]
      requirements:
        - host:
            node: b
            conditions: [{source_presence: SELF}, {node_presence: TARGET}, {relation_presence: SELF}]
      properties:
        - p: {value: 1, conditions: [{node_presence: CONTAINER}, {_generated: true, node_presence: b}]}
        - q: {value: 1, conditions: {_generated: true, node_presence: b}}
      artifacts:
        f: {file: x, type: [{tosca.artifacts.File: {conditions: {container_presence: CONTAINER}}}], conditions: {artifact_presence: SELF}}
    b: {type: t, requirements: [{conn: {node: a, relationship: r}}]}
  relationship_templates:
    r: {type: rt, properties: [{rp: {value: 1, conditions: {relation_presence: CONTAINER}}}]}
  groups:
    g: {type: gt, members: [a], conditions: {group_presence: SELF}, properties: [{gp: {value: 1, conditions: {group_presence: CONTAINER}}}]}
  policies:
    - p: {type: pt, conditions: {has_present_target: SELF}}
`
	reqs, err := record(t, src)
	require.NoError(t, err)
	for id, want := range map[string][]string{
		// No conditions: the element and its manual variable are required.
		"node.a":          {"req manual.node.a", "req node.a"},
		"type.t@0.node.a": {"manual.type.t@0.node.a <=> and(node.a)", "type.t@0.node.a <=> node.a"},
		"relation.host@0.node.a": {
			"manual.relation.host@0.node.a <=> and(node.a,node.b,relation.host@0.node.a)",
			"relation.host@0.node.a <=> and(node.a,node.b,relation.host@0.node.a)"},
		// Generated conditions are not manual.
		"property.p@0.node.a": {"manual.property.p@0.node.a <=> and(node.a)", "property.p@0.node.a <=> and(node.a,node.b)"},
		"property.q@1.node.a": {"manual.property.q@1.node.a <=> and()", "property.q@1.node.a <=> node.b"},
		"artifact.f@0.node.a": {"manual.artifact.f@0.node.a <=> and(artifact.f@0.node.a)", "artifact.f@0.node.a <=> artifact.f@0.node.a"},
		// CONTAINER of a type of an artifact is the artifact's node.
		"type.tosca.artifacts.File@0.artifact.f@0.node.a": {
			"manual.type.tosca.artifacts.File@0.artifact.f@0.node.a <=> and(node.a)",
			"type.tosca.artifacts.File@0.artifact.f@0.node.a <=> node.a"},
		"property.rp@0.relation.conn@0.node.b": {
			"manual.property.rp@0.relation.conn@0.node.b <=> and(relation.conn@0.node.b)",
			"property.rp@0.relation.conn@0.node.b <=> relation.conn@0.node.b"},
		"group.g":               {"manual.group.g <=> and(group.g)", "group.g <=> group.g"},
		"property.gp@0.group.g": {"manual.property.gp@0.group.g <=> and(group.g)", "property.gp@0.group.g <=> group.g"},
		"policy.p@0":            {"manual.policy.p@0 <=> and(or())", "policy.p@0 <=> or()"},
	} {
		require.Equal(t, want, reqs[id], id)
	}

	// SELF where the context has the wrong kind, and no context at all in
	// constraints (§8.3).
	for _, tc := range []struct{ name, src, want string }{
		{"SOURCE of a node", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: t, conditions: {node_presence: SOURCE}}\n", `Node "a" is not a relation`},
		{"SELF in a constraint", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    constraints: [{node_presence: SELF}]\n", "Element not defined"},
		{"CONTAINER in a constraint", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    constraints: [{container_presence: SELF}]\n", "Element is not defined"},
		{"variability group", "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: t}\n  groups:\n    g: {type: variability.groups.Root, members: [a]}\n", "Variability groups are not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := record(t, tc.src)
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestConstraintAndImpliesRules: §8.3.
func TestConstraintAndImpliesRules(t *testing.T) {
	src := `tosca_definitions_version: tosca_variability_1_0
topology_template:
  variability:
    constraints:
      - a
      - {implies: [node.a, node.b]}
      - {amo: [node.a, -node.b]}
  node_templates:
    a:
      type: t
      implies: [[b], [node.b, c], ["-d", {or: [e]}]]
    b: {type: t}
`
	reqs, err := record(t, src)
	require.NoError(t, err)
	require.Equal(t, []string{"req a"}, reqs["constraint 0"])
	require.Equal(t, []string{"req implies(node.a,node.b)"}, reqs["constraint 1"])
	require.Equal(t, []string{"req amo(node.a,not(node.b))"}, reqs["constraint 2"])
	// [target] requires element → target; [target, condition] requires
	// (element ∧ condition) → target.
	require.Equal(t, []string{
		"req implies(node.a,b)",
		"req implies(and(node.a,c),node.b)",
		"req implies(and(node.a,or(e)),not(d))",
	}, reqs["implies node.a"])
	require.Nil(t, reqs["implies node.b"])

	for _, tc := range []struct{ implies, want string }{
		{"[[a, b, c]]", `Node "a" has an implies with more than 2 elements`},
		{"[[]]", `Node "a" has an implies without an target`},
		{"[[null, b]]", `Node "a" has an implies without an target`},
		{"5", `Element "5" is not an array`},
		{"[[{node_presence: nope}]]", `Node "nope" not found`},
		{"[[b, {node_presence: nope}]]", `Node "nope" not found`},
	} {
		t.Run(tc.implies, func(t *testing.T) {
			_, err := record(t, "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  node_templates:\n    a: {type: t, implies: "+tc.implies+"}\n")
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestIsManagedRules: is_managed (§8.5): the technologies whose
// implementation name manages the artifact's type.
func TestIsManagedRules(t *testing.T) {
	head := `tosca_definitions_version: tosca_variability_1_0
artifact_types:
  tosca.artifacts.Root: {derived_from: tosca.entity.Root}
  tosca.artifacts.File: {}
  zip: {derived_from: tosca.artifacts.File}
  tar: {derived_from: tosca.artifacts.File}
topology_template:
  node_templates:
    a:
      type: t
      artifacts:
        z: {type: %s, file: z}
      technology:
        - ansible: {assign: "t~c#zip::ansible@vm"}
        - terraform: {}
        - chef: {assign: "t~c#tosca.artifacts.File::chef"}
        - puppet: {assign: "t~c#tar::puppet"}
    b:
      type: t
      conditions: {is_managed: [a, z]}
`
	for _, tc := range []struct{ typ, want, err string }{
		{typ: "zip", want: "or(technology.ansible@0.node.a,technology.chef@2.node.a)"},
		{typ: "tosca.artifacts.File", want: "or(technology.chef@2.node.a)"},
		{typ: "tar", want: "or(technology.chef@2.node.a,technology.puppet@3.node.a)"},
		{typ: "[{zip: {}}, {tar: {}}]", err: `Artifact "z@0" of node "a" has more than one type`},
		{typ: "jar", err: `starting artifact_types "jar" has no definition`},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			reqs, err := record(t, strings.Replace(head, "%s", tc.typ, 1))
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, []string{"manual.node.b <=> and(" + tc.want + ")", "node.b <=> " + tc.want}, reqs["node.b"])
		})
	}
	// An assign that is no implementation name.
	src := strings.Replace(strings.Replace(head, "%s", "zip", 1), `{assign: "t~c#tar::puppet"}`, `{assign: "bad"}`, 1)
	_, err := record(t, src)
	require.EqualError(t, err, "Unexpected error")
	// Artifact references ignore the context: SELF is no node.
	src = strings.Replace(strings.Replace(head, "%s", "zip", 1), "{is_managed: [a, z]}", "{is_managed: [SELF, 0]}", 1)
	_, err = record(t, src)
	require.EqualError(t, err, "Element not defined")
}

// caseEvaluator is a CaseEvaluator with fixed cases.
type caseEvaluator struct {
	cases    []Case
	err      error
	excluded []string
}

func (c *caseEvaluator) Eval(x *Value) (*Value, error) { return nil, nil }
func (c *caseEvaluator) Cases(x *Value) ([]Case, error) {
	return c.cases, c.err
}
func (c *caseEvaluator) Excluded(x *Value, cs Case, err error) {
	c.excluded = append(c.excluded, err.Error())
}

// TestOpenInputCases: a value expression over open inputs becomes the
// disjunction of the cases where it is true (spaces.md §4).
func TestOpenInputCases(t *testing.T) {
	src := withCondition("{equal: [{variability_input: mode}, a]}")
	T, F := yamlsrc.NewBool(true), yamlsrc.NewBool(false)
	for _, tc := range []struct {
		name     string
		ev       *caseEvaluator
		want     []string
		excluded []string
		err      string
	}{
		{name: "no open input", ev: &caseEvaluator{cases: []Case{{Value: T}}}, want: single("T")},
		{name: "no open input, not a boolean", ev: &caseEvaluator{cases: []Case{{Value: yamlsrc.NewNumber(1)}}}, err: `Element "1" is not a boolean`},
		{name: "two values", ev: &caseEvaluator{cases: []Case{
			{Assumed: []Assumption{{Input: "mode", Index: 0}}, Value: T},
			{Assumed: []Assumption{{Input: "mode", Index: 1}}, Value: F},
			{Assumed: []Assumption{{Input: "mode", Index: 2}, {Input: "size", Index: 1}}, Value: T},
		}}, want: single("or(and($input.mode=0),and($input.mode=2,$input.size=1))")},
		{name: "excluded case", ev: &caseEvaluator{cases: []Case{
			{Assumed: []Assumption{{Input: "mode", Index: 0}}, Value: yamlsrc.NewString("x")},
			{Assumed: []Assumption{{Input: "mode", Index: 1}}, Value: T},
		}}, want: []string{
			"req not(and($input.mode=0))", "manual.node.x <=> and(or(and($input.mode=1)))",
			"req not(and($input.mode=0))", "node.x <=> or(and($input.mode=1))",
		}, excluded: []string{`Element ""x"" is not a boolean`, `Element ""x"" is not a boolean`}},
		{name: "refused", ev: &caseEvaluator{err: errf("refused")}, err: "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, src)
			r := newRecorder()
			err := Translate[string](g, tc.ev, r)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, r.reqs["node.x"])
			require.Equal(t, tc.excluded, tc.ev.excluded)
		})
	}
	require.Equal(t, "$input.mode=3", OneHotTerm("mode", 3))
	_, err := ParseTerm(OneHotTerm("mode", 3))
	require.EqualError(t, err, "Only generated variable names can start with $")
}

// TestIsNameTerm: a name term is anything but dashes followed by digits
// (^-*[0-9]*$), as the reference's SAT library has it.
func TestIsNameTerm(t *testing.T) {
	notTerm := regexp.MustCompile(`^-*[0-9]*$`)
	for _, s := range []string{"", "-", "--", "0", "12", "-3", "--45", "a", "-a", "1a", "a1", "-1-", "1-", "node.a", "$T", "-$F", "é", "-9é", "1 2", "0x1"} {
		require.Equal(t, !notTerm.MatchString(s), IsNameTerm(s), "%q", s)
	}
}

func FuzzIsNameTerm(f *testing.F) {
	for _, s := range []string{"", "-1", "a", "-1-", "é"} {
		f.Add(s)
	}
	notTerm := regexp.MustCompile(`^-*[0-9]*$`)
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, !notTerm.MatchString(s), IsNameTerm(s), "%q", s)
	})
}
