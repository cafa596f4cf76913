package yamlsrc

import (
	"bytes"
	"io"
	"iter"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
)

// Locating YAML syntax errors. yaml.v3 reports a line only, and for the
// parser's errors (as opposed to the scanner's) the line is that of the
// context the parser was in, 0-based: for a mis-indented key it names the
// line before the mapping the key should have been in, which can be far
// above the culprit. Every reader of YAML (the resolver, the validator,
// completion) gets the position refined from the text: the culprit line is
// the first line whose prefix of the document fails the same way, and the
// column is that of the offending token where the message says which one
// it is. A tab that breaks the indentation of a scalar's continuation is
// named at the start of the scalar: it is located on its own line and
// column (indentTab).

// maxLocateSize bounds the documents whose errors are located by parsing
// prefixes (about log2(lines) parses).
const maxLocateSize = 4 << 20

// locateYAMLError refines the position of an "invalid YAML: ..." diagnostic
// of data and names the offending token in its message.
func locateYAMLError(d *diag.Diagnostic, data []byte) {
	msg, ok := strings.CutPrefix(d.Message, "invalid YAML: ")
	if !ok || len(data) == 0 {
		return
	}
	lines := splitLines(data)
	line := d.Pos.Line
	switch msg {
	case "did not find expected key", "did not find expected '-' indicator", "did not find expected node content":
		// A parser error: the reported line is 0-based and the context's.
		if n := firstFailingLine(data, lines, d.Message); n > 0 {
			line = n
		} else if line < len(lines) {
			line++
		}
	case "found a tab character that violates indentation", "found a tab character where an indentation space is expected":
		// A scanner error named at the start of the scalar (plain or
		// block) that the tab's line continues: the tab itself is on a
		// later line, in its indentation.
		if l, c := indentTab(data, lines, d.Message, line); l > 0 {
			d.Pos.Line, d.Pos.Col = l, c
		}
		return
	case "did not find expected ',' or ']'", "did not find expected ',' or '}'":
		if l, c, b := unclosedBracket(lines, line+1); l > 0 {
			d.Pos.Line, d.Pos.Col = l, c
			d.Message += ": the " + strconv.QuoteRune(rune(b)) + " here is not closed"
		}
		return
	}
	if line < 1 || line > len(lines) {
		return
	}
	text := lines[line-1]
	col, tok := tokenAt(text, msg)
	d.Pos.Line, d.Pos.Col = line, col
	if tok != "" {
		d.Message += ", found " + tok
	}
}

// splitLines returns the lines of data without their line breaks.
func splitLines(data []byte) [][]byte {
	lines := bytes.Split(data, []byte{'\n'})
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte{'\r'})
	}
	if n := len(lines); n > 1 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines
}

// firstFailingLine returns the first line n such that the document cut
// after line n fails to parse with message msg, or 0.
func firstFailingLine(data []byte, lines [][]byte, msg string) int {
	if len(data) > maxLocateSize {
		return 0
	}
	ends := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		off += len(l)
		if off < len(data) && data[off] == '\r' {
			off++
		}
		if off < len(data) {
			off++ // the '\n'
		}
		ends[i] = off
	}
	fails := func(n int) bool {
		return rawSyntaxMessage(data[:ends[n-1]]) == msg
	}
	lo, hi := 1, len(lines)
	if !fails(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// indentTab returns the line and column of the tab in the indentation that
// the scanner's message msg is about, or zeros. The line is the first
// whose prefix of the document fails with msg; where that cannot be told
// (a large document), it is the first line from line start on (the line
// yaml.v3 names: the scalar's first, or the tab's own where the scalar
// starts the document) whose indentation holds a tab.
func indentTab(data []byte, lines [][]byte, msg string, start int) (int, int) {
	leadingTab := func(text []byte) int {
		for i := 0; i < len(text) && (text[i] == ' ' || text[i] == '\t'); i++ {
			if text[i] == '\t' {
				return runeCol(text, i)
			}
		}
		return 0
	}
	if n := firstFailingLine(data, lines, msg); n > 0 {
		if c := leadingTab(lines[n-1]); c > 0 {
			return n, c
		}
	}
	for n := max(start, 1); n <= len(lines); n++ {
		if c := leadingTab(lines[n-1]); c > 0 {
			return n, c
		}
	}
	return 0, 0
}

// rawSyntaxMessage returns the "invalid YAML: ..." message of yaml.v3's
// first syntax error in data, without its line, or "" when data parses.
func rawSyntaxMessage(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := decode(dec, &n)
		if err == io.EOF {
			return ""
		}
		if err != nil {
			_, msg := splitLine(err)
			return "invalid YAML: " + msg
		}
	}
}

