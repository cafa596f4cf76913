package sd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

var fuzzModes = []Mode{BasicMerge, BasicExclusionMerge, ExtendedMerge, Replace}

// fuzzSDSeeds are SD_DATA values and Full SDs that reach the merge modes'
// special cases.
var fuzzSDSeeds = []struct{ data, full string }{
	{`{"applications":[{"version":"a:1","deployPostfix":"ns"}]}`, ""},
	{`[{"applications":[{"version":"a:1","deployPostfix":"ns","alias":"x"}]},{"applications":[{"version":"a:2","deployPostfix":"ns"}]}]`, "applications: []\n"},
	{`{"version":2.1,"applications":["a:1","b:2"],"deployGraph":[{"chunkName":"w","apps":["a","b"]}]}`, "version: 2.1\napplications: [a:0]\ndeployGraph: [{chunkName: w, apps: [a]}]\n"},
	{`{"applications":[{"version":"a:1","deployPostfix":"env-1"}],"userData":{"useDeployPostfixAsNamespace":true}}`, ""},
	{`{"applications":[{"version":"a:1","deployPostfix":"ns"},{"version":"a:1","deployPostfix":"ns"}]}`, "applications:\n  - {version: a:1, deployPostfix: ns}\n"},
	{`{"applications":[{"version":"a","deployPostfix":""}],"deployGraph":{}}`, "- x\n"},
	{`{"applications":[]}`, "applications: [x, {version: 'b:1'}]\n---\n"},
}

// FuzzRun: a run on any SD_DATA, mode and Full SD never panics; a failing
// run reports a diagnostic and changes no file; a successful one writes
// files that read back as SDs valid under the mode's rules.
func FuzzRun(f *testing.F) {
	for _, s := range fuzzSDSeeds {
		for i := range fuzzModes {
			f.Add(s.data, s.full, uint8(i), false)
		}
		f.Add(s.data, s.full, uint8(0), true)
	}
	f.Fuzz(func(t *testing.T, data, full string, modeIndex uint8, overwrite bool) {
		mode := fuzzModes[int(modeIndex)%len(fuzzModes)]
		files := map[string]string{"Namespaces/ns/namespace.yml": "name: env-1\n"}
		if full != "" {
			files["Inventory/solution-descriptor/sd.yml"] = full
		}
		env := newEnv(t, files)
		before := readTree(t, env)
		vars := map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data, "SD_MERGE_MODE": string(mode)}
		if overwrite && mode != Replace {
			vars["SD_DELTA"] = "false"
		}
		res, _, err := runIn(env, vars)
		if err != nil {
			d, ok := diag.As(err)
			require.True(t, ok, "error %v is not a diagnostic", err)
			require.NotEqual(t, "internal", d.Code, "internal error: %s\n%v", d.Message, d.Related)
			require.NotEmpty(t, d.Message)
			require.Equal(t, before, readTree(t, env), "a failing run changed files")
			return
		}
		after := readTree(t, env)
		for _, rel := range res.Written {
			v, err := parseCore([]byte(after[rel]), rel)
			require.NoError(t, err, "%s does not read back:\n%s", rel, after[rel])
			out := &doc{v: v, label: "Full SD", file: rel}
			require.True(t, v.IsMap(), "%s is not a mapping", rel)
			require.NoError(t, validate(out, mode), "%s is not valid under %s:\n%s", rel, mode, after[rel])
		}
		for _, name := range deltaNames {
			rel := sdDir + "/" + name
			if _, ok := after[rel]; ok {
				require.Contains(t, res.Written, rel, "a stale Delta SD was left")
			}
		}
	})
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

// FuzzMergeFiles: the standalone merge never panics on any pair of YAML
// documents and gives a diagnostic when it refuses them.
func FuzzMergeFiles(f *testing.F) {
	for _, s := range fuzzSDSeeds {
		f.Add(s.full, s.data, uint8(2))
	}
	f.Fuzz(func(t *testing.T, full, delta string, modeIndex uint8) {
		dir := t.TempDir()
		fp, dp := filepath.Join(dir, "sd.yml"), filepath.Join(dir, "delta.yaml")
		require.NoError(t, os.WriteFile(fp, []byte(full), 0o644))
		require.NoError(t, os.WriteFile(dp, []byte(delta), 0o644))
		res, err := MergeFiles(context.Background(), fp, []string{dp}, MergeOptions{Mode: fuzzModes[int(modeIndex)%len(fuzzModes)]})
		if err != nil {
			d, ok := diag.As(err)
			require.True(t, ok, "error %v is not a diagnostic", err)
			require.NotEqual(t, "internal", d.Code, "internal error: %s\n%v", d.Message, d.Related)
			return
		}
		_, err = parseCore(res.Full, "out.yaml")
		require.NoError(t, err, "the result does not read back:\n%s", res.Full)
	})
}
