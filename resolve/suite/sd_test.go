package suite

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestConformanceSD discovers the SD corpus with the default runners and
// runs it: every case must pass.
func TestConformanceSD(t *testing.T) {
	sdCorpus := testkit.Corpus(t, "sd")
	cases, err := Discover([]string{sdCorpus}, DefaultRunners())
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, r := range Run(context.Background(), cases, Options{}) {
		assert.Equal(t, "sd", r.Case.Runner.Format(), "runner of %s", r.Case.Path)
		assert.True(t, r.Pass, "%s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
	}
}

// TestSDRunnerDiff checks that a failing SD case reports a diff of the
// expected and actual files.
func TestSDRunnerDiff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cases", "wrong")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	files := map[string]string{
		"params.yaml":   "env:\n  SD_SOURCE_TYPE: json\n  SD_DATA: '{\"applications\": [{\"version\": \"a:1\", \"deployPostfix\": \"ns\"}]}'\n",
		"expected.yaml": "applications:\n  - version: a:2\n    deployPostfix: ns\n",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	cases, err := Discover([]string{filepath.Dir(dir)}, DefaultRunners())
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := Run(context.Background(), cases, Options{})[0]
	assert.False(t, r.Pass)
	assert.Equal(t, "Inventory/solution-descriptor/sd.yml differs from expected.yaml", r.Reason)
	assert.Contains(t, r.Diff, "-  - version: a:2\n+  - version: a:1\n")
}
