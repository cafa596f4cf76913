package resolve

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/yamlsrc"
)

// TestTemplates: resolves through a Templates cache give what fresh
// resolves give (output, error, warnings in order), for templates whose
// loading warns, fails, keeps a topology_template that is no map, uses
// aliases, imports types and reads side files; the cache reads each
// template once; Prepare loads ahead of the resolves.
func TestTemplates(t *testing.T) {
	const v10 = "tosca_definitions_version: tosca_variability_1_0\n"
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"plain.yaml": v10 + `topology_template:
  inputs: {size: {type: string}}
  variability:
    inputs: {big: {type: boolean}}
  node_templates:
    a: {type: tosca.nodes.Root, properties: {p: {get_input: size}}, conditions: {variability_input: big}}
    b: {type: tosca.nodes.Root}
`,
		"list-topology.yaml": v10 + "topology_template: [x, y]\n",
		"list-variability.yaml": v10 + `topology_template:
  variability: [1]
  node_templates: {a: {type: tosca.nodes.Root}}
`,
		"broken.yaml": "tosca_definitions_version: [\n",
		"aliased.yaml": v10 + `topology_template:
  node_templates:
    a: &n {type: tosca.nodes.Root, properties: {p: 1}}
    b: *n
`,
		"typed.yaml": v10 + `imports: [types.yaml]
topology_template:
  variability:
    type_specific_conditions: conditions.yaml
    options: {type_default_condition: true}
  node_templates: {a: {type: my.Node}}
`,
		"types.yaml":      "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {my.Node: {derived_from: tosca.nodes.Root}}\n",
		"conditions.yaml": "node_types: {my.Node: {conditions: true}}\n",
		"lib/more.yaml":   "node_types: {lib.Node: {derived_from: tosca.nodes.Root}}\n",
	})
	type outcome struct {
		out      string
		err      string
		warnings []string
	}
	run := func(name string, cache *Templates) outcome {
		var o outcome
		opts := Options{Templates: cache, Warn: func(d *diag.Diagnostic) { o.warnings = append(o.warnings, d.Line()) }}
		in := Input{TemplatePath: filepath.Join(dir, name), Inputs: []Assignment{{Name: "big", Value: yamlsrc.NewBool(true)}, {Name: "size", Value: yamlsrc.NewString("1")}}}
		res, err := Resolve(context.Background(), in, opts)
		if err != nil {
			o.err = err.Error()
			return o
		}
		o.out = string(yamlsrc.Marshal(res.Doc))
		return o
	}
	names := []string{"plain.yaml", "list-topology.yaml", "list-variability.yaml", "broken.yaml", "aliased.yaml", "typed.yaml"}
	cache := NewTemplates()
	for _, name := range names {
		want := run(name, nil)
		if name == "broken.yaml" {
			require.NotEmpty(t, want.err, name)
		} else {
			require.Empty(t, want.err, name)
		}
		if name == "list-topology.yaml" || name == "list-variability.yaml" {
			// The loader's warning, then the unknown inputs'.
			require.Len(t, want.warnings, 3, name)
			require.Contains(t, want.warnings[0], "as the reference does", name)
		}
		// In parallel, as v4t batch runs them.
		got := make([]outcome, 4)
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = run(name, cache)
			}()
		}
		wg.Wait()
		for i := range got {
			require.Equal(t, want, got[i], "%s, resolve %d", name, i)
		}
	}
	// Read once: a cached template resolves with its file gone, a fresh
	// resolve does not.
	require.NoError(t, os.Remove(filepath.Join(dir, "plain.yaml")))
	require.Empty(t, run("plain.yaml", cache).err)
	require.NotEmpty(t, run("plain.yaml", nil).err)

	// Expect: the last announced resolve drops the template, and the next
	// one reads the file again.
	cache = NewTemplates()
	cache.Expect(filepath.Join(dir, "typed.yaml"), false, 2)
	require.Empty(t, run("typed.yaml", cache).err)
	require.NoError(t, os.Rename(filepath.Join(dir, "typed.yaml"), filepath.Join(dir, "moved.yaml")))
	require.Empty(t, run("typed.yaml", cache).err)
	require.NotEmpty(t, run("typed.yaml", cache).err)

	// Prepare loads the template without counting as an announced
	// resolve: the one resolve announced still finds it with its file
	// gone, and drops it. A template prepared gives its resolves the
	// warnings and errors a fresh resolve gives.
	cache = NewTemplates()
	cache.Expect(filepath.Join(dir, "aliased.yaml"), false, 1)
	cache.Prepare(filepath.Join(dir, "aliased.yaml"), false)
	require.NoError(t, os.Remove(filepath.Join(dir, "aliased.yaml")))
	require.Empty(t, run("aliased.yaml", cache).err)
	require.NotEmpty(t, run("aliased.yaml", cache).err)
	for _, name := range []string{"list-topology.yaml", "broken.yaml"} {
		cache = NewTemplates()
		cache.Prepare(filepath.Join(dir, name), false)
		require.Equal(t, run(name, nil), run(name, cache), name)
	}

	// A loading that panics (a bug) does not end a batch from Prepare,
	// which runs outside any resolve: every resolve of the template
	// reports it as an internal error.
	cache = NewTemplates()
	cache.loader = func(string, []byte, bool, diag.Sink) (*loaded, error) { panic("boom") }
	require.NotPanics(t, func() { cache.Prepare(filepath.Join(dir, "list-topology.yaml"), false) })
	for range 2 {
		require.Contains(t, run("list-topology.yaml", cache).err, "internal error: boom")
	}
}

// TestReadOnlyTypes: the copies of a cached template share the type
// definitions that imports loaded, normative and imported alike, and copy
// the rest, including a loaded type without derived_from, which graph
// normalisation completes in each resolve.
func TestReadOnlyTypes(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"t.yaml": "tosca_definitions_version: tosca_variability_1_0\nimports: [types.yaml]\n" +
			"node_types: {own.Node: {derived_from: tosca.nodes.Root}}\n" +
			"topology_template: {node_templates: {a: {type: my.Node}, b: {type: lib.Node}}}\n",
		"types.yaml":    "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {my.Node: {derived_from: tosca.nodes.Root}}\n",
		"lib/more.yaml": "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {lib.Node: {description: no parent}}\n",
	})
	cache := NewTemplates()
	path := filepath.Join(dir, "t.yaml")
	a, err := cache.load(path, false, nil, nil)
	require.NoError(t, err)
	b, err := cache.load(path, false, nil, nil)
	require.NoError(t, err)
	types := func(l *loaded, name string) *yamlsrc.Value { return l.doc.Get("node_types").Get(name) }
	for _, name := range []string{"tosca.nodes.Root", "tosca.nodes.Compute", "my.Node"} {
		require.Same(t, types(a, name), types(b, name), name)
	}
	for _, name := range []string{"own.Node", "lib.Node"} {
		require.NotNil(t, types(a, name), name)
		require.NotSame(t, types(a, name), types(b, name), name)
	}
	require.NotSame(t, a.doc.Get("node_types"), b.doc.Get("node_types"))
	res, err := Resolve(context.Background(), Input{TemplatePath: path}, Options{Templates: cache})
	require.NoError(t, err)
	require.Contains(t, string(yamlsrc.Marshal(res.Doc)), "own.Node")
}
