package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve/suite"
)

// TestConformanceToskeriser runs the TosKeriser completion corpus through
// the default runners, as `v4t test` does: every case must pass.
func TestConformanceToskeriser(t *testing.T) {
	toskeriserCorpus := testkit.Corpus(t, "toskeriser")
	cases, err := suite.Discover([]string{toskeriserCorpus}, suite.DefaultRunners())
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		assert.Equal(t, "toskeriser", c.Runner.Format(), "runner of %s", c.Path)
	}
	results := suite.Run(context.Background(), cases, suite.Options{})
	for _, r := range results {
		assert.True(t, r.Pass, "%s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
	}
	passed, failed := suite.Counts(results)
	t.Logf("%d passed, %d failed", passed, failed)
}

// TestToskeriserFailureReport checks that a failing case is reported with
// its reason and a diff.
func TestToskeriserFailureReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	write("catalogs/c.json", `{"software": ["node"], "images": []}`)
	write("case/args.yaml", "input: input.yaml\ncatalog: c.json\npolicy: null\nconstraints: null\nforce: false\ncomponents: [ghost]\n")
	write("case/input.yaml", "tosca_definitions_version: tosca_simple_yaml_1_0\n")
	write("case/errors.txt", "component \"other\" not founded\n")
	cases, err := suite.Discover([]string{dir}, suite.DefaultRunners())
	require.NoError(t, err)
	require.Len(t, cases, 1)
	r := suite.Run(context.Background(), cases, suite.Options{})[0]
	assert.False(t, r.Pass)
	assert.Equal(t, "the error messages differ", r.Reason)
	assert.Contains(t, r.Diff, `-component "other" not founded`)
	assert.Contains(t, r.Diff, `+component "ghost" not founded`)
}
