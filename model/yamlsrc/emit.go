package yamlsrc

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"v4t/model/js"
)

// Spec variability.md §13 (serialisation).
//
// The emitter writes what the reference writes: js-yaml dump (unlimited line
// width, no anchors, null as an empty value) reformatted by prettier 2.8
// (4-space indentation, single quotes preferred). So:
//
//   - block style; a map's children sit 4 columns right of its keys, a list
//     item's content 2 columns right of its dash, and a map or list inside a
//     list item starts on the dash line;
//   - empty maps and lists are {} and [];
//   - null is an empty value ("key:", "-");
//   - strings are plain where js-yaml writes them plain, single-quoted where
//     it quotes them (double-quoted when the text holds a single quote but no
//     double quote or backslash, as prettier rewrites them), double-quoted
//     with escapes when they hold non-printable characters, and literal
//     blocks (|, |-, |+) when they hold line breaks;
//   - numbers in JavaScript notation (-0 as -0.0, and "5.e-7" for a
//     fraction in exponent form), .nan, .inf and -.inf;
//   - dates as ISO strings with milliseconds, unquoted.
//
// The output differs from the reference's only where that would not read
// back as the same value, with js-yaml, with yaml.v3 (our reader) or with a
// YAML 1.1 reader:
//
//   - strings that YAML 1.1 readers take for numbers or dates ("1_000",
//     "2023-1-2") are quoted too, and so is a top-level "..." or "... x" (a
//     document end marker);
//   - multi-line strings that prettier would corrupt (a leading space, which
//     needs an indentation indicator; trailing spaces on the last line; a
//     kept final line break at the top level) are double-quoted;
//   - a null list item that ends a nested list, right before a dash of an
//     outer list, is written "- null": js-yaml would read the next item
//     into the nested list;
//   - keys longer than 1024 characters use the explicit "? key" form, since
//     YAML limits implicit keys to 1024 characters;
//   - dates outside the years 0100 to 9999 cannot be written as YAML
//     timestamps; they are written as the reference writes them and read
//     back as strings (years 0000 to 0099 as 1900 to 1999).
//
// A nil map value is JavaScript's undefined: js-yaml leaves such keys out, and
// so does the emitter. A nil list item is written as null.

// errCyclic is reported for a document that contains itself.
var errCyclic = errors.New("yamlsrc: cannot write a cyclic document")

// cycleCheckDepth is the nesting from which the emitter tracks the
// containers it is inside, to stop on a document that contains itself.
const cycleCheckDepth = 64

const flushSize = 64 << 10

// indent is how many columns a mapping or a list that is the value of a key
// is indented under the key. A mapping or list inside a list item starts on
// the dash line, two columns right of the dash.
const indent = 4

// Write writes v as a YAML document in the reference's format; it fails
// only on a cyclic document, or when w fails.
func Write(w io.Writer, v *Value) error {
	bp := writeBufs.Get().(*[]byte)
	e := emitter{w: w, buf: (*bp)[:0]}
	e.document(v)
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = w.Write(e.buf)
	}
	if cap(e.buf) <= writeBufSize {
		*bp = e.buf[:0]
		writeBufs.Put(bp)
	}
	return e.err
}

// writeBufs holds Write's buffers: a batch writes a document per run, and
// the buffer was a fresh 80 KB each time. One that a long scalar grew is
// let go.
var writeBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, writeBufSize)
	return &b
}}

const writeBufSize = flushSize + flushSize/4

// Marshal returns v as a YAML document in the reference's format. It panics
// on a cyclic document.
func Marshal(v *Value) []byte {
	var c chunks
	e := emitter{w: &c, buf: make([]byte, 0, 512)}
	e.document(v)
	if e.err != nil {
		panic(e.err)
	}
	if c.n == 0 {
		return e.buf
	}
	out := make([]byte, 0, c.n+len(e.buf))
	for _, p := range c.list {
		out = append(out, p...)
	}
	return append(out, e.buf...)
}

// chunks collects the emitter's output, so that a large document is copied
// once instead of at every doubling of one growing buffer.
type chunks struct {
	list [][]byte
	n    int
}

func (c *chunks) Write(p []byte) (int, error) {
	c.list = append(c.list, append([]byte(nil), p...))
	c.n += len(p)
	return len(p), nil
}

