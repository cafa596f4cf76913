package enrich

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Spec variability.md §5.2–5.5: technology rules, candidates with their
// hosting and artifact conditions, implementation and technology
// enrichment.

// ruleTypes are the type definitions the rule cases walk: graph builds
// do not load the normative profile, so the roots are defined here.
const ruleTypes = `node_types:
  tosca.nodes.Root: {derived_from: tosca.entity.Root}
  base: {}
  app: {derived_from: base}
  runtime: {}
  vm: {}
  abstract: {metadata: {vintner_abstract: 'true'}}
  withzip:
    artifacts:
      deploy: {type: zip, file: d.zip}
artifact_types:
  tosca.artifacts.Root: {derived_from: tosca.entity.Root}
  tosca.artifacts.File: {}
  zip: {derived_from: tosca.artifacts.File}
  tar: {derived_from: tosca.artifacts.File}
`

// elementsRun builds src, runs element enrichment and returns the graph,
// whether it changed the document, and the raw technology list of each
// node as JSON.
func elementsRun(t *testing.T, src string) (*graph.Graph, bool, map[string]string, error) {
	t.Helper()
	doc, err := yamlsrc.Parse([]byte(src), "t.yaml")
	require.NoError(t, err)
	g, err := graph.Build(doc, "t.yaml")
	require.NoError(t, err)
	changed, err := Elements(g)
	techs := map[string]string{}
	for _, n := range g.Nodes {
		techs[n.Name] = yamlsrc.JSON(n.Raw.Get("technology"))
	}
	return g, changed, techs, err
}

func TestTechnologyEnrichmentRules(t *testing.T) {
	src := rulesV1 + ruleTypes + `topology_template:
  variability:
    options: {enrich_technologies: true}
    qualities:
      - {technology: ansible, component: app, hosting: ['*', vm], weight: 0.5}
      - {technology: terraform, component: base}
      - {technology: docker, component: app, artifact: zip, assign: custom}
      - {technology: chef, component: runtime, hosting: [vm]}
      - {technology: puppet, component: withzip, artifact: zip}
      - {technology: salt, component: base, artifact: tar}
      - {technology: helm, component: vm, hosting: [runtime]}
  node_templates:
    a:
      type: app
      requirements:
        - host: r
        - host: v
      artifacts:
        z: {type: zip, file: z.zip}
        y: {type: zip, file: y.zip}
        t: {file: t.txt}
    b: {type: base}
    r: {type: runtime, requirements: [{host: v}]}
    v: {type: vm, managed: false}
    w: {type: withzip}
    x: {type: abstract}
`
	_, changed, techs, err := elementsRun(t, src)
	require.NoError(t, err)
	require.True(t, changed)
	for node, want := range map[string]string{
		// Only the most specific rules apply (terraform and salt are for
		// base); ansible has two hosting paths (§5.3, the verified
		// example); docker's artifact condition is a single object and
		// stays as it is.
		"a": `[` +
			`{"ansible":{"conditions":{"and":[{"relation_presence":["a",0]},{"node_presence":"r"},{"relation_presence":["r",0]},{"node_presence":"v"}],"_generated":true},"weight":0.5,"assign":"app~app::ansible@*->vm"}},` +
			`{"ansible":{"conditions":{"and":[{"relation_presence":["a",1]},{"node_presence":"v"}],"_generated":true},"weight":0.5,"assign":"app~app::ansible@*->vm"}},` +
			`{"docker":{"conditions":{"or":[{"artifact_presence":["a",0]},{"artifact_presence":["a",1]}],"_generated":true},"assign":"custom"}}]`,
		// No hosting, no artifact: an empty and.
		"b": `[{"terraform":{"conditions":{"and":[],"_generated":true},"assign":"base~base::terraform"}}]`,
		// A one-step path is simplified to its and.
		"r": `[{"chef":{"conditions":{"and":[{"relation_presence":["r",0]},{"node_presence":"v"}],"_generated":true},"assign":"runtime~runtime::chef@vm"}}]`,
		// managed: false: no technologies.
		"v": `[]`,
		// The artifact is declared by the type only: no artifact
		// condition, so the empty list, as without artifact.
		"w": `[{"puppet":{"conditions":{"and":[],"_generated":true},"assign":"withzip~withzip#zip::puppet"}}]`,
		// Abstract types are not managed.
		"x": `[]`,
	} {
		require.Equal(t, want, techs[node], node)
	}
}

