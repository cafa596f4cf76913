package sd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
)

func TestParseVersions(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "solution:0.64.1", want: []string{"solution:0.64.1"}},
		{in: `a:1\nb:2`, want: []string{"a:1", "b:2"}},
		{in: "a:1\nb:2\n", want: []string{"a:1", "b:2"}},
		{in: " a:1 ; b:2 ;", wantErr: "Invalid SD_VERSION: use only ONE delimiter type (comma, semicolon, space, or newline)"},
		{in: "a:1;b:2;", want: []string{"a:1", "b:2"}},
		{in: "a:1 b:2", want: []string{"a:1", "b:2"}},
		{in: "a:1,,b:2", want: []string{"a:1", "b:2"}},
		{in: "tool:1.0:build7", want: []string{"tool:1.0:build7"}},
		{in: "a:1, b:2", wantErr: "Invalid SD_VERSION: use only ONE delimiter type (comma, semicolon, space, or newline)"},
		{in: `a:1\nb:2,c:3`, wantErr: "Invalid SD_VERSION: use only ONE delimiter type (comma, semicolon, space, or newline)"},
		{in: ";;", wantErr: "No valid SD versions found in SD_VERSION"},
		{in: "solution", wantErr: "Invalid SD_VERSION format: 'solution'. Expected 'name:version'"},
		{in: ":1", wantErr: "Invalid SD_VERSION format: ':1'. Expected 'name:version'"},
		{in: "a:", wantErr: "Invalid SD_VERSION format: 'a:'. Expected 'name:version'"},
		{in: "..:1", wantErr: "Invalid SD_VERSION format: '..:1'. Expected 'name:version'"},
		{in: "a:.", wantErr: "Invalid SD_VERSION format: 'a:.'. Expected 'name:version'"},
		{in: "a/b:1", wantErr: "Invalid SD_VERSION format: 'a/b:1'. Expected 'name:version'"},
		{in: `a:1\2`, wantErr: `Invalid SD_VERSION format: 'a:1\2'. Expected 'name:version'`},
		// Entry by entry: the SNAPSHOT of the first entry before the format
		// of the second.
		{in: "a:1-SNAPSHOT,b", wantErr: "SNAPSHOT is not supported version of Solution Descriptor artifacts: 'a:1-SNAPSHOT'"},
		{in: "b,a:1-SNAPSHOT", wantErr: "Invalid SD_VERSION format: 'b'. Expected 'name:version'"},
		{in: "a:1-snapshot", want: []string{"a:1-snapshot"}},
	}
	for _, tc := range tests {
		got, err := parseVersions("SD_VERSION", value{text: tc.in, from: "$SD_VERSION"})
		if !wantResult(t, err, tc.wantErr, "SD_VERSION %q", tc.in) {
			continue
		}
		var texts []string
		for _, e := range got {
			texts = append(texts, e.text)
			require.Equal(t, e.text, e.name+":"+e.version, "entry %q", e.text)
		}
		require.Equal(t, tc.want, texts, "SD_VERSION %q", tc.in)
	}
}

func TestArtifactDir(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "artifacts", want: "artifacts"},
		{in: "/abs/artifacts", want: filepath.FromSlash("/abs/artifacts")},
		{in: "file:///abs/my%20artifacts", want: filepath.FromSlash("/abs/my artifacts")},
		{in: "FILE://localhost/abs", want: filepath.FromSlash("/abs")},
		{in: "  ", wantErr: "SD_SOURCE_TYPE is set to 'artifact', but no artifact location is configured (SD_ARTIFACT_DIR or --artifact-dir)"},
		{in: "https://registry.example.com/maven", wantErr: "Unsupported SD_ARTIFACT_DIR: 'https://registry.example.com/maven'. Use a local directory or a file:// URL"},
		{in: "file://host/abs", wantErr: "Unsupported SD_ARTIFACT_DIR: 'file://host/abs'. Use a local directory or a file:// URL"},
		{in: "file://", wantErr: "Unsupported SD_ARTIFACT_DIR: 'file://'. Use a local directory or a file:// URL"},
	}
	for _, tc := range tests {
		got, err := artifactDir(value{text: tc.in, from: "$SD_ARTIFACT_DIR"})
		if !wantResult(t, err, tc.wantErr, "SD_ARTIFACT_DIR %q", tc.in) {
			continue
		}
		require.Equal(t, tc.want, got, "SD_ARTIFACT_DIR %q", tc.in)
	}
}