type emitter struct {
	w       io.Writer
	buf     []byte
	err     error
	depth   int
	flushed int // bytes handed to w
	// nullEnd and nullCol locate the last null list item ("-" with nothing
	// after it): the output offset just after its dash, and the column.
	nullEnd, nullCol int
	// open holds the containers being written, below cycleCheckDepth:
	// *Map for maps, the first item's address for lists.
	open map[any]bool
}

// flush hands the buffer to the writer once it is large enough.
func (e *emitter) flush() {
	if e.w == nil || len(e.buf) < flushSize || e.err != nil {
		return
	}
	_, e.err = e.w.Write(e.buf)
	e.flushed += len(e.buf)
	e.buf = e.buf[:0]
}

const spaces = "                                                                "

func (e *emitter) newline(col int) {
	e.buf = append(e.buf, '\n')
	for col > len(spaces) {
		e.buf = append(e.buf, spaces...)
		col -= len(spaces)
	}
	e.buf = append(e.buf, spaces[:col]...)
}

func (e *emitter) document(v *Value) {
	if v == nil {
		return
	}
	switch v.Kind {
	case KindNull:
		// js-yaml writes an empty document.
		return
	case KindMap:
		if hasEntries(v.Map()) {
			e.mapEntries(v.Map(), 0, true, false)
			e.buf = append(e.buf, '\n')
			return
		}
	case KindList:
		if len(v.List()) > 0 {
			e.listItems(v.List(), 0, true, false)
			e.buf = append(e.buf, '\n')
			return
		}
	}
	e.scalar(v, 0, false, true)
	e.markStart()
	e.buf = append(e.buf, '\n')
}

// markStart adds the document start marker that prettier adds when the
// document's text has "---" at offset 1 (it takes that for a marker it must
// keep). Called right after the first key or scalar of the document.
func (e *emitter) markStart() {
	if e.flushed == 0 && len(e.buf) >= 4 && string(e.buf[1:4]) == "---" {
		e.buf = append(e.buf, "---\n"...)
		copy(e.buf[4:], e.buf[:len(e.buf)-4])
		copy(e.buf, "---\n")
	}
}

// hasEntries reports whether m has a key that js-yaml would write.
func hasEntries(m *Map) bool {
	if m == nil {
		return false
	}
	for _, x := range m.vals() {
		if x != nil {
			return true
		}
	}
	return false
}

// enter starts writing container c and reports whether to go on.
func (e *emitter) enter(c any) bool {
	if e.err != nil {
		return false
	}
	e.depth++
	if e.depth > cycleCheckDepth {
		if e.open == nil {
			e.open = map[any]bool{}
		}
		if e.open[c] {
			e.err = errCyclic
			return false
		}
		e.open[c] = true
	}
	return true
}

func (e *emitter) leave(c any) {
	if e.depth > cycleCheckDepth {
		delete(e.open, c)
	}
	e.depth--
}

// mapEntries writes the entries of m with keys at column col; the first
// entry continues the current line when inline is set. shifted records
// whether m sits under a map key somewhere: js-yaml indents such containers
// by 2 where the reference's output has 4.
func (e *emitter) mapEntries(m *Map, col int, inline, shifted bool) {
	if !e.enter(m) {
		return
	}
	defer e.leave(m)
	first := true
	vals := m.vals()
	for i, k := range m.keys() {
		x := vals[i]
		if x == nil {
			continue
		}
		if !first || !inline {
			e.newline(col)
		}
		if e.key(k, col == 0) {
			// Explicit key: "? key", then ":" on its own line.
			e.newline(col)
		} else if first && col == 0 {
			e.markStart()
		}
		first = false
		e.buf = append(e.buf, ':')
		e.child(x, col, false, shifted)
		if e.flush(); e.err != nil {
			return
		}
	}
}

// listItems writes the items of l with dashes at column col; the first item
// continues the current line when inline is set.
func (e *emitter) listItems(l []*Value, col int, inline, shifted bool) {
	if !e.enter(&l[0]) {
		return
	}
	defer e.leave(&l[0])
	for i, x := range l {
		if i > 0 || !inline {
			if e.nullCol > col && e.nullEnd == e.flushed+len(e.buf) {
				// js-yaml reads a dash line after an empty item of a
				// deeper list as part of that list; spell the null out.
				e.buf = append(e.buf, " null"...)
			}
			e.newline(col)
		}
		e.buf = append(e.buf, '-')
		if isEmpty(x) {
			e.nullEnd, e.nullCol = e.flushed+len(e.buf), col
		}
		e.child(x, col, true, shifted)
		if e.flush(); e.err != nil {
			return
		}
	}
}

