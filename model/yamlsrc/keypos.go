package yamlsrc

import (
	"bytes"
	"unicode/utf8"
)

// Lines indexes the line starts of a document's source, so that the
// positions of mapping keys, which values do not keep, can be found in it.
// The index is built on first use; a lookup allocates nothing.
type Lines struct {
	data   []byte
	starts []int
}

// NewLines returns the line index of data.
func NewLines(data []byte) *Lines { return &Lines{data: data} }

func (l *Lines) index() {
	l.starts = make([]int, 1, bytes.Count(l.data, []byte{'\n'})+1)
	for off := 0; ; {
		j := bytes.IndexByte(l.data[off:], '\n')
		if j < 0 {
			break
		}
		off += j + 1
		l.starts = append(l.starts, off)
	}
}

// line returns line n (1-based) without its line break.
func (l *Lines) line(n int) []byte {
	start := l.starts[n-1]
	end := len(l.data)
	if n < len(l.starts) {
		end = l.starts[n] - 1
	}
	return bytes.TrimSuffix(l.data[start:end], []byte{'\r'})
}

// KeyPos returns the line and column of the i-th key of mapping m. In a
// block mapping every key starts in the mapping's column, on the last line
// at or before its value's line that has content in that column. ok is
// false where the source cannot tell (no source, a flow mapping, a value
// built in memory): the value's position is then the best answer.
func (l *Lines) KeyPos(m *Value, i int) (line, col int, ok bool) {
	val := m.Map().Val(i)
	if l == nil || l.data == nil || m.Line == 0 || val == nil || val.Line == 0 {
		return 0, 0, false
	}
	if l.starts == nil {
		l.index()
	}
	key := m.Map().Key(i)
	col = int(m.Col)
	for line := int(val.Line); line >= int(m.Line) && line-1 < len(l.starts); line-- {
		text := l.line(line)
		off := runeOffset(text, col-1)
		if off < 0 {
			continue
		}
		if !blankOrDash(text[:off]) {
			continue
		}
		rest := text[off:]
		if len(rest) == 0 || rest[0] == '#' || rest[0] == ' ' {
			continue
		}
		if rest[0] == '{' {
			break
		}
		if (len(rest) >= len(key) && string(rest[:len(key)]) == key) || rest[0] == '"' || rest[0] == '\'' {
			return line, col, true
		}
		break
	}
	return 0, 0, false
}

// blankOrDash reports whether the text before a key is blank, or ends in
// a list item's dash ("  - key: ...").
func blankOrDash(b []byte) bool {
	b = bytes.TrimRight(b, " ")
	if len(b) > 0 && b[len(b)-1] == '-' {
		return true
	}
	return len(bytes.TrimSpace(b)) == 0
}

// runeOffset returns the byte offset of the n-th rune of s, or -1.
func runeOffset(s []byte, n int) int {
	off := 0
	for range n {
		if off >= len(s) {
			return -1
		}
		if s[off] < utf8.RuneSelf {
			off++
			continue
		}
		_, w := utf8.DecodeRune(s[off:])
		off += w
	}
	if off > len(s) {
		return -1
	}
	return off
}
