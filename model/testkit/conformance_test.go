package testkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConformanceRoot(t *testing.T) {
	root := RepoRoot()
	_, err := os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the repository root has go.mod")
	require.Equal(t, filepath.Join(root, "model", "testkit"), mustGetwd(t), "go test runs in the package directory")

	tests := []struct {
		name, env, want string
	}{
		{"unset", "", filepath.Join(filepath.Dir(root), "shared", "conformance")},
		{"absolute", "/corpora/here", "/corpora/here"},
		{"relative to the root", "corpora", filepath.Join(root, "corpora")},
		{"cleaned", "/a/../b/", "/b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(ConformanceEnv, tc.env)
			require.Equal(t, tc.want, ConformanceRoot(), "%s=%q", ConformanceEnv, tc.env)
		})
	}
}

func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sd"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "vintner"), nil, 0o644)) // a file is no corpus
	t.Setenv(ConformanceEnv, dir)

	got, ok := LookupCorpus(nil, "sd")
	require.True(t, ok)
	require.Equal(t, filepath.Join(dir, "sd"), got)
	require.Equal(t, filepath.Join(dir, "sd"), Corpus(t, "sd"))
	_, ok = LookupCorpus(nil, "vintner")
	require.False(t, ok, "a file named vintner")

	before, beforePartial := skipped.Load(), partial.Load()
	_, ok = LookupCorpus(t, "toskeriser")
	require.False(t, ok)
	require.Equal(t, beforePartial+1, partial.Load(), "a test that runs without the corpus is counted")

	var wasSkipped bool
	t.Run("skips", func(t *testing.T) {
		defer func() { wasSkipped = t.Skipped() }()
		Corpus(t, "toskeriser")
		t.Error("Corpus did not skip")
	})
	require.True(t, wasSkipped, "Corpus skips without the corpus")
	require.Equal(t, before+1, skipped.Load(), "a skipped test is counted")
	require.Equal(t, "conformance corpora not found at "+dir+": set V4T_CONFORMANCE to run this test on the toskeriser corpus",
		skipMessage(filepath.Join(dir, "toskeriser"), "toskeriser"))
	skipped.Store(before)
	partial.Store(beforePartial)
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}
