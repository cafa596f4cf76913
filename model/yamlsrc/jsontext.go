package yamlsrc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"v4t/model/diag"
)

// ParseJSON parses one JSON text (RFC 8259) into values: object keys keep
// their order whatever their form (Map.Append, not JavaScript's order),
// numbers and booleans keep their literal text in Str (2.10 stays 2.10),
// and every value has its position. resolve/sd reads SD_DATA and JSON
// artifacts with it, resolve/batch the JSON summaries of v4t batch. Invalid
// UTF-8, a duplicate key in an object, content after the value, and nesting
// deeper than the document limit are errors. Every error is a diagnostic
// with a line and column (columns count runes, as yaml.v3's do).
func ParseJSON(data []byte, file string) (*Value, error) {
	p := jsonParser{data: data, file: file}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, w := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && w <= 1 {
				break
			}
			i += w
		}
		return nil, p.errAt(i, "invalid UTF-8")
	}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(data) {
		return nil, p.errAt(p.pos, "unexpected %s after the JSON value", p.describe(p.pos))
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	pos  int
	file string
	// The last position computed: byte offset, line and column.
	lastOff, lastLine, lastCol int
}

// position returns the 1-based line and rune column of byte offset off.
// Offsets mostly grow, so it goes on from the last one it computed.
func (p *jsonParser) position(off int) (line, col int) {
	if off < p.lastOff {
		p.lastOff, p.lastLine, p.lastCol = 0, 1, 1
	}
	if p.lastLine == 0 {
		p.lastLine, p.lastCol = 1, 1
	}
	i, line, col := p.lastOff, p.lastLine, p.lastCol
	for i < off && i < len(p.data) {
		if p.data[i] == '\n' {
			line++
			col = 1
			i++
			continue
		}
		_, w := utf8.DecodeRune(p.data[i:])
		i += w
		col++
	}
	p.lastOff, p.lastLine, p.lastCol = i, line, col
	return line, col
}

func (p *jsonParser) errAt(off int, format string, args ...any) error {
	line, col := p.position(off)
	return diag.Errorf(diag.Pos{File: p.file, Line: line, Col: col}, diag.StageLoad, format, args...)
}

// describe names what is at offset off, for error messages.
func (p *jsonParser) describe(off int) string {
	if off >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[off:])
	return fmt.Sprintf("character %q", r)
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) newValue(k Kind, off int) *Value {
	line, col := p.position(off)
	return &Value{Kind: k, Line: int32(line), Col: int32(col)}
}

func (p *jsonParser) value(depth int) (*Value, error) {
	if depth > MaxDepth {
		return nil, p.errAt(p.pos, "JSON nested deeper than %d levels", MaxDepth)
	}
	if p.pos >= len(p.data) {
		return nil, p.errAt(p.pos, "unexpected end of input, expected a JSON value")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v := p.newValue(KindString, start)
		v.SetStr(s)
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+5)]), lit) {
				p.pos += len(lit)
				if lit == "null" {
					return p.newValue(KindNull, start), nil
				}
				v := p.newValue(KindBool, start)
				v.Bool = lit == "true"
				v.SetStr(lit)
				return v, nil
			}
		}
		return nil, p.errAt(p.pos, "unexpected %s, expected a JSON value", p.describe(p.pos))
	}
}

func (p *jsonParser) object(depth int) (*Value, error) {
	v := p.newValue(KindMap, p.pos)
	v.SetMap(&Map{})
	seen := map[string]bool{}
	err := p.items('}', "an object", func() error {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errAt(p.pos, "unexpected %s, expected a string key", p.describe(p.pos))
		}
		keyPos := p.pos
		k, err := p.str()
		if err != nil {
			return err
		}
		if seen[k] {
			return p.errAt(keyPos, "duplicate key %q", k)
		}
		seen[k] = true
		p.space()
		if !p.eat(':') {
			return p.errAt(p.pos, "unexpected %s, expected ':' after an object key", p.describe(p.pos))
		}
		p.space()
		x, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		v.Map().Append(k, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (p *jsonParser) array(depth int) (*Value, error) {
	v := p.newValue(KindList, p.pos)
	v.SetList([]*Value{})
	err := p.items(']', "an array", func() error {
		x, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		v.SetList(append(v.List(), x))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// items reads the items of an object or array (what) whose opening byte is
// at p.pos, up to its closing byte end: item reads each one, from its first
// byte after any space.
func (p *jsonParser) items(end byte, what string, item func() error) error {
	p.pos++
	p.space()
	if p.eat(end) {
		return nil
	}
	for {
		p.space()
		if err := item(); err != nil {
			return err
		}
		p.space()
		if p.eat(',') {
			continue
		}
		if p.eat(end) {
			return nil
		}
		return p.errAt(p.pos, "unexpected %s, expected ',' or '%c' in %s", p.describe(p.pos), end, what)
	}
}

// eat consumes the byte c if it comes next.
func (p *jsonParser) eat(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? and keeps
// its text.
func (p *jsonParser) number() (*Value, error) {
	start := p.pos
	d := p.data
	i := p.pos
	digits := func() bool {
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > s
	}
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return nil, p.errAt(i, "unexpected %s in a number", p.describe(i))
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return nil, p.errAt(i, "unexpected %s in a number, expected a digit after '.'", p.describe(i))
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, p.errAt(i, "unexpected %s in a number, expected a digit in the exponent", p.describe(i))
		}
	}
	text := string(d[start:i])
	// Out of range gives an infinity; the text is what is written back.
	f, _ := strconv.ParseFloat(text, 64)
	p.pos = i
	v := p.newValue(KindNumber, start)
	v.SetNum(f)
	v.SetStr(text)
	return v, nil
}

// str reads a string literal at p.pos.
func (p *jsonParser) str() (string, error) {
	d := p.data
	i := p.pos + 1
	var b strings.Builder
	plainFrom := i
	for {
		if i >= len(d) {
			return "", p.errAt(i, "unexpected end of input in a string")
		}
		c := d[i]
		switch {
		case c == '"':
			b.Write(d[plainFrom:i])
			p.pos = i + 1
			return b.String(), nil
		case c < 0x20:
			return "", p.errAt(i, "control character %q in a string", rune(c))
		case c == '\\':
			b.Write(d[plainFrom:i])
			if i+1 >= len(d) {
				return "", p.errAt(i+1, "unexpected end of input in a string")
			}
			esc := d[i+1]
			i += 2
			switch esc {
			case '"', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := hex4(d, i)
				if !ok {
					return "", p.errAt(i, "invalid \\u escape in a string")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(d, i+2); ok && i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r = dec
							i += 6
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b.WriteRune(r)
			default:
				return "", p.errAt(i-2, "invalid escape '\\%c' in a string", rune(esc))
			}
			plainFrom = i
		default:
			i++
		}
	}
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
