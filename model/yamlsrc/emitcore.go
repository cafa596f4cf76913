package yamlsrc

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Spec sd-merge.md §12 (YAML output format).
//
// DialectCore writes what gopkg.in/yaml.v3's encoder writes for a node tree
// built as sd-merge.md §12 describes (every node in the default style, string
// scalars that would read back as something else single-quoted), so that
// output compares byte for byte with that recipe:
//
//   - null is "null"; numbers, booleans and dates are written with their
//     source text (Value.Str, as ParseCore and ParseJSON keep it), or in a
//     default spelling for values built by code;
//   - a string is single-quoted when yaml.v3 would resolve its plain form to
//     another type (null, bool, int, float, timestamp, the merge key "<<");
//     otherwise libyaml's analysis decides: plain where plain can carry it,
//     else single quotes, else double quotes with escapes; strings with a
//     "\n" are literal blocks where a block can carry them;
//   - keys longer than 128 bytes or holding a line break use the explicit
//     "? key" form, as libyaml does.
//
// Two deliberate differences, where yaml.v3 writes what it cannot read
// back: it drops the leading line break of a literal block ("\nx" would
// read back as "x"), and it rejects a literal block whose first line starts
// with a tab. Such strings are double-quoted.
//
// Long lines are never folded (yaml.v3 writes with unlimited width).

// coreDocument writes a whole document in DialectCore.
func (e *emitter) coreDocument(v *Value) {
	switch {
	case v == nil || v.Kind == KindNull:
		e.buf = append(e.buf, "null"...)
	case v.Kind == KindMap && hasEntries(v.Map):
		e.keys = v
		e.mapEntries(v.Map, 0, true, false)
	case v.Kind == KindList && len(v.List) > 0:
		e.listItems(v.List, 0, true, false)
	default:
		// A top-level scalar's block lines sit at yaml.v3's best indent.
		e.coreScalar(v, 2)
	}
	if e.lineStart != e.flushed+len(e.buf) {
		e.buf = append(e.buf, '\n')
	}
}

// coreKey writes map key k (the key's column is col) and reports whether it
// used the explicit form "? key", after which the caller writes ":" on a
// line of its own. plain tells that the key is a non-string scalar, written
// with its text.
func (e *emitter) coreKey(k string, col int, plain bool) bool {
	if plain && k != "" {
		e.buf = append(e.buf, k...)
		return false
	}
	a := analyzeCore(k)
	if a.multiline || len(k) > 128 {
		e.buf = append(e.buf, "? "...)
		e.coreString(k, a, col+e.indent, false)
		return true
	}
	e.coreString(k, a, col+e.indent, true)
	return false
}

// coreChild writes the value after "key:" or "-". inline tells that a
// mapping or list starts on the current line, two columns right of col (a
// list item, or the value after an explicit key's ":"); otherwise it starts
// on the next line at col+indent. litCol is the column of a literal block's
// lines.
func (e *emitter) coreChild(v *Value, col int, inline bool, litCol int) {
	if v != nil {
		switch {
		case v.Kind == KindMap && hasEntries(v.Map):
			outer := e.keys
			e.keys = v
			if inline {
				e.buf = append(e.buf, ' ')
				e.mapEntries(v.Map, col+2, true, false)
			} else {
				e.mapEntries(v.Map, col+e.indent, false, false)
			}
			e.keys = outer
			return
		case v.Kind == KindList && len(v.List) > 0:
			if inline {
				e.buf = append(e.buf, ' ')
				e.listItems(v.List, col+2, true, false)
			} else {
				e.listItems(v.List, col+e.indent, false, false)
			}
			return
		}
	}
	e.buf = append(e.buf, ' ')
	e.coreScalar(v, litCol)
}

// coreScalar writes a scalar, or an empty map or list, at the cursor.
func (e *emitter) coreScalar(v *Value, litCol int) {
	if v == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	switch v.Kind {
	case KindNull:
		e.buf = append(e.buf, "null"...)
	case KindBool:
		switch {
		case v.Str != "":
			e.buf = append(e.buf, v.Str...)
		case v.Bool:
			e.buf = append(e.buf, "true"...)
		default:
			e.buf = append(e.buf, "false"...)
		}
	case KindNumber:
		if v.Str != "" {
			e.buf = append(e.buf, v.Str...)
		} else {
			e.buf = appendYAMLNumber(e.buf, v.Num)
		}
	case KindTime:
		switch {
		case v.Str != "":
			e.buf = append(e.buf, v.Str...)
		case validDate(v.Num):
			e.buf = appendISOTime(e.buf, v.Num)
		default:
			e.buf = append(e.buf, "null"...)
		}
	case KindString:
		e.coreString(v.Str, analyzeCore(v.Str), litCol, false)
	case KindMap:
		e.buf = append(e.buf, "{}"...)
	case KindList:
		e.buf = append(e.buf, "[]"...)
	}
}

