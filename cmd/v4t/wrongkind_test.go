package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/yamlsrc"
)

// TestWrongKinds replaces every value of an example template, one at a
// time, by a value of another kind, and resolves the result: each run must
// succeed or fail with exit status 1 and an error line that starts with a
// position in the template (or says that the template as a whole has no
// or no unique solution). Warnings about coerced input may come first and
// name a position in the template too. No panic, no internal error.
func TestWrongKinds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "webshop", "template.yaml"))
	require.NoError(t, err)
	orig, err := yamlsrc.Parse(data, "t.yaml")
	require.NoError(t, err)
	var paths [][]any
	var walk func(v *yamlsrc.Value, path []any)
	walk = func(v *yamlsrc.Value, path []any) {
		if len(path) > 0 {
			paths = append(paths, append([]any(nil), path...))
		}
		switch {
		case v.IsMap():
			for _, k := range v.Map().Keys() {
				walk(v.Map().Get(k), append(path, k))
			}
		case v.IsList():
			for i, x := range v.List() {
				walk(x, append(path, i))
			}
		}
	}
	walk(orig, nil)
	require.Greater(t, len(paths), 100, "the example has values to replace")
	others := []func() *yamlsrc.Value{
		func() *yamlsrc.Value { return yamlsrc.NewList(yamlsrc.NewNumber(1)) },
		func() *yamlsrc.Value { return yamlsrc.MapOf("zz", yamlsrc.NewNumber(1)) },
		func() *yamlsrc.Value { return yamlsrc.NewString("s") },
		func() *yamlsrc.Value { return yamlsrc.NewNumber(7) },
	}
	t.Chdir(t.TempDir())
	statuses := map[int]int{}
	for _, path := range paths {
		for _, other := range others {
			doc, err := yamlsrc.Parse(data, "t.yaml")
			require.NoError(t, err)
			v := doc
			for _, k := range path[:len(path)-1] {
				if key, ok := k.(string); ok {
					v = v.Map().Get(key)
				} else {
					v = v.List()[k.(int)]
				}
			}
			if k, ok := path[len(path)-1].(string); ok {
				v.Map().Set(k, other())
			} else {
				v.List()[path[len(path)-1].(int)] = other()
			}
			require.NoError(t, os.WriteFile("t.yaml", yamlsrc.Marshal(doc), 0o644))
			code, _, stderr := runCLI("resolve", "--template", "t.yaml", "--output", "out.yaml")
			statuses[code]++
			what := fmt.Sprintf("%v := %s", path, yamlsrc.JSON(other()))
			lines, warnings := splitWarnings(stderr)
			for _, w := range warnings {
				require.Regexp(t, `^warning: t\.yaml:\d+:\d+: \S`, w, what)
			}
			if code == 0 {
				require.NoError(t, os.Remove("out.yaml"), what)
				continue
			}
			require.NotEmpty(t, lines, "%s: an error line", what)
			first := lines[0]
			require.Equal(t, 1, code, "%s: exit status: %s", what, first)
			// Only the outcomes of the solve are about the template as a
			// whole; everything else has a place.
			require.Regexp(t, `^error: t\.yaml(:\d+:\d+: |: The result is ambiguous|: Could not solve)`, first, what)
			require.NoFileExists(t, "out.yaml", what)
		}
	}
	require.NotZero(t, statuses[0], "some replacements resolve")
	require.NotZero(t, statuses[1], "some replacements are refused")
}
