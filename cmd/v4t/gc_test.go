package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/resolve"
	"v4t/resolve/batch"
)

func TestPrefaultSize(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name        string
		limit, size int64
		lines       int
		want        int64
	}{
		{"ring 10,000: per line", 1 << 30, 12_790_295, 310_011, 150 * 310_011},
		{"short lines: four times the file", 1 << 30, 12 * mib, 1_000_000, 4 * 12 * mib},
		{"long lines: too few to pay", 1 << 30, 12 * mib, 4_000, 0},
		{"long lines, many of them", 1 << 30, 12 * mib, 100_000, 150 * 100_000},
		{"one line of JSON", 1 << 30, 100 * mib, 0, 0},
		{"half the limit at most", 1 << 30, 200 * mib, 10_000_000, 1 << 29},
		{"small", 1 << 30, mib, 100, 0},
	} {
		require.Equal(t, tc.want, prefaultSize(tc.limit, tc.size, tc.lines), tc.name)
	}
}

func TestFileLines(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("key: value\n", 20_000) + "last"
	for name, text := range map[string]string{"empty": "", "one": "a\n", "no break": "a", "long": long} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		require.Equal(t, strings.Count(text, "\n"), fileLines(path), name)
	}
	require.Zero(t, fileLines(filepath.Join(dir, "missing")))
}

func TestHugeBlock(t *testing.T) {
	const kib, mib, gib = 1 << 10, 1 << 20, 1 << 30
	for _, tc := range []struct {
		name           string
		jobs           int
		largest, total int64
		want           int64
	}{
		{"small templates, one job", 1, 10 * kib, 24 * gib, 64 * mib},
		{"small templates, two jobs", 2, 200 * kib, 24 * gib, 128 * mib},
		{"150 times the largest template per job", 2, 2 * mib, 24 * gib, 600 * mib},
		{"at most 512 MiB per job", 2, 10 * mib, 24 * gib, gib},
		{"at most 4 GiB", 16, 10 * mib, 128 * gib, 4 * gib},
		{"at most an eighth of the memory", 16, 10 * kib, 4 * gib, 512 * mib},
		{"memory unknown", 4, 0, 0, 256 * mib},
	} {
		require.Equal(t, tc.want, hugeBlock(tc.jobs, tc.largest, tc.total), tc.name)
	}
	require.Equal(t, hugeBlock(runtime.NumCPU(), 0, 0), hugeBlock(0, 0, 0), "0 jobs: one per CPU")
}

func TestLargestTemplate(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, make([]byte, n), 0o644))
		return p
	}
	a, b := write("a.yaml", 100), write("b.yaml", 300)
	run := func(p string) *batch.Run { return &batch.Run{Input: resolve.Input{TemplatePath: p}} }
	require.Equal(t, int64(300), largestTemplate([]*batch.Run{run(a), run(b), run(a), run(filepath.Join(dir, "missing.yaml")), run(dir), run("")}))
	require.Zero(t, largestTemplate(nil))
}