// coreString writes string s, analysed as a, in the style yaml.v3 would
// choose. litCol is the column of a literal block's lines and of the lines
// a quoted scalar continues on after a line break; simpleKey tells that s is
// an implicit key.
func (e *emitter) coreString(s string, a coreAnalysis, litCol int, simpleKey bool) {
	if !utf8.ValidString(s) {
		// YAML cannot carry the bytes; yaml.v3 would switch to !!binary.
		e.buf = appendDoubleQuoted(e.buf, s)
		return
	}
	style := stylePlain
	switch {
	case resolvesAsNonString(s):
		style = styleSingle
	case containsByte(s, '\n'):
		style = styleLiteral
	}
	if simpleKey && a.multiline {
		style = styleDouble
	}
	if style == stylePlain && (!a.blockPlain || (s == "" && simpleKey)) {
		style = styleSingle
	}
	if style == styleSingle && !a.singleQuoted {
		style = styleDouble
	}
	if style == styleLiteral && (!a.block || simpleKey || a.leadingBreak || s[0] == '\t') {
		style = styleDouble
	}
	switch style {
	case stylePlain:
		e.buf = append(e.buf, s...)
	case styleSingle:
		e.coreSingleQuoted(s, litCol)
	case styleLiteral:
		e.coreLiteral(s, litCol)
	default:
		e.buf = appendCoreDoubleQuoted(e.buf, s)
	}
}

// resolvesAsNonString reports whether yaml.v3 reads the plain scalar s as
// anything but a string (sd-merge.md §12: null, bool, int, float,
// timestamp, the merge key).
func resolvesAsNonString(s string) bool {
	// yaml.v3's ShortTag says "!!str" for "<<", but its decoder takes a
	// plain "<<" key for a merge key.
	return s == "<<" || (&yaml.Node{Kind: yaml.ScalarNode, Value: s}).ShortTag() != "!!str"
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// coreAnalysis is libyaml's yaml_emitter_analyze_scalar for block context,
// as yaml.v3 has it (with unicode output enabled).
type coreAnalysis struct {
	multiline    bool
	blockPlain   bool
	singleQuoted bool
	block        bool
	leadingBreak bool
}

func analyzeCore(s string) coreAnalysis {
	if s == "" {
		return coreAnalysis{blockPlain: true, singleQuoted: true}
	}
	var (
		blockIndicators, lineBreaks, special, tabs       bool
		leadingSpace, leadingBreak, trailingSpace        bool
		trailingBreak, breakSpace, spaceBreak            bool
		precededByWhitespace, previousSpace, previousBrk bool
	)
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") {
		blockIndicators = true
	}
	precededByWhitespace = true
	for i, w := 0, 0; i < len(s); i += w {
		w = byteWidth(s[i])
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		c := s[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if c == '\t' {
			tabs = true
		} else if !libyamlPrintable(s, i) {
			special = true
		}
		switch {
		case c == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if previousBrk {
				breakSpace = true
			}
			previousSpace, previousBrk = true, false
		case libyamlBreak(s, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBrk = false, true
		default:
			previousSpace, previousBrk = false, false
		}
		precededByWhitespace = c == ' ' || c == '\t' || c == 0 || libyamlBreak(s, i)
	}
	a := coreAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true, leadingBreak: leadingBreak}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || tabs || special {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.block = false
	}
	if lineBreaks || blockIndicators {
		a.blockPlain = false
	}
	return a
}

// byteWidth is the length of the UTF-8 sequence that starts with byte c.
func byteWidth(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// libyamlPrintable is libyaml's is_printable on the sequence at s[i]: it
// takes LF, printable ASCII and the BMP without controls, surrogates, BOM,
// U+FFFE and U+FFFF; characters outside the BMP count as not printable.
func libyamlPrintable(s string, i int) bool {
	b := s[i]
	at := func(k int) byte {
		if i+k < len(s) {
			return s[i+k]
		}
		return 0
	}
	return b == 0x0A ||
		(b >= 0x20 && b <= 0x7E) ||
		(b == 0xC2 && at(1) >= 0xA0) ||
		(b > 0xC2 && b < 0xED) ||
		(b == 0xED && at(1) < 0xA0) ||
		b == 0xEE ||
		(b == 0xEF && !(at(1) == 0xBB && at(2) == 0xBF) && !(at(1) == 0xBF && (at(2) == 0xBE || at(2) == 0xBF)))
}

// libyamlBreak is libyaml's is_break: CR, LF, NEL, LS and PS.
func libyamlBreak(s string, i int) bool {
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return i+1 < len(s) && s[i+1] == 0x85
	case 0xE2:
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
	}
	return false
}

// coreSingleQuoted is libyaml's single-quoted writer without folding: a
// line break inside continues the scalar on a new line at column col.
func (e *emitter) coreSingleQuoted(s string, col int) {
	e.buf = append(e.buf, '\'')
	breaks := false
	for i := 0; i < len(s); {
		w := byteWidth(s[i])
		switch {
		case libyamlBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.buf = append(e.buf, '\n')
			}
			e.buf = append(e.buf, s[i:i+w]...)
			breaks = true
		default:
			if breaks {
				e.buf = appendSpaces(e.buf, col)
			}
			if s[i] == '\'' {
				e.buf = append(e.buf, '\'')
			}
			e.buf = append(e.buf, s[i:i+w]...)
			breaks = false
		}
		i += w
	}
	e.buf = append(e.buf, '\'')
}

