package main

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
	"v4t/resolve/batch"
)

// TestBatchRowsMatchResolve spot-checks the 200-run example space: every
// seventh row must say what a single "v4t resolve" with the run's command
// line (v4t batch --commands) says: the same node templates when it
// succeeds, the same error (as the first line) when it fails.
func TestBatchRowsMatchResolve(t *testing.T) {
	space, err := batch.LoadSpace("../../testdata/batch/motivation.yaml")
	require.NoError(t, err)
	require.Len(t, space.Runs, 200)
	res := batch.Execute(context.Background(), space, batch.Options{Jobs: 2})
	okSeen, failedSeen := 0, 0
	for i := 0; i < len(res.Rows); i += 7 {
		row := res.Rows[i]
		args := append([]string{"resolve"}, row.Run.ResolveArgs()...)
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		name := row.Run.ID + ": v4t " + strings.Join(args, " ")
		switch row.Status {
		case batch.OK:
			okSeen++
			require.Equal(t, exitOK, code, "%s: %s", name, stderr.String())
			doc, err := yamlsrc.Parse(stdout.Bytes(), row.Run.ID)
			require.NoError(t, err, name)
			got := doc.Get("topology_template").Get("node_templates").Map.Keys()
			want := append([]string(nil), row.Report.Nodes...)
			sort.Strings(got)
			sort.Strings(want)
			assert.Equal(t, want, got, name)
		case batch.Failed:
			failedSeen++
			assert.Equal(t, exitRejected, code, name)
			d, ok := diag.As(row.Err)
			require.True(t, ok, name)
			line := "error: " + d.Message + "\n"
			if d.Pos.Known() {
				line = "error: " + d.Pos.String() + ": " + d.Message + "\n"
			}
			// The error line comes first; the problems v4t validate finds
			// in the template follow it.
			first, rest, _ := strings.Cut(stderr.String(), "\n")
			assert.Equal(t, line, first+"\n", name)
			for _, l := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
				if l != "" {
					assert.True(t, strings.HasPrefix(l, "  problem: ") || strings.HasPrefix(l, "  … and "), "%s: unexpected line %q", name, l)
				}
			}
		default:
			t.Fatalf("%s was not run", row.Run.ID)
		}
	}
	assert.NotZero(t, okSeen, "some checked rows succeed")
	assert.NotZero(t, failedSeen, "some checked rows fail")
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	b := &bar{w: &buf}
	b.update(50, 3, 200)
	b.clear()
	assert.Equal(t, "\r[#######.......................] 50/200 runs, 3 failed\r\033[K", buf.String())
	progressBar(&buf).update(1, 0, 1) // not a terminal: draws nothing
	assert.Equal(t, "\r[#######.......................] 50/200 runs, 3 failed\r\033[K", buf.String())
}

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"mode=semantic-loose", "mode=semantic-loose"},
		{"tags=[a, b]", "'tags=[a, b]'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
	} {
		assert.Equal(t, tc.want, shellQuote(tc.in), tc.in)
	}
}