func TestImplementationEnrichmentRules(t *testing.T) {
	src := rulesV1 + ruleTypes + `topology_template:
  variability:
    options: {%s}
    qualities:
      - {technology: ansible, component: app, hosting: [vm], weight: 0.25}
      - {technology: ansible, component: app, hosting: [runtime]}
      - {technology: terraform, component: app}
      - {technology: docker, component: app, artifact: zip}
  node_templates:
    a:
      type: app
      requirements:
        - host: v
      artifacts:
        z: {type: zip, file: z.zip}
      technology:
        - Ansible: {conditions: x, weight: 0.9, default_alternative: true}
        - terraform: {}
        - docker: {conditions: [y, z]}
    v: {type: vm, managed: false}
`
	_, changed, techs, err := elementsRun(t, fmtOptions(src, ""))
	require.NoError(t, err)
	require.True(t, changed)
	// Each entry is replaced by its candidates; the entry's own
	// conditions (here [false], from default_alternative) come first, and
	// its weight is lost. Merged conditions are manual (no marker).
	require.Equal(t, `[`+
		`{"ansible":{"conditions":[false,{"relation_presence":["a",0]},{"node_presence":"v"}],"weight":0.25,"assign":"app~app::ansible@vm"}},`+
		`{"terraform":{"conditions":[],"assign":"app~app::terraform"}},`+
		`{"docker":{"conditions":["y","z",{"or":[{"artifact_presence":["a",0]}]}],"assign":"app~app#zip::docker"}}]`, techs["a"])

	// Switched off, nothing changes.
	_, changed, techs, err = elementsRun(t, fmtOptions(src, "enrich_implementations: false"))
	require.NoError(t, err)
	require.False(t, changed)
	require.Equal(t, `[{"ansible":{"conditions":"x","weight":0.9,"default_alternative":true,"assign":"app~app::ansible"}},{"terraform":{"assign":"app~app::terraform"}},{"docker":{"conditions":["y","z"],"assign":"app~app::docker"}}]`, techs["a"])
}

func TestElementEnrichmentErrorRules(t *testing.T) {
	rc := func(options, rules, nodes string) string {
		return rulesV1 + ruleTypes + "topology_template:\n  variability:\n    options: {" + options + "}\n    qualities: " + rules + "\n  node_templates:\n" + nodes
	}
	tests := []struct {
		name, src, want string
	}{
		{"no implementation", rc("", "[{technology: ansible, component: app}]",
			"    a: {type: app, technology: puppet}\n"),
			`Node "a" has no implementation for technology "puppet@0" of node "a"`},
		{"no candidates", rc("enrich_technologies: true", "[{technology: ansible, component: vm}]",
			"    a: {type: app}\n"),
			`Node "a" has no technology candidates`},
		{"star without a type", rc("enrich_technologies: true", "[{technology: ansible, component: app, hosting: ['*']}]",
			"    a: {type: app, requirements: [{host: v}]}\n    v: {type: vm, managed: false}\n"),
			`Unexpected error`},
		{"managed not a boolean", rc("enrich_technologies: true", "[]",
			"    a: {type: app, managed: 1}\n"),
			`Element "1" is not a boolean`},
		{"undefined node type", rc("enrich_technologies: true, required_technology_check: false", "[]",
			"    a: {type: nope}\n"),
			`Node type "nope" does not exist`},
		{"two node types", rc("enrich_technologies: true", "[{technology: ansible, component: app}]",
			"    a: {type: [{app: {}}, {base: {}}]}\n"),
			`Node "a" has more than one type`},
		{"type chain broken", rulesV1 + `node_types:
  tosca.nodes.Root: {derived_from: tosca.entity.Root}
  app: {derived_from: gone}
topology_template:
  variability:
    qualities: [{technology: ansible, component: app}]
  node_templates:
    a: {type: app, technology: ansible}
`, `node_types "gone" has no definition`},
		{"artifact with two types", rc("enrich_technologies: true", "[{technology: ansible, component: app, artifact: zip}]",
			"    a: {type: app, artifacts: {z: {type: [{zip: {}}, {tar: {}}], file: z}}}\n"),
			`Artifact "z@0" of node "a" has more than one type`},
		{"undefined artifact type", rc("enrich_technologies: true", "[{technology: ansible, component: app, artifact: zip}]",
			"    a: {type: app, artifacts: {z: {type: jar, file: z}}}\n"),
			`starting artifact_types "jar" has no definition`},
		{"undefined host type", rc("enrich_technologies: true", "[{technology: ansible, component: app, hosting: [vm]}]",
			"    a: {type: app, requirements: [{host: v}]}\n    v: {type: cloud, managed: false}\n"),
			`starting node_types "cloud" has no definition`},
		{"hosting cycle", rc("enrich_technologies: true", "[{technology: ansible, component: app, hosting: ['*', runtime]}]",
			"    a: {type: app, requirements: [{host: v}]}\n    v: {type: vm, managed: false, requirements: [{host: w}]}\n    w: {type: vm, managed: false, requirements: [{host: v}]}\n"),
			`Maximum call stack size exceeded`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := elementsRun(t, tc.src)
			require.EqualError(t, err, tc.want)
		})
	}

	// Without the check, a node without candidates keeps no technologies.
	_, changed, techs, err := elementsRun(t, rc("enrich_technologies: true, required_technology_check: false",
		"[{technology: ansible, component: vm}]", "    a: {type: app}\n"))
	require.NoError(t, err)
	require.False(t, changed)
	require.Equal(t, `[]`, techs["a"])
}
