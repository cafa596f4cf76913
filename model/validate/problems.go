package validate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Problem reporting. Every problem is a diag.Diagnostic of stage validate
// with a position and a short code ("kind", "unknown-field", "not-found",
// ...) for tools that read --format json.

func (v *validator) add(pos diag.Pos, code, format string, args ...any) {
	d := diag.Errorf(pos, diag.StageValidate, format, args...)
	d.Code = code
	v.problems.Add(d)
}

// addErr adds an error of the YAML reader, which is a positioned
// diagnostic already.
func (v *validator) addErr(file string, err error) {
	d, ok := diag.As(err)
	if !ok {
		v.add(diag.Pos{File: file}, "read", "%v", err)
		return
	}
	c := *d
	if c.Pos.File == "" {
		c.Pos.File = file
	}
	c.Stage = diag.StageValidate
	c.Code = "yaml"
	v.problems.Add(&c)
}

// at returns the position of a value of the unit.
func (u *unit) at(x *yamlsrc.Value) diag.Pos {
	if x == nil || x.Line == 0 {
		return diag.Pos{File: u.file}
	}
	return diag.Pos{File: u.file, Line: int(x.Line), Col: int(x.Col)}
}

// keyAt returns the position of the i-th key of map m. Values keep their
// own position only, so the key is found in the source: in a block mapping
// every key starts in the mapping's column, on the last line at or before
// its value's line that has content in that column. Without the source (a
// document built in memory) or for a flow mapping, the value's position is
// the best answer.
func (u *unit) keyAt(m *yamlsrc.Value, i int) diag.Pos {
	val := m.Map.Val(i)
	vp := u.at(val)
	if u.data == nil || m.Line == 0 || val == nil || val.Line == 0 {
		if val == nil || val.Line == 0 {
			return u.at(m)
		}
		return vp
	}
	if u.lines == nil {
		u.lines = append(u.lines, 0)
		for j, c := range u.data {
			if c == '\n' {
				u.lines = append(u.lines, j+1)
			}
		}
	}
	key := m.Map.Key(i)
	col := int(m.Col)
	for line := int(val.Line); line >= int(m.Line) && line-1 < len(u.lines); line-- {
		text := u.line(line)
		off := runeOffset(text, col-1)
		if off < 0 {
			continue
		}
		if strings.TrimSpace(text[:off]) != "" && !strings.HasSuffix(strings.TrimRight(text[:off], " "), "-") {
			continue
		}
		rest := text[off:]
		if rest == "" || rest[0] == '#' || rest[0] == ' ' {
			continue
		}
		if strings.HasPrefix(rest, key) || rest[0] == '"' || rest[0] == '\'' {
			if rest[0] == '{' {
				break
			}
			return diag.Pos{File: u.file, Line: line, Col: col}
		}
		break
	}
	return vp
}

func (u *unit) line(n int) string {
	start := u.lines[n-1]
	end := len(u.data)
	if n < len(u.lines) {
		end = u.lines[n] - 1
	}
	return strings.TrimSuffix(string(u.data[start:end]), "\r")
}

// runeOffset returns the byte offset of the n-th rune of s, or -1.
func runeOffset(s string, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		if off >= len(s) {
			return -1
		}
		_, w := utf8.DecodeRuneInString(s[off:])
		off += w
	}
	if off > len(s) {
		return -1
	}
	return off
}

// kindOf names the YAML kind of a value for messages: "a map", "a list",
// "a string", ...
func kindOf(x *yamlsrc.Value) string {
	if x == nil {
		return "nothing"
	}
	switch x.Kind {
	case yamlsrc.KindNull:
		return "null"
	case yamlsrc.KindBool:
		return "a boolean"
	case yamlsrc.KindNumber:
		return "a number"
	case yamlsrc.KindString:
		return "a string"
	case yamlsrc.KindTime:
		return "a timestamp"
	case yamlsrc.KindMap:
		return "a map"
	case yamlsrc.KindList:
		return "a list"
	}
	return "a value"
}

// maxSuggestions bounds the "did you mean" searches of one run: each is
// linear in the candidates, so a template with thousands of unknown names
// would otherwise be quadratic.
const maxSuggestions = 64

// suggest returns ` (did you mean "x"?)` for the candidate closest to name,
// or "".
func (v *validator) suggest(name string, candidates func(yield func(string) bool)) string {
	if v.nSuggest >= maxSuggestions || name == "" {
		return ""
	}
	v.nSuggest++
	best, bestD := "", 0
	limit := len(name)/3 + 1
	if limit > 3 {
		limit = 3
	}
	candidates(func(c string) bool {
		if c == name || abs(len(c)-len(name)) > limit {
			return true
		}
		d := distance(name, c, limit)
		if d <= limit && (best == "" || d < bestD || (d == bestD && c < best)) {
			best, bestD = c, d
		}
		return true
	})
	if best == "" {
		// A short name of a qualified one: "Compute" for "tosca.nodes.Compute".
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

// distance is the Levenshtein distance of a and b, or limit+1 when it is
// larger than limit.
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