// child writes the value after "key:" (a key at column col) or after "-" (a
// dash at column col).
func (e *emitter) child(v *Value, col int, inList, shifted bool) {
	if isEmpty(v) {
		return
	}
	isMap := v.Kind == KindMap && hasEntries(v.Map())
	if !isMap && (v.Kind != KindList || len(v.List()) == 0) {
		e.buf = append(e.buf, ' ')
		e.scalar(v, col, shifted, false)
		return
	}
	// A collection in a list starts on the dash's line; under a key it
	// starts on the next line, indented.
	if inList {
		e.buf = append(e.buf, ' ')
		col += 2
	} else {
		col, shifted = col+indent, true
	}
	if isMap {
		e.mapEntries(v.Map(), col, inList, shifted)
	} else {
		e.listItems(v.List(), col, inList, shifted)
	}
}

// isEmpty reports whether v is written as nothing: null, and (as null, where
// JavaScript would throw) an invalid date.
func isEmpty(v *Value) bool {
	return v == nil || v.Kind == KindNull || (v.Kind == KindTime && !js.ValidTime(v.Num()))
}

// scalar writes a scalar, or an empty map or list, at the cursor. col is the
// column of the key or dash it belongs to.
func (e *emitter) scalar(v *Value, col int, shifted, root bool) {
	switch v.Kind {
	case KindNull:
	case KindBool:
		if v.Bool {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
	case KindNumber:
		e.buf = appendYAMLNumber(e.buf, v.Num())
	case KindTime:
		if js.ValidTime(v.Num()) {
			e.buf = js.AppendISOTime(e.buf, v.Num())
		}
	case KindString:
		e.str(v.Str(), col, shifted, root)
	case KindMap:
		e.buf = append(e.buf, "{}"...)
	case KindList:
		e.buf = append(e.buf, "[]"...)
	}
}

// key writes a map key and reports whether it used the explicit form.
func (e *emitter) key(k string, lineStart bool) bool {
	start := len(e.buf)
	e.quoted(k, chooseStyle(k, true, lineStart))
	if len(e.buf)-start <= maxImplicitKey {
		return false
	}
	e.buf = append(e.buf, "? "...)
	copy(e.buf[start+2:], e.buf[start:len(e.buf)-2])
	copy(e.buf[start:], "? ")
	return true
}

// maxImplicitKey is YAML's limit on the length of an implicit key.
const maxImplicitKey = 1024

func (e *emitter) str(s string, col int, shifted, root bool) {
	style := chooseStyle(s, false, root)
	if style != styleLiteral {
		e.quoted(s, style)
		return
	}
	// prettier trims trailing spaces of a block's last line.
	if t := strings.TrimRight(s, "\n"); t != "" && t[len(t)-1] == ' ' {
		e.quoted(s, styleDouble)
		return
	}
	if t := strings.TrimLeft(s, "\n"); t != "" && t[0] == ' ' {
		// A leading space needs an indentation indicator; prettier keeps
		// js-yaml's indicator 2 but re-indents the lines, which is right
		// only where both put the container in the same column.
		if root || shifted {
			e.quoted(s, styleDouble)
			return
		}
		e.literal(s, "2", col+2)
		return
	}
	// A kept final line break at the top level comes out unindented.
	if root && (s == "\n" || strings.HasSuffix(s, "\n\n")) {
		e.quoted(s, styleDouble)
		return
	}
	e.literal(s, "", col+4)
}

// quoted writes s in a single-line style.
func (e *emitter) quoted(s string, style scalarStyle) {
	switch style {
	case stylePlain:
		e.buf = append(e.buf, s...)
	case styleSingle:
		// js-yaml single-quotes; prettier then prefers double quotes when
		// that saves escaping a single quote and needs no other escape.
		if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 && strings.IndexByte(s, '\\') < 0 {
			e.buf = append(e.buf, '"')
			e.buf = append(e.buf, s...)
			e.buf = append(e.buf, '"')
			return
		}
		e.buf = append(e.buf, '\'')
		for {
			i := strings.IndexByte(s, '\'')
			if i < 0 {
				break
			}
			e.buf = append(e.buf, s[:i+1]...)
			e.buf = append(e.buf, '\'')
			s = s[i+1:]
		}
		e.buf = append(e.buf, s...)
		e.buf = append(e.buf, '\'')
	default:
		e.buf = appendDoubleQuoted(e.buf, s)
	}
}

// literal writes s as a literal block scalar with its lines at column col.
func (e *emitter) literal(s, indicator string, col int) {
	e.buf = append(e.buf, '|')
	e.buf = append(e.buf, indicator...)
	switch {
	case s == "\n" || strings.HasSuffix(s, "\n\n"):
		e.buf = append(e.buf, '+')
	case strings.HasSuffix(s, "\n"):
	default:
		e.buf = append(e.buf, '-')
	}
	// The line break that ends the block is the one after the last line.
	s = strings.TrimSuffix(s, "\n")
	for {
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line = s[:i]
		}
		if line == "" {
			e.buf = append(e.buf, '\n')
		} else {
			e.newline(col)
			e.buf = append(e.buf, line...)
		}
		if i < 0 {
			return
		}
		s = s[i+1:]
	}
}

