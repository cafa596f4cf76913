package suite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
	"v4t/resolve/suite"
)

// TestDifferential runs the differential cases of testdata/differential:
// random templates of our own whose expected results the reference produced
// (testdata/reference). Each txtar archive is one case directory.
func TestDifferential(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "differential")
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	root := filepath.Join(t.TempDir(), "differential")
	n := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txtar") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		dir := filepath.Join(root, strings.TrimSuffix(e.Name(), ".txtar"))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, f := range testkit.ParseTxtar(data).Files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
		}
		n++
	}
	require.Greater(t, n, 100, "differential cases in %s", src)
	cases, err := suite.Discover([]string{root}, suite.DefaultRunners())
	require.NoError(t, err)
	require.Len(t, cases, n)
	for _, r := range suite.Run(context.Background(), cases, suite.Options{}) {
		if !r.Pass {
			t.Errorf("%s: %s\n%s", r.Case.Path, r.Reason, r.Diff)
		}
	}
}
