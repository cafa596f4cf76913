package suite

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{name: "equal", a: "x\n", b: "x\n", want: ""},
		{
			name: "one changed line",
			a:    "a\nb\nc\n",
			b:    "a\nB\nc\n",
			want: "--- A\n+++ B\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		},
		{
			name: "insert into empty",
			a:    "",
			b:    "x\n",
			want: "--- A\n+++ B\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "delete at the end",
			a:    "1\n2\n3\n4\n5\n6\n",
			b:    "1\n2\n3\n4\n5\n",
			want: "--- A\n+++ B\n@@ -3,4 +3,3 @@\n 3\n 4\n 5\n-6\n",
		},
		{
			name: "missing final newline",
			a:    "a\n",
			b:    "a",
			want: "--- A\n+++ B\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n",
		},
		{
			name: "two hunks",
			a:    lines(1, 20),
			b:    strings.Replace(strings.Replace(lines(1, 20), "2\n", "two\n", 1), "19\n", "nineteen\n", 1),
			want: "--- A\n+++ B\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n",
		},
		{
			name: "close changes share a hunk",
			a:    lines(1, 10),
			b:    strings.Replace(strings.Replace(lines(1, 10), "3\n", "three\n", 1), "8\n", "eight\n", 1),
			want: "--- A\n+++ B\n@@ -1,10 +1,10 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n-8\n+eight\n 9\n 10\n",
		},
		{
			name: "moved line",
			a:    "a\nb\nc\nd\n",
			b:    "b\nc\nd\na\n",
			want: "--- A\n+++ B\n@@ -1,4 +1,4 @@\n-a\n b\n c\n d\n+a\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Diff("A", tc.a, "B", tc.b), "diff of %q and %q", tc.a, tc.b)
		})
	}
}

// TestDiffApplies checks on many small edits that the edit script turns a
// into b and is minimal where the answer is known.
func TestDiffApplies(t *testing.T) {
	for n := range 200 {
		a, b := pseudoLines(n, 7), pseudoLines(n*31+5, 9)
		got := myers(a, b)
		var ra, rb []string
		changes := 0
		for _, e := range got {
			if e.kind != editInsert {
				ra = append(ra, e.line)
			}
			if e.kind != editDelete {
				rb = append(rb, e.line)
			}
			if e.kind != editEqual {
				changes++
			}
		}
		require.Equal(t, strings.Join(a, ","), strings.Join(ra, ","), "a of case %d", n)
		require.Equal(t, strings.Join(b, ","), strings.Join(rb, ","), "b of case %d", n)
		require.Equal(t, len(a)+len(b)-2*lcs(a, b), changes, "minimal edits for %v -> %v", a, b)
	}
}

// lcs is the textbook dynamic program for the longest common subsequence.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i, v := range slices.Backward(a) {
		for j := len(b) - 1; j >= 0; j-- {
			if v == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestDiffLimit(t *testing.T) {
	a, b := make([]string, 0, 5000), make([]string, 0, 5000)
	for i := range 5000 {
		a = append(a, fmt.Sprint("a", i))
		b = append(b, fmt.Sprint("b", i))
	}
	got := myers(a, b)
	require.Len(t, got, 10000)
	require.Equal(t, editDelete, got[0].kind)
	require.Equal(t, editInsert, got[9999].kind)
}

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// pseudoLines returns a deterministic list of lines from a small alphabet.
func pseudoLines(seed, n int) []string {
	out := make([]string, 0, n)
	x := uint32(seed*2654435761 + 1)
	for i := 0; i < int(x%uint32(n+1)); i++ {
		x = x*1664525 + 1013904223
		out = append(out, string(rune('a'+x>>28%4)))
	}
	return out
}