type scalarStyle uint8

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// chooseStyle is js-yaml's chooseScalarStyle for block context with
// unlimited line width, plus the extra quoting described above. lineStart
// tells that s starts a line (a top-level key or scalar).
func chooseStyle(s string, key, lineStart bool) scalarStyle {
	if s == "" {
		return styleSingle
	}
	if isASCIIPlainWord(s) {
		if mayResolve(s) {
			return styleSingle
		}
		return stylePlain
	}
	if deprecatedBool(s) || isBase60(s) {
		return styleSingle
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	plain := plainSafeFirst(first) && !isWhite(last) && last != ':'
	lineBreak := false
	prev := rune(-1)
	for i := 0; i < len(s); {
		c, w := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && w == 1 {
			return styleDouble
		}
		i += w
		if c == '\n' && !key {
			lineBreak = true
		} else if !isPrintable(c) {
			return styleDouble
		}
		plain = plain && plainSafe(c, prev)
		prev = c
	}
	if lineBreak {
		return styleLiteral
	}
	if plain && !mayResolve(s) && !(lineStart && isDocEnd(s, key)) {
		return stylePlain
	}
	return styleSingle
}

// isASCIIPlainWord is a fast path for the common key or name: ASCII letters,
// digits and "_-./" only, starting with a letter or digit.
// Every key and name of the output goes through it, a table lookup per
// byte rather than a chain of comparisons.
func isASCIIPlainWord(s string) bool {
	if plainWord[s[0]] != 2 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if plainWord[s[i]] == 0 {
			return false
		}
	}
	return true
}

// plainWord is 2 for the bytes a plain word starts with, ASCII letters and
// digits, 1 for the others it may hold, "_-./", and 0 for the rest.
var plainWord = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			t[c] = 2
		case c == '_' || c == '-' || c == '.' || c == '/':
			t[c] = 1
		}
	}
	return t
}()

// mayResolve reports whether a plain s would read back as something other
// than the string s, for js-yaml or for a YAML 1.1 reader.
func mayResolve(s string) bool {
	switch c := s[0]; {
	case c == '~' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F' ||
		c == 'y' || c == 'Y' || c == 'o' || c == 'O':
		return deprecatedBool(s) || resolvesToNonString(s)
	case isDigit(c) || c == '-' || c == '+' || c == '.':
		return resolvesToNonString(s) || isBase60(s) || yaml11Number().MatchString(s)
	case c == '<':
		return s == "<<"
	}
	return false
}

func deprecatedBool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return false
}

// isBase60 is js-yaml's DEPRECATED_BASE60_SYNTAX:
// ^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$
func isBase60(s string) bool {
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
			i++
		}
		return i > start
	}
	if !digits() {
		return false
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		if !digits() {
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
			i++
		}
	}
	return i == len(s)
}