// coreLiteral is libyaml's literal block writer, lines at column col.
func (e *emitter) coreLiteral(s string, col int) {
	e.buf = append(e.buf, '|')
	if s[0] == ' ' || libyamlBreak(s, 0) {
		// The indentation indicator is yaml.v3's best indent.
		e.buf = append(e.buf, byte('0'+min(e.indent, 9)))
	}
	// Chomping: strip without a final break, keep with two or more (or a
	// lone break), clip otherwise.
	last := len(s) - 1
	for last > 0 && s[last]&0xC0 == 0x80 {
		last--
	}
	switch {
	case !libyamlBreak(s, last):
		e.buf = append(e.buf, '-')
	case last == 0:
		e.buf = append(e.buf, '+')
	default:
		prev := last - 1
		for prev > 0 && s[prev]&0xC0 == 0x80 {
			prev--
		}
		if libyamlBreak(s, prev) {
			e.buf = append(e.buf, '+')
		}
	}
	breaks, first := true, true
	for i := 0; i < len(s); {
		w := byteWidth(s[i])
		if libyamlBreak(s, i) {
			e.buf = append(e.buf, s[i:i+w]...)
			breaks = true
		} else {
			if breaks {
				if first {
					e.buf = append(e.buf, '\n')
				}
				e.buf = appendSpaces(e.buf, col)
			}
			e.buf = append(e.buf, s[i:i+w]...)
			breaks, first = false, false
		}
		i += w
	}
	if breaks {
		// The block ends with a line break: the next line starts here.
		e.lineStart = e.flushed + len(e.buf)
	}
}

func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}

// appendCoreDoubleQuoted is libyaml's double-quoted writer without folding:
// everything libyaml does not print as is becomes an escape.
func appendCoreDoubleQuoted(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	// Quirk: yaml.v3's is_bom looks at the start of the string, not at the
	// current character, so after a leading BOM every character is escaped
	// (it still reads back the same).
	bom := strings.HasPrefix(s, "\ufeff")
	b = append(b, '"')
	for i := 0; i < len(s); {
		w := byteWidth(s[i])
		if i+w > len(s) {
			w = len(s) - i
		}
		c := s[i]
		if libyamlPrintable(s, i) && !bom && !libyamlBreak(s, i) && c != '"' && c != '\\' {
			b = append(b, s[i:i+w]...)
			i += w
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		i += w
		b = append(b, '\\')
		switch r {
		case 0x00:
			b = append(b, '0')
		case 0x07:
			b = append(b, 'a')
		case 0x08:
			b = append(b, 'b')
		case 0x09:
			b = append(b, 't')
		case 0x0A:
			b = append(b, 'n')
		case 0x0B:
			b = append(b, 'v')
		case 0x0C:
			b = append(b, 'f')
		case 0x0D:
			b = append(b, 'r')
		case 0x1B:
			b = append(b, 'e')
		case '"':
			b = append(b, '"')
		case '\\':
			b = append(b, '\\')
		case 0x85:
			b = append(b, 'N')
		case 0xA0:
			b = append(b, '_')
		case 0x2028:
			b = append(b, 'L')
		case 0x2029:
			b = append(b, 'P')
		default:
			n := 2
			switch {
			case r <= 0xFF:
				b = append(b, 'x')
			case r <= 0xFFFF:
				b = append(b, 'u')
				n = 4
			default:
				b = append(b, 'U')
				n = 8
			}
			for k := (n - 1) * 4; k >= 0; k -= 4 {
				b = append(b, hex[(r>>uint(k))&0x0F])
			}
		}
	}
	return append(b, '"')
}
