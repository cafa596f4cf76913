package diag

import (
	"fmt"
	"iter"
)

// DidYouMean returns ` (did you mean "x"?)` for the candidate closest to
// name within a small edit distance (a third of its length, at most 3), or
// "" when none is close: the hint every "unknown name" message carries.
// Ties go to the smaller candidate, so the hint does not depend on the
// order of the candidates.
func DidYouMean(name string, candidates iter.Seq[string]) string {
	if name == "" {
		return ""
	}
	limit := min(len(name)/3+1, 3)
	best, bestD := "", 0
	for c := range candidates {
		if c == name || abs(len(c)-len(name)) > limit {
			continue
		}
		if d := distance(name, c, limit); d <= limit && (best == "" || d < bestD || (d == bestD && c < best)) {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// distance is the Levenshtein distance of a and b (in runes), or limit+1
// when it is larger than limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		lo := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			lo = min(lo, cur[j])
		}
		if lo > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