// yaml11Number matches the YAML 1.1 int, float and timestamp forms (as
// PyYAML and go-yaml v2 read them) that js-yaml reads as strings. Like
// the other expressions of v4t it is compiled on first use, not at
// start-up, which every process pays for.
var yaml11Number = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` +
		`[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|` +
		`[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+|` +
		`[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?|` +
		`[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|` +
		`[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?)?` +
		`)$`)
})

// isDocEnd reports whether a plain s at the start of a line would end the
// document: "..." followed by a space, or by the line end (a key is
// followed by ":").
func isDocEnd(s string, key bool) bool {
	return strings.HasPrefix(s, "...") && ((len(s) == 3 && !key) || (len(s) > 3 && s[3] == ' '))
}

func isWhite(c rune) bool { return c == ' ' || c == '\t' }

// isPrintable is js-yaml's isPrintable.
func isPrintable(c rune) bool {
	return (c >= 0x20 && c <= 0x7e) ||
		(c >= 0xa1 && c <= 0xd7ff && c != 0x2028 && c != 0x2029) ||
		(c >= 0xe000 && c <= 0xfffd && c != 0xfeff) ||
		(c >= 0x10000 && c <= 0x10ffff)
}

func isNsCharOrWhite(c rune) bool {
	return c >= 0 && isPrintable(c) && c != 0xfeff && c != '\r' && c != '\n'
}

// plainSafe is js-yaml's isPlainSafe in block context; prev is -1 at the
// start.
func plainSafe(c, prev rune) bool {
	cNsOrWhite := isNsCharOrWhite(c)
	cNs := cNsOrWhite && !isWhite(c)
	return (cNsOrWhite && c != '#' && !(prev == ':' && !cNs)) ||
		(isNsCharOrWhite(prev) && !isWhite(prev) && c == '#') ||
		(prev == ':' && cNs)
}

// plainSafeFirst is js-yaml's isPlainSafeFirst.
func plainSafeFirst(c rune) bool {
	if !isPrintable(c) || c == 0xfeff || isWhite(c) {
		return false
	}
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '=', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// shortEscapes are the escapes js-yaml writes in a double-quoted scalar
// for the characters that have a short one.
var shortEscapes = map[rune]string{
	0: `\0`, 7: `\a`, 8: `\b`, '\t': `\t`, '\n': `\n`, 0x0b: `\v`, 0x0c: `\f`, '\r': `\r`, 0x1b: `\e`,
	'"': `\"`, '\\': `\\`, 0x85: `\N`, 0xa0: `\_`, 0x2028: `\L`, 0x2029: `\P`,
}

// appendDoubleQuoted is js-yaml's double-quoted style (escapeString).
func appendDoubleQuoted(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c, w := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && w == 1 {
			// Not UTF-8; YAML cannot hold the byte.
			b = append(b, `\uFFFD`...)
			i++
			continue
		}
		if esc, ok := shortEscapes[c]; ok {
			b = append(b, esc...)
			i += w
			continue
		}
		switch {
		case isPrintable(c):
			b = append(b, s[i:i+w]...)
		case c <= 0xff:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
		case c <= 0xffff:
			b = append(b, '\\', 'u', hex[c>>12], hex[c>>8&15], hex[c>>4&15], hex[c&15])
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hex[c>>sh&15])
			}
		}
		i += w
	}
	return append(b, '"')
}

// FormatNumber spells a number the way js-yaml's int and float types write
// it: JavaScript's notation, .nan, .inf, -.inf, -0.0, and a dot in the
// mantissa of a fraction in exponent form (5.e-7).
func FormatNumber(f float64) string {
	var d [32]byte
	return string(appendYAMLNumber(d[:0], f))
}

// appendYAMLNumber appends FormatNumber(f) to b.
func appendYAMLNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, ".nan"...)
	case math.IsInf(f, 1):
		return append(b, ".inf"...)
	case math.IsInf(f, -1):
		return append(b, "-.inf"...)
	case f == 0 && math.Signbit(f):
		return append(b, "-0.0"...)
	}
	start := len(b)
	b = js.AppendNumber(b, f)
	if f == math.Trunc(f) {
		return b
	}
	// YAML needs a dot in a float's mantissa: 5e-7 becomes 5.e-7.
	s := b[start:]
	if e := bytes.IndexByte(s, 'e'); e >= 0 && bytes.IndexByte(s[:e], '.') < 0 {
		b = append(b, 0)
		copy(b[start+e+1:], b[start+e:len(b)-1])
		b[start+e] = '.'
	}
	return b
}