func TestFromJSON(t *testing.T) {
	shape := "SD_DATA_MULTIPLE must be a non-empty list of SD dictionaries or a single SD."
	tests := []struct {
		in      string
		n       int
		wantErr string
		pos     diag.Pos
	}{
		{in: `{"applications": []}`, n: 1},
		{in: ` [{"a": 1}, {}] `, n: 2},
		{in: `{}`, wantErr: shape},
		{in: `[]`, wantErr: shape},
		{in: `[{"a": 1}, null]`, wantErr: shape},
		{in: `"x"`, wantErr: shape},
		{in: `{"a": 1,}`, wantErr: "SD_DATA_MULTIPLE is not valid JSON: unexpected character '}', expected a string key", pos: diag.Pos{File: "$SD_DATA_MULTIPLE", Line: 1, Col: 9}},
		{in: "{\"a\": 1,\n \"a\": 2}", wantErr: `SD_DATA_MULTIPLE is not valid JSON: duplicate key "a"`, pos: diag.Pos{File: "$SD_DATA_MULTIPLE", Line: 2, Col: 2}},
	}
	for _, tc := range tests {
		docs, err := fromJSON("SD_DATA_MULTIPLE", value{text: tc.in, from: "$SD_DATA_MULTIPLE"})
		if tc.wantErr != "" {
			require.EqualError(t, err, tc.wantErr, "SD_DATA_MULTIPLE %q", tc.in)
			if tc.pos.Line > 0 {
				d, _ := diag.As(err)
				require.Equal(t, tc.pos, d.Pos, "position for %q", tc.in)
			}
			continue
		}
		require.NoError(t, err, "SD_DATA_MULTIPLE %q", tc.in)
		require.Len(t, docs, tc.n, "SDs in %q", tc.in)
	}
}

func TestReadArtifact(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"sol/1.0/sol-1.0.json": `{"applications": [], "from": "maven"}`,
		"sol-1.0.json":         `{"applications": [], "from": "flat"}`,
		"sol-2.0.json":         `{"applications": [], "from": "flat"}`,
		"list-1.json":          `[{"applications": []}]`,
		"empty-1.json":         `{}`,
		"bad-1.json":           `{"a": }`,
	})
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "dir", "1", "dir-1.json"), 0o755))

	tests := []struct {
		name, version, from, wantErr string
	}{
		{name: "sol", version: "1.0", from: "maven"},
		{name: "sol", version: "2.0", from: "flat"},
		{name: "sol", version: "3.0", wantErr: "Solution descriptor content was not received for sol:3.0"},
		{name: "dir", version: "1", wantErr: "Solution descriptor content was not received for dir:1"},
		{name: "list", version: "1", wantErr: "Solution descriptor artifact list:1 must contain a single SD object"},
		{name: "empty", version: "1", wantErr: "Solution descriptor artifact empty:1 must contain a single SD object"},
		{name: "bad", version: "1", wantErr: "Solution descriptor artifact bad:1 is not valid JSON: unexpected character '}', expected a JSON value"},
	}
	for _, tc := range tests {
		d, err := readArtifact(dir, entry{text: tc.name + ":" + tc.version, name: tc.name, version: tc.version})
		if !wantResult(t, err, tc.wantErr, "artifact %s:%s", tc.name, tc.version) {
			continue
		}
		require.Equal(t, tc.from, d.v.Get("from").Str(), "layout of %s:%s", tc.name, tc.version)
	}
}

// FuzzParseVersions: SD_VERSION parsing never panics, accepts only entries
// that name a name and a version usable in paths, and rejects with one of
// the messages of §3.4.
func FuzzParseVersions(f *testing.F) {
	for _, s := range []string{"solution:0.64.1", `a:1\nb:2`, "a:1,b:2", "a:1 ; b:2", ",,", "a:1-SNAPSHOT", "../x:1", "a:b:c", " \t", "a:1\r\nb:2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		entries, err := parseVersions("SD_VERSION", value{text: s, from: "$SD_VERSION"})
		if err != nil {
			msg := err.Error()
			ok := strings.HasPrefix(msg, "Invalid SD_VERSION") || strings.HasPrefix(msg, "No valid SD versions found") || strings.HasPrefix(msg, "SNAPSHOT is not supported")
			require.True(t, ok, "unexpected message %q for %q", msg, s)
			d, _ := diag.As(err)
			require.Equal(t, "$SD_VERSION", d.Pos.File)
			return
		}
		require.NotEmpty(t, entries)
		for _, e := range entries {
			require.True(t, validPart(e.name) && validPart(e.version), "entry %q of %q", e.text, s)
			require.NotContains(t, e.version, "SNAPSHOT")
			require.Equal(t, e.text, strings.TrimSpace(e.text))
			p := filepath.Join("dir", e.name, e.version)
			require.True(t, filepath.IsLocal(p) && strings.HasPrefix(filepath.Clean(p), "dir"+string(os.PathSeparator)), "entry %q escapes the artifact directory", e.text)
		}
	})
}
