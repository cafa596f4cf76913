package suite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeTree creates files (slash paths relative to root) with the given
// contents; a path ending in "/" creates an empty directory.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if name[len(name)-1] == '/' {
			require.NoError(t, os.MkdirAll(p, 0o755), "mkdir %s", name)
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755), "mkdir for %s", name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644), "write %s", name)
	}
}

func casePaths(cases []Case) []string {
	out := []string{}
	for _, c := range cases {
		out = append(out, c.Path+" ["+c.Runner.Format()+"]")
	}
	return out
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "groups and default names",
			files: map[string]string{
				"g1/a/template.yaml":                  "",
				"g1/a/expected.yaml":                  "",
				"g1/b/vst.yaml":                       "",
				"g1/b/est.yaml":                       "",
				"g1/c/test.yaml":                      "error: x",
				"g1/d/variable-service-template.yaml": "",
				"g2/e/service-template.yaml":          "",
				"g2/e/expected.yaml":                  "",
				"g2/notes/README.md":                  "",
			},
			want: []string{"suite/g1/a [vintner]", "suite/g1/b [vintner]", "suite/g1/c [vintner]", "suite/g1/d [vintner]", "suite/g2/e [vintner]"},
		},
		{
			name: "dot directories are ignored at every level",
			files: map[string]string{
				".hidden/a/test.yaml": "",
				"g/.b/test.yaml":      "",
				"g/c/test.yaml":       "",
			},
			want: []string{"suite/g/c [vintner]"},
		},
		{
			name: "disabled cases and groups are skipped",
			files: map[string]string{
				"g/a---disabled/test.yaml":   "",
				"g/b/test.yaml":              "",
				"off---disabled/c/test.yaml": "",
			},
			want: []string{"suite/g/b [vintner]"},
		},
		{
			name: "only siblings restrict",
			files: map[string]string{
				"g/a---only/test.yaml":            "",
				"g/b/test.yaml":                   "",
				"g/c---disabled/test.yaml":        "",
				"h/d/test.yaml":                   "",
				"h/e---only/test.yaml":            "",
				"h/f---only---disabled/test.yaml": "",
			},
			want: []string{"suite/g/a---only [vintner]", "suite/h/e---only [vintner]"},
		},
		{
			name: "a group with shared files is not a case",
			files: map[string]string{
				"g/template.yaml":          "",
				"g/expected.yaml":          "",
				"g/template.host.yaml":     "",
				"g/a/test.yaml":            "template: ../template.yaml",
				"g/b---disabled/test.yaml": "",
			},
			want: []string{"suite/g/a [vintner]"},
		},
		{
			name: "a case may hold data directories",
			files: map[string]string{
				"g/a/template.yaml":    "",
				"g/a/expected.yaml":    "",
				"g/a/files/script.sh":  "",
				"g/a/files/more/x.txt": "",
			},
			want: []string{"suite/g/a [vintner]"},
		},
		{
			name: "examples with tests",
			files: map[string]string{
				"ex/variable-service-template.yaml":     "",
				"ex/tests/one/test.yaml":                "presets: a",
				"ex/tests/one/expected.yaml":            "",
				"ex/tests/two---disabled/expected.yaml": "",
			},
			want: []string{"suite/ex/tests/one [vintner]"},
		},
		{
			name: "other formats",
			files: map[string]string{
				"toskeriser/all--default/args.yaml":       "",
				"toskeriser/all--default/expected.yaml":   "",
				"toskeriser/catalogs/main.json":           "",
				"sd/basic/params.yaml":                    "",
				"sd/basic/expected.yaml":                  "",
				"sd/basic/env/Namespaces/x/namespace.yml": "",
			},
			want: []string{"suite/sd/basic [sd]", "suite/toskeriser/all--default [toskeriser]"},
		},
		{
			name:  "empty",
			files: map[string]string{"empty/": ""},
			want:  []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "suite")
			writeTree(t, root, tc.files)
			cases, err := Discover([]string{root}, DefaultRunners())
			require.NoError(t, err)
			require.Equal(t, tc.want, casePaths(cases), "cases of %v", tc.files)
			for _, c := range cases {
				require.Equal(t, filepath.Join(filepath.Dir(root), filepath.FromSlash(c.Path)), c.Dir, "dir of %s", c.Path)
			}
		})
	}
}

func TestDiscoverRootAndArguments(t *testing.T) {
	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"one/test.yaml":                 "",
		"many/g/a/test.yaml":            "",
		"many/g/b/test.yaml":            "",
		"many/x---disabled/c/test.yaml": "",
		"file.txt":                      "",
	})
	t.Run("a case given directly", func(t *testing.T) {
		cases, err := Discover([]string{filepath.Join(tmp, "one")}, DefaultRunners())
		require.NoError(t, err)
		require.Equal(t, []string{"one [vintner]"}, casePaths(cases))
	})
	t.Run("a disabled directory given directly still runs", func(t *testing.T) {
		cases, err := Discover([]string{filepath.Join(tmp, "many", "x---disabled")}, DefaultRunners())
		require.NoError(t, err)
		require.Equal(t, []string{"x---disabled/c [vintner]"}, casePaths(cases))
	})
	t.Run("several directories merge sorted without duplicates", func(t *testing.T) {
		cases, err := Discover([]string{filepath.Join(tmp, "one"), filepath.Join(tmp, "many"), filepath.Join(tmp, "many", "g")}, DefaultRunners())
		require.NoError(t, err)
		require.Equal(t, []string{"many/g/a [vintner]", "many/g/b [vintner]", "one [vintner]"}, casePaths(cases))
	})
	t.Run("relative dot directory takes the working directory's name", func(t *testing.T) {
		t.Chdir(filepath.Join(tmp, "many"))
		cases, err := Discover([]string{"."}, DefaultRunners())
		require.NoError(t, err)
		require.Equal(t, []string{"many/g/a [vintner]", "many/g/b [vintner]"}, casePaths(cases))
		require.Equal(t, filepath.Join("g", "a"), cases[0].Dir)
	})
	t.Run("missing directory", func(t *testing.T) {
		_, err := Discover([]string{filepath.Join(tmp, "nope")}, DefaultRunners())
		require.Error(t, err)
		require.Contains(t, err.Error(), "nope: no such file or directory")
	})
	t.Run("not a directory", func(t *testing.T) {
		_, err := Discover([]string{filepath.Join(tmp, "file.txt")}, DefaultRunners())
		require.Error(t, err)
		require.Contains(t, err.Error(), "file.txt: not a directory")
	})
}

func TestEffective(t *testing.T) {
	tests := []struct {
		names []string
		want  map[string]bool
	}{
		{[]string{"a", ".b", "c---disabled"}, map[string]bool{"a": true}},
		{[]string{"a", "b---only", ".c---only"}, map[string]bool{"b---only": true}},
		{nil, map[string]bool{}},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, Effective(tc.names), "names %v", tc.names)
	}
}
