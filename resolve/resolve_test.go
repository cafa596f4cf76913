package resolve

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

func writeTemplate(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "template.yaml")
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	return p
}

func TestResolveOutputs(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		in        Input
		opts      Options
		want      string
	}{
		{
			name: "input decides the node",
			src: `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: {big: {type: boolean}}
        options: {type_default_condition: true}
    node_templates:
        a: {type: a, conditions: {variability_input: big}}
        b: {type: b, conditions: {not: {variability_input: big}}}
`,
			in:   Input{Inputs: []Assignment{{Name: "big", Value: yamlsrc.NewBool(true)}}},
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: a\n",
		},
		{
			name: "option override switches optimisation to max",
			src: `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {type_default_condition: true, optimization_topology: min}
    node_templates:
        a: {type: a, conditions: free}
`,
			opts: Options{Overrides: []Assignment{{Name: "optimization_topology", Value: yamlsrc.NewString("max")}}},
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: a\n",
		},
		{
			name: "property alternatives and expressions",
			src: `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        inputs: {n: {type: integer, default: 2}}
    node_templates:
        a:
            type: a
            properties:
                - size: {value: 1, conditions: {equal: [{variability_input: n}, 1]}}
                - size: {expression: {mul: [{variability_input: n}, 10]}, default_alternative: true}
`,
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        a:\n            type: a\n            properties:\n                size: 20\n",
		},
		{
			// Element variables are named only on demand; a term naming
			// one must still find it.
			name: "terms name element variables",
			src: `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {type_default_condition: true}
    node_templates:
        a: {type: a, conditions: false}
        b: {type: b, conditions: node.a}
        c: {type: c, conditions: {not: manual.node.a}}
        d: {type: d, conditions: {or: [node.c, expression.e]}}
`,
			want: "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n    node_templates:\n        c:\n            type: c\n        d:\n            type: d\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.TemplatePath = writeTemplate(t, tc.src)
			res, err := Resolve(context.Background(), tc.in, tc.opts)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(yamlsrc.Marshal(res.Doc)))
		})
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		line            int
	}{
		{"unsatisfiable", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        constraints: [{not: {node_presence: a}}]
    node_templates:
        a: {type: a, conditions: true}
`, "Could not solve", 0},
		{"ambiguous", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    variability:
        options: {type_default_condition: true, optimization_topology: true}
    node_templates:
        a: {type: a, conditions: {not: {node_presence: b}}}
        b: {type: b, conditions: {not: {node_presence: a}}}
`, "The result is ambiguous considering nodes (besides optimization)", 0},
		{"checker", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        a:
            type: a
            requirements:
                - host: {node: b, conditions: true}
        b: {type: b, conditions: false}
`, `Relation target "b" of relation "host@0" of node "a" does not exist`, 7},
		{"value expression", `tosca_definitions_version: tosca_variability_1_0
topology_template:
    node_templates:
        a: {type: a, conditions: {variability_input: missing}}
`, `Variability input "missing" is not defined`, 4},
		{"not a template", `- just a list`, "expected a service template (a map), found list", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemplate(t, tc.src)
			_, err := Resolve(context.Background(), Input{TemplatePath: path}, Options{})
			d := testkit.Diagnostic(t, err, "error %v is a diagnostic", err)
			require.Equal(t, tc.want, d.Message)
			require.Equal(t, path, d.Pos.File)
			require.Equal(t, tc.line, d.Pos.Line, "line of %q", d.Message)
		})
	}
}

// TestDeterminism resolves our examples and, when present, every
// conformance template three times, under different GOMAXPROCS, and wants
// byte-identical outputs (or errors) (style.md §5.9).
func TestDeterminism(t *testing.T) {
	templates, err := filepath.Glob(filepath.Join("..", "testdata", "examples", "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, templates)
	if corpus, ok := testkit.LookupCorpus(t, "vintner"); ok {
		more, err := filepath.Glob(filepath.Join(corpus, "*", "*", "template.yaml"))
		require.NoError(t, err)
		require.NotEmpty(t, more)
		templates = append(templates, more...)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tpl := range templates {
		var outs [3][]byte
		for i, procs := range []int{runtime.NumCPU(), 1, 7} {
			runtime.GOMAXPROCS(procs)
			res, err := Resolve(context.Background(), Input{TemplatePath: tpl}, Options{})
			if err != nil {
				outs[i] = []byte("error: " + err.Error())
				continue
			}
			outs[i] = yamlsrc.Marshal(res.Doc)
		}
		require.Equal(t, string(outs[0]), string(outs[1]), "%s: GOMAXPROCS %d and 1 differ", tpl, runtime.NumCPU())
		require.Equal(t, string(outs[0]), string(outs[2]), "%s: GOMAXPROCS %d and 7 differ", tpl, runtime.NumCPU())
	}
}
