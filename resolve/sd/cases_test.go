package sd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

// TestCorpus runs every case of the SD conformance corpus, read in place
// (style.md §5.3), through RunCase.
func TestCorpus(t *testing.T) { runCases(t, testkit.Corpus(t, "sd")) }

// ownCases are our own cases in the corpus format: situations the shared
// corpus does not show, with expectations written from the spec.
var ownCases = filepath.Join("..", "..", "testdata", "sd", "cases")

func TestOwnCases(t *testing.T) { runCases(t, ownCases) }

// runCases runs every case directory below root through RunCase.
func runCases(t *testing.T, root string) {
	for _, dir := range testkit.CaseDirs(t, root, CaseMarker) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel() // cases do not solve; each has its own temporary directory
			out := RunCase(context.Background(), dir)
			require.True(t, out.Pass, "case %s: %s\n--- %s\n%s--- %s\n%s", dir, out.Reason, out.WantName, out.Want, out.GotName, out.Got)
		})
	}
}

// example is the worked example of testdata/sd/example (README.md there).
var example = filepath.Join("..", "..", "testdata", "sd", "example")

// exampleFile returns the text of the worked example's file name, for the
// tests here and for TestMergeExamples, which merges the same files with
// the merge function alone.
func exampleFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(example, name))
	require.NoError(t, err)
	return string(b)
}

func TestWorkedExample(t *testing.T) {
	delta, full := exampleFile(t, "delta.json"), exampleFile(t, "sd.yml")

	t.Run("sd merge", func(t *testing.T) {
		res, err := MergeFiles(context.Background(), filepath.Join(example, "sd.yml"), []string{filepath.Join(example, "delta.json")}, MergeOptions{Mode: ExtendedMerge})
		require.NoError(t, err)
		testkit.Golden(t, filepath.Join(example, "expected-sd.yml"), res.Full)
		testkit.Golden(t, filepath.Join(example, "expected-delta_sd.yml"), res.Delta)
	})
	t.Run("pipeline", func(t *testing.T) {
		project := t.TempDir()
		sdPath := filepath.Join(project, "environments", "cluster-01", "env-01", "Inventory", "solution-descriptor")
		require.NoError(t, os.MkdirAll(sdPath, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sdPath, "sd.yml"), []byte(full), 0o644))
		vars := map[string]string{
			"CI_PROJECT_DIR": project, "CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01",
			"SD_SOURCE_TYPE": "json", "SD_MERGE_MODE": "extended-merge", "SD_DATA": delta,
		}
		_, err := Run(context.Background(), envOf(vars, nil), Options{})
		require.NoError(t, err)
		for file, golden := range map[string]string{"sd.yml": "expected-sd.yml", "delta_sd.yml": "expected-delta_sd.yml"} {
			got, err := os.ReadFile(filepath.Join(sdPath, file))
			require.NoError(t, err)
			require.Equal(t, exampleFile(t, golden), string(got), "%s of the pipeline run", file)
		}
	})
}

// writeCase writes a case directory with the given files.
func writeCase(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, files)
	return dir
}

