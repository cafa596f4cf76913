package enrich

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/graph"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// TestEnrichSameAsSteps: Enrich, which walks the final conditions for the
// cleanup as it makes them, fails where Conditions, Constraints and Cleanup
// in turn fail, with the same error, and otherwise leaves the same
// conditions and document. Templates: our Vintner-format cases and
// examples, the Vintner corpus where present, and nulls inside conditions
// ahead of a later failure of each step.
func TestEnrichSameAsSteps(t *testing.T) {
	const head = "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n"
	sources := map[string]string{
		"nulls inside conditions":   head + "  node_templates:\n    a: {type: t, conditions: {not: null}}\n    b: {type: t, conditions: {and: [true, {or: [null]}]}}\n",
		"a null in a later element": head + "  node_templates:\n    a: {type: t}\n    b: {type: t, conditions: [true, {not: null}]}\n",
		// Condition enrichment fails after a null: its error comes first.
		"a null, then a bad default condition mode": head + "  node_templates:\n    a: {type: t, conditions: {not: null}}\n    b: {type: t, default_condition_mode: bogus}\n",
		// Constraint enrichment fails after a null: its error comes first.
		"a null, then a bad implied": head + "  node_templates:\n    a: {type: t, conditions: {not: null}}\n    b: {type: t, properties: [{p: {value: 1, implied: TARGET}}]}\n",
	}
	wantErrors := map[string]string{
		"nulls inside conditions":                   "t.yaml:4:8: Cannot convert undefined or null to object",
		"a null in a later element":                 "t.yaml:5:8: Cannot convert undefined or null to object",
		"a null, then a bad default condition mode": `t.yaml:5:8: Node "b" has unknown mode "bogus" as default condition`,
		"a null, then a bad implied":                `t.yaml:5:35: Property "p@0" of node "b" is not a relation`,
	}
	var files []string
	for _, root := range []string{filepath.Join("..", "..", "testdata", "vintner"), filepath.Join("..", "..", "testdata", "examples")} {
		found, err := filepath.Glob(filepath.Join(root, "*", "*", "template.yaml"))
		require.NoError(t, err)
		files = append(files, found...)
		found, err = filepath.Glob(filepath.Join(root, "*", "*.yaml"))
		require.NoError(t, err)
		files = append(files, found...)
	}
	if corpus, ok := testkit.LookupCorpus(t, "vintner"); ok {
		found, err := filepath.Glob(filepath.Join(corpus, "*", "*", "template.yaml"))
		require.NoError(t, err)
		files = append(files, found...)
	}
	require.Greater(t, len(files), 50)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		sources[f] = string(data)
	}
	compared := 0
	for name, src := range sources {
		for _, writeBack := range []bool{false, true} {
			steps, okSteps := enrichBy(src, func(g *graph.Graph) error {
				if err := Conditions(g); err != nil {
					return err
				}
				if err := Constraints(g); err != nil {
					return err
				}
				return Cleanup(g, writeBack)
			})
			one, okOne := enrichBy(src, func(g *graph.Graph) error { return Enrich(g, writeBack) })
			require.Equal(t, okSteps, okOne, name)
			require.Equal(t, steps, one, "%s, write-back %v", name, writeBack)
			if okSteps {
				compared++
			}
		}
	}
	require.Greater(t, compared, 100)
	for name, want := range wantErrors {
		out, _ := enrichBy(sources[name], func(g *graph.Graph) error { return Enrich(g, false) })
		require.Equal(t, "error: "+want, out, name)
	}
}

// enrichBy parses and builds src as enrichStage does and runs run on
// graph #2: the error, or every element's conditions and the document;
// ok is false where src does not get that far.
func enrichBy(src string, run func(*graph.Graph) error) (string, bool) {
	doc, err := yamlsrc.Parse([]byte(src), "t.yaml")
	if err != nil || !doc.IsMap() {
		return "", false
	}
	g, err := graph.Build(doc, "t.yaml")
	if err != nil {
		return "", false
	}
	changed, err := Elements(g)
	if err != nil {
		return "", false
	}
	if changed {
		if g, err = graph.Build(doc, "t.yaml"); err != nil {
			return "", false
		}
	}
	if err := run(g); err != nil {
		if d, ok := diag.As(err); ok {
			return "error: " + d.Line(), true
		}
		return "error: " + err.Error(), true
	}
	var b strings.Builder
	for _, e := range g.Elements {
		fmt.Fprintf(&b, "%s:", e.ID())
		for _, c := range e.Conditions {
			b.WriteString(" " + yamlsrc.JSON(c))
		}
		b.WriteString("\n")
	}
	b.Write(yamlsrc.Marshal(doc))
	return b.String(), true
}
