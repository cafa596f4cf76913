package suite

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffEdits bounds the edit distance the diff searches; beyond it the
// differing middle is shown as removed and added as a whole. This keeps the
// diff of two unrelated large documents cheap.
const maxDiffEdits = 4000

type editKind byte

const (
	editEqual  editKind = ' '
	editDelete editKind = '-'
	editInsert editKind = '+'
)

type edit struct {
	kind editKind
	line string
}

// Diff returns a unified diff (3 lines of context) from text a to text b
// with the given header names, or "" when the texts are equal. It uses
// Myers' algorithm after trimming the common prefix and suffix.
func Diff(aName, a, bName, b string) string {
	if a == b {
		return ""
	}
	al, bl := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	edits := make([]edit, 0, len(al)+len(bl))
	for _, l := range al[:pre] {
		edits = append(edits, edit{editEqual, l})
	}
	edits = append(edits, myers(al[pre:len(al)-suf], bl[pre:len(bl)-suf])...)
	for _, l := range al[len(al)-suf:] {
		edits = append(edits, edit{editEqual, l})
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	writeHunks(&out, edits)
	return out.String()
}

// splitLines splits text into lines without their newlines; a missing final
// newline is marked so that it shows in the diff.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n\\ No newline at end of file"
	return lines
}

// myers returns a shortest edit script from a to b, or a delete-all,
// insert-all script when the distance exceeds maxDiffEdits.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	maxD := min(n+m, maxDiffEdits)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int // trace[d][k+d] is the furthest x on diagonal k after d edits
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
			}
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if found < 0 {
		edits := make([]edit, 0, n+m)
		for _, l := range a {
			edits = append(edits, edit{editDelete, l})
		}
		for _, l := range b {
			edits = append(edits, edit{editInsert, l})
		}
		return edits
	}
	// Walk back from (n, m), collecting edits in reverse.
	var rev []edit
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			rev = append(rev, edit{editEqual, a[x-1]})
			x--
			y--
		}
		if pk == k+1 {
			rev = append(rev, edit{editInsert, b[y-1]})
			y--
		} else {
			rev = append(rev, edit{editDelete, a[x-1]})
			x--
		}
	}
	for x > 0 && y > 0 {
		rev = append(rev, edit{editEqual, a[x-1]})
		x--
		y--
	}
	edits := make([]edit, len(rev))
	for i, e := range rev {
		edits[len(rev)-1-i] = e
	}
	return edits
}

// writeHunks writes the edits as unified-diff hunks.
func writeHunks(out *strings.Builder, edits []edit) {
	// Line numbers (1-based) of each edit in a and b.
	aLine := make([]int, len(edits))
	bLine := make([]int, len(edits))
	ai, bi := 1, 1
	for i, e := range edits {
		aLine[i], bLine[i] = ai, bi
		if e.kind != editInsert {
			ai++
		}
		if e.kind != editDelete {
			bi++
		}
	}
	for i := 0; i < len(edits); {
		if edits[i].kind == editEqual {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		// Extend the hunk over changes separated by at most 2*diffContext
		// unchanged lines.
		end := i + 1
		for j := end; j < len(edits); {
			if edits[j].kind != editEqual {
				j++
				end = j
				continue
			}
			r := j
			for r < len(edits) && edits[r].kind == editEqual {
				r++
			}
			if r == len(edits) || r-j > 2*diffContext {
				break
			}
			j = r
		}
		end = min(end+diffContext, len(edits))
		aCount, bCount := 0, 0
		for _, e := range edits[start:end] {
			if e.kind != editInsert {
				aCount++
			}
			if e.kind != editDelete {
				bCount++
			}
		}
		fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aLine[start], aCount), hunkRange(bLine[start], bCount))
		for _, e := range edits[start:end] {
			out.WriteByte(byte(e.kind))
			out.WriteString(e.line)
			out.WriteByte('\n')
		}
		i = end
	}
}

// hunkRange renders "start,count" the way diff -u does: an empty range
// names the line before it.
func hunkRange(start, count int) string {
	if count == 0 {
		start--
	}
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