// TestRunCaseVerdicts checks that the case runner fails cases whose
// expectations do not hold, for each kind of expectation of §13.2.
func TestRunCaseVerdicts(t *testing.T) {
	const params = "env:\n  SD_SOURCE_TYPE: json\n"
	const delta = "applications:\n  - version: a:2\n    deployPostfix: ns\n"
	const full = "applications:\n  - version: a:1\n    deployPostfix: ns\n"
	tests := []struct {
		name   string
		files  map[string]string
		reason string
	}{
		{name: "merge passes", files: map[string]string{
			"params.yaml": params, "full.yaml": full, "delta.yaml": delta, "expected.yaml": delta, "expected-delta.yaml": delta}},
		{name: "artifacts, args and {case}", files: map[string]string{
			"params.yaml": "env:\n  SD_SOURCE_TYPE: artifact\n  SD_VERSION: 's:1'\nargs: ['--artifact-dir', '{case}/artifacts', '--sd-delta=false']\nfull_file: sd.yaml\n",
			"full.yaml":   "not: read\n",
			"env/Inventory/solution-descriptor/delta_sd.yml": "stale\n",
			"artifacts/s-1.json":                             `{"applications": [{"version": "a:2", "deployPostfix": "ns"}]}`,
			"expected.yaml":                                  delta}},
		{name: "data_param", files: map[string]string{
			"params.yaml": params + "data_param: SD_DATA_MULTIPLE\n", "delta.yaml": "- " + "applications: [{version: 'a:2', deployPostfix: ns}]\n", "expected.yaml": delta}},
		{name: "wrong Full SD", files: map[string]string{
			"params.yaml": params, "full.yaml": full, "delta.yaml": delta, "expected.yaml": full, "expected-delta.yaml": delta},
			reason: "Inventory/solution-descriptor/sd.yml differs from expected.yaml"},
		{name: "wrong Delta SD", files: map[string]string{
			"params.yaml": params, "full.yaml": full, "delta.yaml": delta, "expected.yaml": delta, "expected-delta.yaml": full},
			reason: "Inventory/solution-descriptor/delta_sd.yml differs from expected-delta.yaml"},
		{name: "unexpected Delta SD", files: map[string]string{
			"params.yaml": params, "full.yaml": full, "delta.yaml": delta, "expected.yaml": delta},
			reason: "Inventory/solution-descriptor/delta_sd.yml exists, but the case expects no Delta SD"},
		{name: "missing Delta SD", files: map[string]string{
			"params.yaml": params, "delta.yaml": delta, "expected.yaml": delta, "expected-delta.yaml": delta},
			reason: "Inventory/solution-descriptor/delta_sd.yml was not written"},
		{name: "expected error, run succeeds", files: map[string]string{
			"params.yaml": params, "delta.yaml": delta, "errors.txt": "Something\n"},
			reason: `the run succeeded; expected the error "Something"`},
		{name: "other error", files: map[string]string{
			"params.yaml": params, "delta.yaml": "applications: [x]\n", "errors.txt": "Something\n"},
			reason: "the error differs"},
		{name: "expected error", files: map[string]string{
			"params.yaml": params, "delta.yaml": "applications: [x]\n",
			"errors.txt": "Application 'x' at SD[0].applications[0] doesn't have deployPostfix. <name>:<version> notation is supported only for extended merge. Current merge mode: basic-merge\n"}},
		{name: "unexpected failure", files: map[string]string{
			"params.yaml": params, "delta.yaml": "applications: [x]\n", "expected.yaml": delta},
			reason: "the run failed: Application 'x' at SD[0].applications[0] doesn't have deployPostfix."},
		{name: "missing warning", files: map[string]string{
			"params.yaml": params + "  SD_MERGE_MODE: basic-exclusion-merge\n", "full.yaml": full, "delta.yaml": "applications: [{version: 'b:1', deployPostfix: ns}]\n",
			"expected.yaml": full, "expected-delta.yaml": "applications:\n  - version: b:1\n    deployPostfix: ns\n"},
			reason: "the warnings differ"},
		{name: "unexpected warning expected", files: map[string]string{
			"params.yaml": params, "delta.yaml": delta, "expected.yaml": delta, "warnings.txt": "something\n"},
			reason: "the warnings differ"},
		{name: "bad args", files: map[string]string{
			"params.yaml": params + "args: [--bogus]\n", "delta.yaml": delta, "expected.yaml": delta},
			reason: `args: unknown argument "--bogus"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := RunCase(context.Background(), writeCase(t, tc.files))
			if tc.reason == "" {
				require.True(t, out.Pass, "case %s: %s\n%s\n%s", tc.name, out.Reason, out.Want, out.Got)
				return
			}
			require.False(t, out.Pass, "case %s passes, but should fail with %q", tc.name, tc.reason)
			require.Contains(t, out.Reason, tc.reason, "case %s", tc.name)
		})
	}
}

func TestCompactJSON(t *testing.T) {
	d := sdDoc(t, "x", "b: 2.10\n1: True\nc: [~, 'x\"y', 2024-01-31, {}]\nd: {}\n")
	var b strings.Builder
	compactJSON(&b, d.v)
	require.Equal(t, `{"b":2.10,"1":true,"c":[null,"x\"y","2024-01-31",{}],"d":{}}`, b.String())
}
