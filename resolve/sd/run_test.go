package sd

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// newEnv makes an environment directory with the given files (paths
// relative to it) and returns it.
func newEnv(t *testing.T, files map[string]string) string {
	t.Helper()
	env := filepath.Join(t.TempDir(), "environments", "c", "e")
	require.NoError(t, os.MkdirAll(env, 0o755))
	testkit.WriteFiles(t, env, files)
	return env
}

// readTree returns the files under dir by relative slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := snapshot(dir)
	require.NoError(t, err)
	return files
}

// runIn runs the subcommand on env with the variables vars.
func runIn(env string, vars map[string]string) (*Result, []string, error) {
	var warnings []string
	res, err := Run(context.Background(), envOf(vars, map[string]string{"env-dir": env}),
		Options{Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) }})
	return res, warnings, err
}

const fullSD = "version: 2.1\napplications:\n  - version: a:1\n    deployPostfix: ns\n"

func TestRunResult(t *testing.T) {
	env := newEnv(t, map[string]string{
		"Inventory/solution-descriptor/sd.yaml":      fullSD,
		"Inventory/solution-descriptor/delta_sd.yml": "stale\n",
	})
	res, warnings, err := runIn(env, map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": `{"applications":[{"version":"a:2","deployPostfix":"ns"}]}`})
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Equal(t, []string{"Inventory/solution-descriptor/sd.yaml", "Inventory/solution-descriptor/delta_sd.yaml"}, res.Written)
	require.Equal(t, []string{"Inventory/solution-descriptor/delta_sd.yml"}, res.Removed)
	require.Equal(t, BasicMerge, res.Mode)
	require.False(t, res.Overwrite)
	require.Equal(t, map[string]string{
		"Inventory/solution-descriptor/sd.yaml":       "applications:\n  - version: a:2\n    deployPostfix: ns\n",
		"Inventory/solution-descriptor/delta_sd.yaml": "applications:\n  - version: a:2\n    deployPostfix: ns\n",
	}, readTree(t, env))
}

// TestRunDeterministic runs the same merge twice and compares the bytes.
func TestRunDeterministic(t *testing.T) {
	vars := map[string]string{
		"SD_SOURCE_TYPE": "json", "SD_MERGE_MODE": "extended-merge",
		"SD_DATA": `{"version":2.1,"applications":[{"version":"b:1","deployPostfix":"ns","meta":{"z":1,"1":"x","a":null,"0":"2.10"}}],"deployGraph":[{"chunkName":"w","apps":["b:ns"]}]}`,
	}
	full := "version: 2.1\napplications:\n  - {version: a:1, deployPostfix: ns}\ndeployGraph:\n  - {chunkName: w, apps: ['a:ns']}\nuserData: {2: two, 1: one}\n"
	var outs []map[string]string
	for range 2 {
		env := newEnv(t, map[string]string{"Inventory/solution-descriptor/sd.yml": full})
		_, _, err := runIn(env, vars)
		require.NoError(t, err)
		outs = append(outs, readTree(t, env))
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, "version: 2.1\napplications:\n  - version: a:1\n    deployPostfix: ns\n  - version: b:1\n    deployPostfix: ns\n    meta:\n      z: 1\n      '1': x\n      a: null\n      '0': '2.10'\n"+
		"deployGraph:\n  - chunkName: w\n    apps:\n      - a:ns\n      - b:ns\nuserData:\n  2: two\n  1: one\n", outs[0]["Inventory/solution-descriptor/sd.yml"])
}

// TestRunWriteFailureChangesNothing makes the last file operation fail (a
// stale Delta SD that is a non-empty directory) and checks that the files
// written before it are restored.
func TestRunWriteFailureChangesNothing(t *testing.T) {
	env := newEnv(t, map[string]string{
		"Inventory/solution-descriptor/sd.yml":          fullSD,
		"Inventory/solution-descriptor/delta_sd.yml":    "old delta\n",
		"Inventory/solution-descriptor/delta_sd.yaml/x": "in the way\n",
	})
	before := readTree(t, env)
	_, _, err := runIn(env, map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": `{"applications":[{"version":"a:2","deployPostfix":"ns"}]}`})
	require.Error(t, err)
	require.Contains(t, err.Error(), "delta_sd.yaml: cannot write")
	require.Equal(t, before, readTree(t, env), "a failing write changes nothing")
}

func TestRunCreatesNoDirectoryOnFailure(t *testing.T) {
	env := newEnv(t, nil)
	_, _, err := runIn(env, map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": `{"applications":[{"version":"a:2"}]}`})
	require.Error(t, err)
	entries, err := os.ReadDir(env)
	require.NoError(t, err)
	require.Empty(t, entries, "a failing run creates no directory")
}

func TestRunWarningsBeforeError(t *testing.T) {
	env := newEnv(t, map[string]string{"Inventory/solution-descriptor/sd.yml": "applications: [x]\n"})
	_, warnings, err := runIn(env, map[string]string{
		"SD_SOURCE_TYPE": "json", "SD_MERGE_MODE": "basic-exclusion-merge",
		"SD_DATA": `[{"applications":[]},{"applications":[{"version":"d:1","deployPostfix":"ns"}]}]`,
	})
	require.Error(t, err)
	require.Equal(t, "Application 'x' at Full SD.applications[0] doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: basic-exclusion-merge", err.Error())
	require.Equal(t, []string{"SD[1]: New application 'd:1' with deployPostfix 'ns' ignored (not present in Full SD)"}, warnings)
}

func TestRunFullSDErrors(t *testing.T) {
	data := `{"applications":[{"version":"a:2","deployPostfix":"ns"}]}`
	tests := []struct {
		name, full, want, warning string
	}{
		{name: "two documents", full: "applications: []\n---\napplications: []\n", want: "Full SD (Inventory/solution-descriptor/sd.yml) is not valid YAML: line 2: expected a single YAML document, found another one"},
		{name: "duplicate key", full: "applications: []\napplications: []\n", want: `Full SD (Inventory/solution-descriptor/sd.yml) is not valid YAML: line 2: mapping key "applications" already defined at line 1`},
		{name: "a string", full: "''\n", want: "Full SD (Inventory/solution-descriptor/sd.yml) is not a mapping"},
		{name: "comments only", full: "# nothing yet\n", warning: "Full SD (Inventory/solution-descriptor/sd.yml) is empty; it is treated as absent"},
		{name: "null", full: "~\n", warning: "Full SD (Inventory/solution-descriptor/sd.yml) is empty; it is treated as absent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t, map[string]string{"Inventory/solution-descriptor/sd.yml": tc.full})
			res, warnings, err := runIn(env, map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data})
			if tc.want != "" {
				require.EqualError(t, err, tc.want, "Full SD %q", tc.full)
				return
			}
			require.NoError(t, err, "Full SD %q", tc.full)
			require.Equal(t, []string{tc.warning}, warnings)
			require.Equal(t, []string{"Inventory/solution-descriptor/sd.yml"}, res.Written, "a first write, no Delta SD")
		})
	}
}

func TestRunOrderOfChecks(t *testing.T) {
	// Each step's error wins over every later one (§5).
	env := newEnv(t, map[string]string{
		"Inventory/solution-descriptor/sd.yml":  fullSD,
		"Inventory/solution-descriptor/sd.yaml": fullSD,
	})
	vars := map[string]string{"SD_MERGE_MODE": "x", "SD_DELTA": "y", "SD_SOURCE_TYPE": "artifact", "SD_VERSION": "a"}
	steps := []struct{ drop, want string }{
		{"SD_MERGE_MODE", "Invalid SD_MERGE_MODE: 'x'. Valid values are: basic-merge, basic-exclusion-merge, extended-merge, replace"},
		{"SD_DELTA", "Invalid SD_DELTA: 'y'. Valid values are: true, false"},
		{"", "Both sd.yml and sd.yaml exist in Inventory/solution-descriptor; keep only one"},
	}
	for _, s := range steps {
		_, _, err := runIn(env, vars)
		require.EqualError(t, err, s.want)
		delete(vars, s.drop)
	}
	require.NoError(t, os.Remove(filepath.Join(env, "Inventory", "solution-descriptor", "sd.yaml")))
	_, _, err := runIn(env, vars)
	require.EqualError(t, err, "Invalid SD_VERSION format: 'a'. Expected 'name:version'")
	vars["SD_VERSION"] = "a:1"
	_, _, err = runIn(env, vars)
	require.EqualError(t, err, "SD_SOURCE_TYPE is set to 'artifact', but no artifact location is configured (SD_ARTIFACT_DIR or --artifact-dir)")
}

func TestRunCancelled(t *testing.T) {
	env := newEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, envOf(map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": `{"applications":[]}`}, map[string]string{"env-dir": env}), Options{})
	require.ErrorIs(t, err, context.Canceled)
}

func TestInternalError(t *testing.T) {
	err := internalError("boom")
	d := testkit.Diagnostic(t, err)
	require.Equal(t, "internal", d.Code)
	require.True(t, strings.HasPrefix(d.Message, "internal error: boom"), d.Message)
	require.NotEmpty(t, d.Related)
	require.Contains(t, d.Related[0].Message, "goroutine", "the stack trace, for --debug")
}

// TestDeltaDefaultModeNote: SD_DELTA=true without a merge mode merges with
// basic-merge (sd-merge.md §3.3: SD_DELTA does not choose the mode) and
// says so through Options.Note, never as a warning (§13.2: the corpus case
// params-sd-delta-true-default-mode expects none). The files are those of
// the same run without SD_DELTA.
func TestDeltaDefaultModeNote(t *testing.T) {
	const data = `{"applications":[{"version":"a:2","deployPostfix":"ns"},{"version":"b:1","deployPostfix":"ns"}]}`
	const envNote = "SD_DELTA=true without SD_MERGE_MODE (or SD_REPO_MERGE_MODE, --merge-mode): merging with basic-merge; SD_DELTA does not choose the mode (in EnvGene, SD_DELTA=true meant extended-merge)"
	const flagNote = "--sd-delta true without SD_MERGE_MODE (or SD_REPO_MERGE_MODE, --merge-mode): merging with basic-merge; SD_DELTA does not choose the mode (in EnvGene, SD_DELTA=true meant extended-merge)"
	tests := []struct {
		name  string
		vars  map[string]string
		flags map[string]string
		notes []string
	}{
		{name: "SD_DELTA=true alone", vars: map[string]string{"SD_DELTA": " TRUE "}, notes: []string{envNote}},
		{name: "--sd-delta true alone", flags: map[string]string{"sd-delta": "true"}, notes: []string{flagNote}},
		{name: "an empty --merge-mode is no mode", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": "extended-merge"}, flags: map[string]string{"merge-mode": ""}, notes: []string{envNote}},
		{name: "blank mode variables are no mode", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": " ", "SD_REPO_MERGE_MODE": ""}, notes: []string{envNote}},
		{name: "no SD_DELTA", vars: map[string]string{}},
		{name: "SD_DELTA=true with SD_MERGE_MODE", vars: map[string]string{"SD_DELTA": "true", "SD_MERGE_MODE": "basic-merge"}},
		{name: "SD_DELTA=true with SD_REPO_MERGE_MODE", vars: map[string]string{"SD_DELTA": "true", "SD_REPO_MERGE_MODE": "basic-merge"}},
		{name: "SD_DELTA=true with --merge-mode", vars: map[string]string{"SD_DELTA": "true"}, flags: map[string]string{"merge-mode": "basic-merge"}},
	}
	full := map[string]string{"Inventory/solution-descriptor/sd.yml": fullSD}
	want := func(t *testing.T) map[string]string {
		env := newEnv(t, full)
		_, err := Run(context.Background(), envOf(map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}, map[string]string{"env-dir": env}), Options{})
		require.NoError(t, err, "the run without SD_DELTA")
		return readTree(t, env)
	}(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t, full)
			vars := map[string]string{"SD_SOURCE_TYPE": "json", "SD_DATA": data}
			maps.Copy(vars, tc.vars)
			flags := map[string]string{"env-dir": env}
			maps.Copy(flags, tc.flags)
			var warnings, notes []string
			res, err := Run(context.Background(), envOf(vars, flags), Options{
				Warn: func(d *diag.Diagnostic) { warnings = append(warnings, d.Message) },
				Note: func(d *diag.Diagnostic) { notes = append(notes, d.Message) },
			})
			require.NoError(t, err, "%s: vars %v flags %v", tc.name, tc.vars, tc.flags)
			require.Empty(t, warnings, "%s: no warning", tc.name)
			require.Equal(t, tc.notes, notes, "%s: notes", tc.name)
			require.Equal(t, BasicMerge, res.Mode, "%s: mode", tc.name)
			require.False(t, res.Overwrite, "%s: a merge", tc.name)
			require.Equal(t, want, readTree(t, env), "%s: the same files as without SD_DELTA", tc.name)
		})
	}
}

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
			d := testkit.Diagnostic(t, err, "error %v is not a diagnostic", err)
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