// tokenAt returns the column of the token of line text that the scanner's
// message msg is about (the first non-blank one when the message does not
// say), and the token quoted for the message ("" when there is none).
func tokenAt(text []byte, msg string) (int, string) {
	indent := 0
	for indent < len(text) && (text[indent] == ' ' || text[indent] == '\t') {
		if text[indent] == '\t' && msg == "found character that cannot start any token" {
			return runeCol(text, indent), "a tab"
		}
		indent++
	}
	at := indent
	switch {
	case msg == "found character that cannot start any token":
		for i := indent; i < len(text); i++ {
			if c := text[i]; (c == '@' || c == '`' || c == '\t') && tokenStart(text, i) {
				at = i
				break
			}
		}
	case msg == "mapping values are not allowed in this context":
		var colons []int
		for i := range codeBytes(text, indent, false) {
			if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
				colons = append(colons, i)
			}
		}
		switch {
		case len(colons) >= 2:
			at = colons[1]
		case len(colons) == 1:
			at = colons[0]
		}
		// Name the key the colon makes: the word before it.
		start := at
		for start > indent && text[start-1] != ' ' {
			start--
		}
		if start < at {
			return runeCol(text, at), strconv.Quote(string(text[start:at]) + ":")
		}
		return runeCol(text, at), ""
	case strings.HasPrefix(msg, "unknown anchor '"):
		name, _, _ := strings.Cut(msg[len("unknown anchor '"):], "'")
		if i := bytes.Index(text[indent:], []byte("*"+name)); i >= 0 {
			return runeCol(text, indent+i), strconv.Quote("*" + name)
		}
	case strings.HasPrefix(msg, "found unexpected end of stream"):
		for i := indent; i < len(text); i++ {
			if c := text[i]; (c == '"' || c == '\'') && tokenStart(text, i) && !bytes.ContainsRune(text[i+1:], rune(c)) {
				return runeCol(text, i), "an unclosed " + strconv.QuoteRune(rune(c))
			}
		}
	}
	if at >= len(text) {
		return 0, ""
	}
	return runeCol(text, at), strconv.Quote(word(text[at:]))
}

// codeBytes yields the offsets from from on of the bytes of line text that
// are outside quoted scalars and comments; a comment starts at a '#' after a
// space, or at the start of the line when lineStart is set.
func codeBytes(text []byte, from int, lineStart bool) iter.Seq[int] {
	return func(yield func(int) bool) {
		quote := byte(0)
		for i := from; i < len(text); i++ {
			c := text[i]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case (c == '"' || c == '\'') && tokenStart(text, i):
				quote = c
			case c == '#' && (i > 0 && text[i-1] == ' ' || i == 0 && lineStart):
				return
			default:
				if !yield(i) {
					return
				}
			}
		}
	}
}

// tokenStart reports whether a token may start at byte i of text: at the
// start of the content or after a separator.
func tokenStart(text []byte, i int) bool {
	if i == 0 {
		return true
	}
	switch text[i-1] {
	case ' ', '\t', '[', '{', ',':
		return true
	}
	return false
}

// word returns the token at the start of b: up to a blank or a mapping
// colon, at most 40 bytes.
func word(b []byte) string {
	end := 0
	for end < len(b) && b[end] != ' ' && b[end] != '\t' && !(b[end] == ':' && (end+1 == len(b) || b[end+1] == ' ')) {
		end++
	}
	if end == 0 && len(b) > 0 {
		end = 1
	}
	if end > 40 {
		end = 40
	}
	return string(b[:end])
}

// runeCol is the 1-based column (in runes, like yaml.v3) of byte offset i.
func runeCol(text []byte, i int) int {
	return len([]rune(string(text[:i]))) + 1
}

// unclosedBracket returns the position of the first flow bracket ('[' or
// '{') that is never closed, preferring one on line want, and the bracket,
// or zeros. Quotes and comments are skipped.
func unclosedBracket(lines [][]byte, want int) (int, int, byte) {
	type open struct {
		line, col int
		b         byte
	}
	var stack []open
	for n, text := range lines {
		for i := range codeBytes(text, 0, true) {
			switch c := text[i]; {
			case c == '[' || c == '{':
				stack = append(stack, open{n + 1, runeCol(text, i), c})
			case (c == ']' || c == '}') && len(stack) > 0:
				stack = stack[:len(stack)-1]
			}
		}
	}
	for _, o := range stack {
		if o.line == want {
			return o.line, o.col, o.b
		}
	}
	if len(stack) > 0 {
		return stack[0].line, stack[0].col, stack[0].b
	}
	return 0, 0, 0
}
