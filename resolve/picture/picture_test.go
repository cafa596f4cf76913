package picture

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve"
)

const motivation = "../../testdata/examples/motivation/variable-service-template.yaml"

// cases are the pictures checked against goldens and, when Graphviz is
// installed, by dot itself.
var cases = []struct {
	name    string
	in      resolve.Input
	variant bool
	opts    Options
}{
	{name: "motivation.dot", in: resolve.Input{TemplatePath: motivation}},
	{name: "motivation.mmd", in: resolve.Input{TemplatePath: motivation}, opts: Options{Format: "mermaid"}},
	{name: "motivation-elastic.dot", in: resolve.Input{TemplatePath: motivation, Presets: []string{"elastic"}}, variant: true},
	{name: "motivation-elastic.mmd", in: resolve.Input{TemplatePath: motivation, Presets: []string{"elastic"}}, variant: true, opts: Options{Format: "mermaid"}},
	{name: "motivation-kubernetes-hidden.dot", in: resolve.Input{TemplatePath: motivation, Presets: []string{"kubernetes"}}, variant: true, opts: Options{HideAbsent: true}},
}

func draw(t *testing.T, name string, in resolve.Input, variant bool, o Options) []byte {
	t.Helper()
	p, err := Load(context.Background(), in, resolve.Options{}, variant)
	require.NoError(t, err, name)
	data, err := Draw(p, o)
	require.NoError(t, err, name)
	return data
}

func TestGoldens(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			testkit.Golden(t, filepath.Join("testdata", tc.name+".golden"), draw(t, tc.name, tc.in, tc.variant, tc.opts))
		})
	}
}

// TestGraphvizAccepts runs dot -Tsvg on every DOT picture.
func TestGraphvizAccepts(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot is not installed (apt-get install graphviz)")
	}
	for _, tc := range cases {
		if tc.opts.Format == "mermaid" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = bytes.NewReader(draw(t, tc.name, tc.in, tc.variant, tc.opts))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "dot -Tsvg on %s: %s", tc.name, stderr.String())
			require.Empty(t, stderr.String(), "dot warnings on %s", tc.name)
			require.Contains(t, string(out), "<svg", tc.name)
		})
	}
}

func TestStyles(t *testing.T) {
	topo := &resolve.Topology{
		File: "t.yaml",
		Nodes: []resolve.TopologyNode{
			{Name: `app "1"`, Type: "app"},
			{Name: "vm", Type: "vm", Conditions: "{variability_input: big}"},
		},
		Relations: []resolve.TopologyRelation{
			{Source: `app "1"`, Name: "host", Target: "vm", Hosting: true, Conditions: "{variability_input: big}"},
			{Source: "vm", Name: "uses", Target: `app "1"`},
		},
	}
	for _, tc := range []struct {
		name      string
		variant   *resolve.Report
		opts      Options
		want, not []string
	}{
		{
			name: "dot: quoting, dashed conditional node, bold dashed hosting relation",
			want: []string{`n0 [label="app \"1\"\n«app»", style="rounded"]`,
				`n1 [label="vm\n«vm»\nif {variability_input: big}", style="rounded,dashed"]`,
				`n0 -> n1 [label="host\nif {variability_input: big}", arrowhead="empty", color="#1f4e79", fontcolor="#1f4e79", style="bold,dashed"]`,
				`n1 -> n0 [label="uses"]`},
		},
		{
			name:    "dot: absent elements are grey",
			variant: &resolve.Report{Nodes: []string{`app "1"`}},
			want:    []string{`n1 [label="vm\n«vm»\nif {variability_input: big}", color="#b0b0b0", fillcolor="#f4f4f4", fontcolor="#999999", style="rounded,dashed,filled"]`},
		},
		{
			name:    "dot: absent elements hidden",
			variant: &resolve.Report{Nodes: []string{`app "1"`}},
			opts:    Options{HideAbsent: true},
			not:     []string{"n1", "->"},
		},
		{
			name: "mermaid: escaped label, dotted conditional link, thick hosting link",
			opts: Options{Format: "mermaid"},
			want: []string{`n0["app #quot;1#quot;<br/>«app»"]`, `n0 -.->|"host<br/>if {variability_input: big}"| n1`,
				`linkStyle 0 stroke:#1f4e79,stroke-width:3px`, `class n1 conditional`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Draw(&Picture{Topology: topo, Variant: tc.variant}, tc.opts)
			require.NoError(t, err)
			for _, w := range tc.want {
				require.Contains(t, string(data), w, tc.name)
			}
			for _, n := range tc.not {
				body := string(data)[strings.Index(string(data), "\n"):]
				require.NotContains(t, body, n, tc.name)
			}
		})
	}
	_, err := Draw(&Picture{Topology: topo}, Options{Format: "svg"})
	require.EqualError(t, err, `unknown picture format "svg" (expected dot or mermaid)`)
}

func TestLoadRejects(t *testing.T) {
	in := resolve.Input{TemplatePath: motivation, Presets: []string{"mainframe"}}
	_, err := Load(context.Background(), in, resolve.Options{}, false)
	require.NoError(t, err, "the variable topology needs no presets")
	_, err = Load(context.Background(), in, resolve.Options{}, true)
	require.EqualError(t, err, `Did not find variability preset "mainframe"`)
}
