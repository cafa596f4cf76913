package complete

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
	"v4t/model/tosca"
)

// csarOf builds an archive of name/content pairs, names stored verbatim.
func csarOf(t testing.TB, files ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		require.NoError(t, err)
		_, err = w.Write([]byte(files[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return b.Bytes()
}

const csarEntry = `tosca_definitions_version: tosca_simple_yaml_1_0
imports:
- tosker: https://di-unipi-socc.github.io/tosker-types/1.0.0/tosker.yaml
- lib/types.yaml
topology_template:
  node_templates:
    app:
      type: my.App
    web:
      type: tosker.nodes.Software
      requirements:
      - host:
          node_filter:
            properties:
            - supported_sw: [{python: 3.x}]
      interfaces:
        Standard:
          start: scripts/missing.sh
`

func TestCompleteCSAR(t *testing.T) {
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(t, err)
	in := csarOf(t,
		"TOSCA-Metadata/TOSCA.meta", "TOSCA-Meta-File-Version: 1.0\nEntry-Definitions: defs/app.yaml\n",
		"defs/app.yaml", csarEntry,
		"defs/lib/types.yaml", "node_types:\n  my.App:\n    derived_from: tosca.nodes.Root\n",
		"scripts/start.sh", "#!/bin/sh\necho start\n",
		"artifacts/blob.bin", "\x00\x01\x02binary",
	)
	res, err := Complete(context.Background(), Input{Name: "dir/app.csar", Data: in}, Options{Source: c})
	require.NoError(t, err)
	require.Equal(t, "dir/app.completed.csar", res.OutputName)
	entry, err := compareArchives(in, res.Output)
	require.NoError(t, err, "members other than the entry template are byte-identical")
	nts := nodeTemplates(t, entry)
	require.Equal(t, "python:3", pyStr(nts.get("web_container").get("artifacts").get("my_image").get("file")))
}

// TestCompleteCSAREscape checks that an archive whose entries escape is
// rejected with one clear message and no result.
func TestCompleteCSAREscape(t *testing.T) {
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(t, err)
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"parent", []string{"TOSCA-Metadata/TOSCA.meta", "Entry-Definitions: app.yaml\n", "app.yaml", csarEntry, "../evil.sh", "x"},
			`app.csar: archive entry "../evil.sh" has a ".." component, which escapes the archive`},
		{"absolute", []string{"/tmp/evil.sh", "x", "TOSCA-Metadata/TOSCA.meta", "Entry-Definitions: app.yaml\n", "app.yaml", csarEntry},
			`app.csar: archive entry "/tmp/evil.sh" is an absolute path, which escapes the archive`},
		{"import escapes", []string{"TOSCA-Metadata/TOSCA.meta", "Entry-Definitions: app.yaml\n", "app.yaml", strings.Replace(csarEntry, "lib/types.yaml", "../../etc/types.yaml", 1)},
			`Validation error:cannot import "../../etc/types.yaml": no such file in the archive`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Complete(context.Background(), Input{Name: "app.csar", Data: csarOf(t, tc.files...)}, Options{Source: c})
			require.Nil(t, res)
			diags := diag.ListOf(err)
			require.NotEmpty(t, diags)
			require.Equal(t, tc.want, diags[0].Message)
		})
	}
}

// FuzzCompleteTemplate completes arbitrary template text: the pipeline
// must answer with a result or with diagnostics, never with a panic
// (which Complete turns into an internal error).
func FuzzCompleteTemplate(f *testing.F) {
	f.Add([]byte(csarEntry))
	f.Add([]byte(testkit.ToskerHeader + "    a:\n      type: tosker.nodes.Software\n      requirements:\n      - host:\n"))
	f.Add([]byte(testkit.ToskerHeader + "    a: {type: tosker.nodes.Software, requirements: [{host: {node_filter: {properties: [{supported_sw: [{node: 6.x}]}, {ports: [{80: 1}]}]}}}]}\n  groups: {g: {members: [a, a]}}\n"))
	f.Add([]byte("a: &x [*x]"))
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Complete(context.Background(), Input{Name: "f.yaml", Data: data}, Options{Source: c, Force: true})
		checkFuzzOutcome(t, res, err)
	})
}

// FuzzCompleteCSAR completes arbitrary archives.
func FuzzCompleteCSAR(f *testing.F) {
	f.Add(csarOf(f, "TOSCA-Metadata/TOSCA.meta", "Entry-Definitions: app.yaml\n", "app.yaml", csarEntry, "lib/types.yaml", "node_types: {my.App: {}}\n"))
	f.Add(csarOf(f, "../x", "y"))
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Complete(context.Background(), Input{Name: "f.csar", Data: data}, Options{Source: c})
		checkFuzzOutcome(t, res, err)
		if res != nil {
			if _, err := tosca.ReadCSAR(res.Output, "out.csar", tosca.DefaultCSARLimits()); err != nil {
				t.Fatalf("the output archive does not read back: %v", err)
			}
		}
	})
}

func checkFuzzOutcome(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
		return
	}
	if res == nil || len(res.Output) == 0 {
		t.Fatal("no result and no diagnostics")
	}
}
