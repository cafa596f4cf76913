package sd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// namespaceDir writes Namespaces/<folder>/namespace.yml files.
func namespaceDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Namespaces")
	for folder, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, folder), 0o755))
		if content != "-" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, folder, "namespace.yml"), []byte(content), 0o644))
		}
	}
	return dir
}

func TestNamespaceTransform(t *testing.T) {
	dir := namespaceDir(t, map[string]string{
		"core":  "name: env-1-core\n",
		"bss":   "name: env-1-bss\nlabels: {team: bss}\n",
		"oss":   "labels: {team: oss}\n",
		"bad":   "name: [\n",
		"num":   "name: 5\n",
		"empty": "-",
	})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file.yml"), []byte("name: x\n"), 0o644))
	tests := []struct {
		name, src, want, wantErr string
	}{
		{name: "transformed, userData removed",
			src:  "applications:\n  - {version: a:1, deployPostfix: env-1-core}\n  - b:1\n  - {version: c:1, deployPostfix: 5}\nuserData: {useDeployPostfixAsNamespace: true}\n",
			want: "applications:\n  - version: a:1\n    deployPostfix: core\n  - b:1\n  - version: c:1\n    deployPostfix: 5\n"},
		{name: "marker removed, other keys kept",
			src:  "userData: {a: 1, useDeployPostfixAsNamespace: True, b: 2}\napplications:\n  - {version: a:1, deployPostfix: env-1-bss}\n",
			want: "userData:\n  a: 1\n  b: 2\napplications:\n  - version: a:1\n    deployPostfix: bss\n"},
		{name: "the string 'true' is no marker",
			src:  "applications:\n  - {version: a:1, deployPostfix: env-1-core}\nuserData: {useDeployPostfixAsNamespace: 'true'}\n",
			want: "applications:\n  - version: a:1\n    deployPostfix: env-1-core\nuserData:\n  useDeployPostfixAsNamespace: 'true'\n"},
		{name: "no match",
			src:     "applications:\n  - {version: a:1, deployPostfix: env-1-core}\n  - {version: a:1, deployPostfix: env-1-oss}\nuserData: {useDeployPostfixAsNamespace: true}\n",
			wantErr: "No replacement found for deployPostfix 'env-1-oss' in SD[3], cannot continue."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warnings []string
			ns := &namespaces{dir: dir}
			d := sdDoc(t, "SD[3]", tc.src)
			err := ns.transform(d, 3, func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) })
			if !wantResult(t, err, tc.wantErr) {
				return
			}
			out, err := Format(d.v)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(out), "transform of %q", tc.src)
			if marked(sdDoc(t, "x", tc.src).v) {
				require.Equal(t, []string{
					"Namespace file Namespaces/bad/namespace.yml has no valid 'name'; it is skipped",
					"Namespace file Namespaces/num/namespace.yml has no valid 'name'; it is skipped",
					"Namespace file Namespaces/oss/namespace.yml has no valid 'name'; it is skipped",
				}, warnings, "warnings, in folder order")
			} else {
				require.Empty(t, warnings, "an unmarked SD does not scan the Namespaces")
			}
		})
	}
}

func TestNamespaceBuild(t *testing.T) {
	t.Run("declared twice", func(t *testing.T) {
		dir := namespaceDir(t, map[string]string{"c": "name: n\n", "a": "name: n\n", "b": "name: m\n", "d": "name: n\n"})
		ns := &namespaces{dir: dir}
		err := ns.build(func(*diag.Diagnostic) {})
		require.EqualError(t, err, "Namespace name 'n' is declared in more than one Namespace folder: a, c, d")
	})
	t.Run("no Namespaces directory", func(t *testing.T) {
		ns := &namespaces{dir: filepath.Join(t.TempDir(), "Namespaces")}
		require.NoError(t, ns.build(func(*diag.Diagnostic) {}))
		require.Empty(t, ns.names)
	})
	t.Run("built once", func(t *testing.T) {
		dir := namespaceDir(t, map[string]string{"core": "name: env-1-core\n"})
		ns := &namespaces{dir: dir}
		src := "applications:\n  - {version: a:1, deployPostfix: env-1-core}\nuserData: {useDeployPostfixAsNamespace: true}\n"
		require.NoError(t, ns.transform(sdDoc(t, "SD[0]", src), 0, func(*diag.Diagnostic) {}))
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, ns.transform(sdDoc(t, "SD[1]", src), 1, func(*diag.Diagnostic) {}), "the map of the first marked SD serves the second")
	})
}
