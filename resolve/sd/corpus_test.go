package sd

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

// corpusCases lists the case directories of the SD conformance corpus, read
// in place (style.md §5.3), or skips the test when the corpus is absent.
func corpusCases(t *testing.T) []string {
	t.Helper()
	corpus := testkit.Corpus(t, "sd")
	matches, err := filepath.Glob(filepath.Join(corpus, "*", CaseMarker))
	require.NoError(t, err)
	require.NotEmpty(t, matches, "no cases in %s", corpus)
	var dirs []string
	for _, m := range matches {
		dirs = append(dirs, filepath.Dir(m))
	}
	sort.Strings(dirs)
	return dirs
}

// TestCorpus runs every case of the corpus through RunCase.
func TestCorpus(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel() // cases do not solve; each has its own temporary directory
			out := RunCase(context.Background(), dir)
			assert.True(t, out.Pass, "case %s: %s\n--- %s\n%s--- %s\n%s", dir, out.Reason, out.WantName, out.Want, out.GotName, out.Got)
		})
	}
}

// ownCases are our own cases in the corpus format: situations the shared
// corpus does not show, with expectations written from the spec.
var ownCases = filepath.Join("..", "..", "testdata", "sd", "cases")

func TestOwnCases(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(ownCases, "*", CaseMarker))
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no cases in %s", ownCases)
	for _, m := range dirs {
		dir := filepath.Dir(m)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel() // cases do not solve; each has its own temporary directory
			out := RunCase(context.Background(), dir)
			assert.True(t, out.Pass, "case %s: %s\n--- %s\n%s--- %s\n%s", dir, out.Reason, out.WantName, out.Want, out.GotName, out.Got)
		})
	}
}

// example is the worked example of testdata/sd/example (README.md there).
var example = filepath.Join("..", "..", "testdata", "sd", "example")

func TestWorkedExample(t *testing.T) {
	delta, err := os.ReadFile(filepath.Join(example, "delta.json"))
	require.NoError(t, err)
	full, err := os.ReadFile(filepath.Join(example, "sd.yml"))
	require.NoError(t, err)

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
		require.NoError(t, os.WriteFile(filepath.Join(sdPath, "sd.yml"), full, 0o644))
		vars := map[string]string{
			"CI_PROJECT_DIR": project, "CLUSTER_NAME": "cluster-01", "ENVIRONMENT_NAME": "env-01",
			"SD_SOURCE_TYPE": "json", "SD_MERGE_MODE": "extended-merge", "SD_DATA": string(delta),
		}
		_, err := Run(context.Background(), envOf(vars, nil), Options{})
		require.NoError(t, err)
		for file, golden := range map[string]string{"sd.yml": "expected-sd.yml", "delta_sd.yml": "expected-delta_sd.yml"} {
			got, err := os.ReadFile(filepath.Join(sdPath, file))
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(example, golden))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "%s of the pipeline run", file)
		}
	})
}
