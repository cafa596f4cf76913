package complete

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/testkit"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }

// corpusCases returns the case directories of the TosKeriser conformance
// corpus, read in place (style.md §5.3), or skips the test without it.
func corpusCases(t *testing.T) []string {
	t.Helper()
	return testkit.CaseDirs(t, testkit.Corpus(t, "toskeriser"), CaseMarker)
}

// TestCorpus runs every case with the offline catalog and checks the
// outcome the corpus README prescribes.
func TestCorpus(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := RunCase(context.Background(), dir)
			require.True(t, out.Pass, "%s: %s\n--- expected\n%s--- actual\n%s", dir, out.Reason, out.Expected, out.Actual)
		})
	}
}

// recorder is a Source that records the wire form of every query.
type recorder struct {
	Source
	queries []string
}

func (r *recorder) Search(ctx context.Context, q *Query) (*SearchResult, error) {
	r.queries = append(r.queries, "/search?"+q.Wire())
	return r.Source.Search(ctx, q)
}

// TestCorpusInformative compares the informative files of every case:
// the progress lines with stdout.txt (the reference's wording, counts and
// picks) and the queries with queries.txt (normalised: the order of the
// parameters does not matter, except among the sort values).
func TestCorpusInformative(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var rec *recorder
			run, err := ExecCase(context.Background(), dir, func(c *Catalog) (Source, error) {
				rec = &recorder{Source: c}
				return rec, nil
			})
			require.NoError(t, err, dir)
			if stdout, err := os.ReadFile(filepath.Join(dir, "stdout.txt")); err == nil {
				var want []string
				for _, line := range lines(string(stdout)) {
					if line == "ERRORS:" {
						break
					}
					if strings.HasPrefix(line, "founded ") || strings.HasPrefix(line, "complete ") || strings.HasPrefix(line, "[WARNING] ") {
						want = append(want, line)
					}
				}
				require.Equal(t, nonNil(want), nonNil(run.Progress), "%s: progress lines against stdout.txt", dir)
			}
			var want []string
			if data, err := os.ReadFile(filepath.Join(dir, "queries.txt")); err == nil {
				want = lines(string(data))
			}
			var got []string
			if rec != nil {
				got = rec.queries
			}
			require.Len(t, got, len(want), "%s: number of queries", dir)
			for i := range want {
				require.Equal(t, normalizeQuery(t, want[i]), normalizeQuery(t, got[i]), "%s: query %d", dir, i+1)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// normalizeQuery sorts the parameters of a query except the sort values,
// which keep their order.
func normalizeQuery(t *testing.T, q string) string {
	path, raw, _ := strings.Cut(q, "?")
	var params, sorts []string
	for p := range strings.SplitSeq(raw, "&") {
		k, v, _ := strings.Cut(p, "=")
		k, err := url.QueryUnescape(k)
		require.NoError(t, err)
		v, err = url.QueryUnescape(v)
		require.NoError(t, err)
		if k == "sort" {
			sorts = append(sorts, v)
			continue
		}
		params = append(params, k+"="+v)
	}
	sort.Strings(params)
	return path + "?" + strings.Join(params, "&") + " sort=" + strings.Join(sorts, ",")
}

// TestCorpusDockerFinder runs every case against a DockerFinder-compatible
// server that serves the case's catalog: the results must be the same
// (corpus README, "How a runner uses a case", step 2).
func TestCorpusDockerFinder(t *testing.T) {
	for _, dir := range corpusCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			run, err := ExecCase(context.Background(), dir, func(c *Catalog) (Source, error) {
				return NewDockerFinder(dockerFinderServer(t, c).URL), nil
			})
			require.NoError(t, err, dir)
			out := CheckCase(dir, run)
			require.True(t, out.Pass, "%s: %s\n--- expected\n%s--- actual\n%s", dir, out.Reason, out.Expected, out.Actual)
		})
	}
}

// TestCorpusDeterministic runs every case twice: the outputs must be
// byte-identical.
func TestCorpusDeterministic(t *testing.T) {
	for _, dir := range corpusCases(t) {
		a, err := ExecCase(context.Background(), dir, nil)
		require.NoError(t, err, dir)
		b, err := ExecCase(context.Background(), dir, nil)
		require.NoError(t, err, dir)
		require.True(t, bytes.Equal(a.Output, b.Output), "%s: two runs differ", dir)
		require.Equal(t, a.Messages, b.Messages, "%s: two runs differ", dir)
	}
}
