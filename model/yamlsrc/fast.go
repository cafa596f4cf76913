package yamlsrc

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The fast path reads the YAML that templates are made of straight into
// values, without yaml.v3's token stream and node tree. It knows a subset of
// the language:
//
//   - block mappings and sequences with any consistent indentation, the
//     compact forms "key:\n- item" and "- key: value", nested "- - x";
//   - plain scalars, single-quoted and double-quoted scalars (with their
//     escapes), all three also over several lines (line folding), and
//     literal and folded block scalars (|, >, with chomping and indentation
//     indicators);
//   - flow sequences and mappings on one line, nested, of one-line scalars;
//   - comments, empty values, a leading "---", LF or CRLF line ends.
//
// It gives up (bails out) on everything else: anchors, aliases, tags,
// complex keys (?), merge keys (<<), flow collections over several lines,
// empty values and single pairs in flow collections, directives, several
// documents or a "...", tabs, lone carriage returns, a byte order mark,
// Unicode line breaks, characters yaml.v3 rejects, duplicate keys, keys
// longer than yaml.v3 allows, nesting deeper than fastMaxDepth, and
// whatever else it does not expect, errors included. Parse then reads the
// document with yaml.v3 as before, so a bail-out costs time, never
// correctness; most bail-outs happen early (the character check) or at the
// construct itself. Where the fast path does produce a document, it is the
// one the yaml.v3 path produces: the same kinds, values, key order and
// positions (columns count runes, as yaml.v3's do). The differential tests
// and FuzzFastPath hold it to that.
//
// The parser reads the caller's bytes in place, never copied (unless line
// ends must be rewritten). The keys and the unescaped one-line scalars it
// keeps are copied out of them (keep): a template's text is mostly
// indentation and punctuation, and the same keys and names come back many
// times, so copying each distinct string once into a few shared chunks takes
// a fraction of the text's size, where holding substrings would keep the
// whole text alive as long as the document. Values, maps and lists come from
// the converter's slabs; the entries of an open collection wait on a shared
// stack and move into a slice of the exact size when it closes.

// fastMaxDepth bounds the nesting the fast path follows; deeper documents
// go to yaml.v3 (and its depth limits).
const fastMaxDepth = 1000

// maxSimpleKey is below yaml.v3's limit of 1024 characters between the
// start of an implicit key and its colon.
const maxSimpleKey = 1000

// fastBail is the panic value that abandons the fast path.
type fastBail struct{}

// fastStrict makes any other panic in the fast path crash; the tests set
// it.
var fastStrict = false

type fastParser struct {
	src       string
	pos       int   // next byte to read
	line      int32 // 1-based line of pos
	lineStart int   // offset of the line holding pos
	ascii     bool  // src is all ASCII: columns are byte offsets
	// colLine, colOff and colRunes remember the last column counted in
	// non-ASCII text: the line start, the offset and its runes.
	colLine, colOff, colRunes int
	// ind is the indentation of the content line at pos after
	// nextContent, -1 at the end of the text.
	ind   int
	depth int
	c     converter
	// items and keys are stacks of the entries of the collections being
	// read; a collection takes its entries off when it closes.
	items []*Value
	keys  []string
	buf   []byte
	// strs is the direct-mapped table of the strings kept so far, by
	// hash; chunk is the unused rest of the chunk they are copied into.
	strs  []string
	chunk []byte
}

// parseFast reads data with the fast path; ok is false if it bailed out.
// data is only read, and only during the call: nothing in the document
// refers to it.
func parseFast(data []byte) (v *Value, ok bool) {
	ascii, crlf, valid := fastChars(data)
	if !valid || len(data) == 0 {
		return nil, false
	}
	p := &fastParser{line: 1, ascii: ascii, colLine: -1}
	if crlf {
		// Every carriage return ends a line before a line feed: yaml.v3
		// reads the pair as one line break, which changes no position.
		p.src = strings.ReplaceAll(string(data), "\r\n", "\n")
	} else {
		// Read in place: every string that leaves the parser goes
		// through keep, which copies what lies in the text.
		p.src = unsafe.String(&data[0], len(data))
	}
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(fastBail); !bail && fastStrict {
				panic(r)
			}
			// A failure of the fast path itself (a bug) also falls back
			// to yaml.v3, except under test.
			v, ok = nil, false
		}
	}()
	return p.document(), true
}

// fastChars checks that data holds only characters the fast path handles:
// printable ASCII, line feeds, carriage returns before line feeds (crlf
// tells if there are any), and the non-ASCII characters yaml.v3 accepts
// that are neither line breaks nor byte order marks.
func fastChars(data []byte) (ascii, crlf, ok bool) {
	ascii = true
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	// For bytes below 0x80, b+0x60 and b+1 carry into bit 7 exactly when
	// b >= 0x20 and b >= 0x7f, and x+0x7f does when x != 0.
	good := func(w uint64) uint64 {
		printable := (w + 0x60*lo) &^ (w + lo)
		x := w ^ '\n'*lo
		return (printable | ^(x + 0x7f*lo | x)) & hi
	}
	for i := 0; i < len(data); {
		// 32 bytes at a time while they are printable ASCII or line
		// feeds, byte by byte through the 32 bytes that are not.
		if i+32 <= len(data) {
			d := data[i : i+32]
			w0 := binary.LittleEndian.Uint64(d)
			w1 := binary.LittleEndian.Uint64(d[8:])
			w2 := binary.LittleEndian.Uint64(d[16:])
			w3 := binary.LittleEndian.Uint64(d[24:])
			if (w0|w1|w2|w3)&hi == 0 && good(w0)&good(w1)&good(w2)&good(w3) == hi {
				i += 32
				continue
			}
		}
		for end := min(i+32, len(data)); i < end; {
			c := data[i]
			switch {
			case c >= 0x20 && c < 0x7f || c == '\n':
				i++
				continue
			case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
				crlf = true
				i += 2
				continue
			case c < 0x80:
				return false, false, false
			}
			ascii = false
			r, w := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && w == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
				return false, false, false
			}
			i += w
		}
	}
	return ascii, crlf, true
}

func (p *fastParser) bail() { panic(fastBail{}) }

// strSeed seeds the hash of the string table; which strings share memory
// is never visible in the document.
var strSeed = maphash.MakeSeed()

const (
	// chunkSize is the size of the chunks that kept strings are copied
	// into; a string longer than a quarter of it gets its own allocation.
	chunkSize = 64 << 10
	// maxStrSlots bounds the string table to 16 KiB, which stays in the
	// processor's cache: on the ring template at seed 10,000 a table 16
	// times as large keeps no fewer bytes.
	maxStrSlots = 1 << 10
)

// keep returns s for the document: a string that lies in the text is
// copied out of it, shared with an equal string kept before where the
// table still holds that one; any other string (decoded, folded) is the
// parser's own already.
func (p *fastParser) keep(s string) string {
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(p.src)))
	if len(s) == 0 || off >= uintptr(len(p.src)) {
		return s
	}
	if p.strs == nil {
		// A slot per 128 bytes of text: a template repeats its keys
		// and names close to each other, and a missed repeat costs
		// only its copy.
		n := 16
		for n < maxStrSlots && n*128 < len(p.src) {
			n *= 2
		}
		p.strs = make([]string, n)
	}
	slot := &p.strs[maphash.String(strSeed, s)&uint64(len(p.strs)-1)]
	if *slot == s {
		return *slot
	}
	if len(s) > len(p.chunk) {
		if len(s) > chunkSize/4 {
			*slot = strings.Clone(s)
			return *slot
		}
		// The strings still to come lie in the rest of the text: a
		// small document gets a chunk of its size.
		p.chunk = make([]byte, max(min(chunkSize, len(p.src)-int(off)), len(s)))
	}
	b := p.chunk[:len(s):len(s)]
	p.chunk = p.chunk[len(s):]
	copy(b, s)
	*slot = unsafe.String(&b[0], len(b))
	return *slot
}

// colAt is the 1-based column of offset off on the current line. In
// non-ASCII text it counts runes on from the last offset it was asked for,
// so that a long line costs linear time.
func (p *fastParser) colAt(off int) int32 {
	if p.ascii {
		return int32(off - p.lineStart + 1)
	}
	if p.colLine != p.lineStart || off < p.colOff {
		p.colLine, p.colOff, p.colRunes = p.lineStart, p.lineStart, 0
	}
	p.colRunes += utf8.RuneCountInString(p.src[p.colOff:off])
	p.colOff = off
	return int32(p.colRunes + 1)
}

func (p *fastParser) newValue(k Kind, off int) *Value {
	return p.c.alloc(k, p.line, p.colAt(off))
}

// blankz reports whether offset i is a space, a line break or the end.
func blankz(s string, i int) bool {
	return i >= len(s) || s[i] == ' ' || s[i] == '\n'
}

// document reads the whole text: an optional "---", then one node.
func (p *fastParser) document() *Value {
	p.nextLine(false)
	if p.ind == 0 && isMarker(p.src, p.pos) {
		if p.src[p.pos] == '.' {
			p.bail()
		}
		p.pos += 3
		p.endLine(true)
		p.nextContent()
	}
	if p.ind < 0 {
		p.bail() // empty: yaml.v3 knows what that is
	}
	v := p.blockNode(-1, true)
	if p.ind >= 0 {
		p.bail()
	}
	return v
}

// nextContent moves from the start of a line to the first character of the
// next line holding content (not blank, not a comment) and sets p.ind; at
// the end of the text p.ind is -1. It reports whether it passed a comment.
func (p *fastParser) nextContent() bool { return p.nextLine(true) }

func (p *fastParser) nextLine(checkMarkers bool) (comment bool) {
	s := p.src
	i := p.pos
	for {
		j := i
		for j+8 <= len(s) && s[j:j+8] == "        " {
			j += 8
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == len(s) {
			p.pos, p.ind = j, -1
			return comment
		}
		switch s[j] {
		case '\n':
			i = j + 1
			p.line++
			p.lineStart = i
			continue
		case '#':
			comment = true
			k := strings.IndexByte(s[j:], '\n')
			if k < 0 {
				p.pos, p.ind = len(s), -1
				return comment
			}
			i = j + k + 1
			p.line++
			p.lineStart = i
			continue
		}
		if j == i && checkMarkers && isMarker(s, j) {
			p.bail() // another document, or a document end
		}
		p.pos, p.ind = j, j-i
		return comment
	}
}

// isMarker reports whether a document marker ("---" or "...") is at
// offset i, the start of a line.
func isMarker(s string, i int) bool {
	return len(s)-i >= 3 && (s[i:i+3] == "---" || s[i:i+3] == "...") && blankz(s, i+3)
}

// endLine reads the rest of a line after a node: spaces, a comment after a
// space, the line break. afterSpace tells that p.pos follows a space or an
// indicator after which a comment may start directly.
func (p *fastParser) endLine(afterSpace bool) (comment bool) {
	s := p.src
	i := p.pos
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < len(s) && s[i] == '#' {
		if i == p.pos && !afterSpace {
			p.bail()
		}
		comment = true
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			i = len(s)
		} else {
			i += k
		}
	}
	if i < len(s) {
		if s[i] != '\n' {
			p.bail()
		}
		i++
		p.line++
		p.lineStart = i
	}
	p.pos = i
	return comment
}

// plainStart reports whether a plain scalar may start at offset i.
func plainStart(s string, i int, flow bool) bool {
	switch s[i] {
	case '-':
		return !blankz(s, i+1)
	case '?', ':':
		return !flow && !blankz(s, i+1)
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n':
		return false
	}
	return true
}

// plainStops mark the bytes scanPlain must look at: in block context
// (bit 1) the line feed, the space and the colon, in flow context (bit 2)
// also the flow indicators and the question mark.
var plainStops = func() (t [256]uint8) {
	for _, c := range "\n :" {
		t[c] = 3
	}
	for _, c := range ",[]{}?" {
		t[c] = 2
	}
	return t
}()

// scanPlain reads a one-line plain scalar from offset i. It returns the
// end of its text and, in block context, the offset of the colon that
// makes it a key, or -1.
func scanPlain(s string, i int, flow bool) (end, colon int) {
	mask := uint8(1)
	if flow {
		mask = 2
	}
	end = i
	for j := i; j < len(s); {
		k := j
		if !flow {
			k = blockStop(s, k)
		}
		for k < len(s) && plainStops[s[k]]&mask == 0 {
			k++
		}
		if k > j {
			end, j = k, k
			if j == len(s) {
				break
			}
		}
		switch s[j] {
		case '\n':
			return end, -1
		case ' ':
			if j+1 < len(s) && s[j+1] == '#' {
				return end, -1
			}
		case ':':
			if blankz(s, j+1) {
				return end, j
			}
			end = j + 1
		default: // a flow indicator
			return end, -1
		}
		j++
	}
	return end, -1
}

// blockStop returns the offset of the first line feed, space or colon at
// or after i, eight bytes at a time, or where fewer than eight bytes are
// left, the offset at which to go on byte by byte. Plain scalars are most
// of a template's text, and a byte at a time their scan was the parse's
// largest share of instructions.
func blockStop(s string, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8]
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		// A byte of x is zero where w has the byte sought; (x - lo) &^ x
		// sets the high bit of the lowest such byte exactly (bytes above
		// it may be set by the borrow, which the lowest bit ignores).
		lf, sp, co := w^'\n'*lo, w^' '*lo, w^':'*lo
		if m := ((lf-lo)&^lf | (sp-lo)&^sp | (co-lo)&^co) & hi; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

// enter counts a level of nesting; the caller counts it down.
func (p *fastParser) enter() {
	p.depth++
	if p.depth > fastMaxDepth {
		p.bail()
	}
}

// blockNode reads the node at p.pos, in a block collection indented by
// parent (-1 at the top). A block collection may start here only if
// canBlock: at the start of a line or after a "- ". Afterwards p.pos and
// p.ind are at the next content line.
func (p *fastParser) blockNode(parent int, canBlock bool) *Value {
	p.enter()
	defer func() { p.depth-- }()
	s := p.src
	i := p.pos
	col := i - p.lineStart
	switch s[i] {
	case '-':
		if blankz(s, i+1) {
			if !canBlock {
				p.bail()
			}
			return p.blockSeq(col)
		}
	case '[', '{':
		v := p.flowNode()
		p.endLine(false)
		p.nextContent()
		return v
	case '|', '>':
		return p.blockScalar(parent)
	case '"', '\'':
		line, vcol := p.line, p.colAt(i)
		str := p.quoted(true)
		j := p.pos
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j < len(s) && s[j] == ':' && blankz(s, j+1) {
			if !canBlock || p.line != line || j-i > maxSimpleKey {
				p.bail()
			}
			p.pos = j + 1
			return p.blockMap(col, i, str)
		}
		v := p.c.alloc(KindString, line, vcol)
		v.SetStr(p.keep(str))
		p.endLine(false)
		p.nextContent()
		return v
	}
	if !plainStart(s, i, false) {
		p.bail()
	}
	end, colon := scanPlain(s, i, false)
	if colon >= 0 {
		if !canBlock {
			p.bail()
		}
		p.pos = colon + 1
		return p.blockMap(col, i, p.plainKey(s[i:end], i, colon))
	}
	line, vcol := p.line, p.colAt(i)
	raw := s[i:end]
	p.pos = end
	if !p.endLine(true) {
		l0 := p.line
		if !p.nextContent() && p.ind > parent {
			raw = p.plainLines(raw, parent, int(p.line-l0)+1)
		}
	} else {
		p.nextContent()
	}
	return p.plain(raw, line, vcol)
}

// plainLines reads the continuation lines of a plain scalar in a block
// collection indented by parent, whose first line is first, folding them as
// yaml.v3 does. p.pos is at the first continuation line, which follows
// breaks line breaks. A scalar goes on on the next content line if that is
// indented more than parent and no comment comes before it. Afterwards
// p.pos and p.ind are at the next content line.
func (p *fastParser) plainLines(first string, parent, breaks int) string {
	s := p.src
	b := append(p.buf[:0], first...)
	for {
		end, colon := scanPlain(s, p.pos, false)
		if colon >= 0 {
			p.bail() // a multi-line key, or a value after the scalar
		}
		if breaks == 1 {
			b = append(b, ' ')
		}
		for ; breaks > 1; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, s[p.pos:end]...)
		p.pos = end
		if p.endLine(true) {
			p.nextContent()
			break
		}
		l0 := p.line
		if p.nextContent() || p.ind <= parent {
			break
		}
		breaks = int(p.line-l0) + 1
	}
	p.buf = b
	return string(b)
}

// plainKey converts the plain key raw, which starts at offset start and
// ends with a colon at offset colon, as the converter does.
func (p *fastParser) plainKey(raw string, start, colon int) string {
	if raw == "<<" || colon-start > maxSimpleKey {
		p.bail()
	}
	return plainKey(raw)
}

// plain makes the value of a plain scalar, as the converter does.
func (p *fastParser) plain(raw string, line, col int32) *Value {
	kind, b, f := resolvePlain(raw)
	if kind == KindString && overflows(raw) {
		p.bail() // the converter reports it
	}
	v := p.c.alloc(kind, line, col)
	switch kind {
	case KindString:
		v.SetStr(p.keep(raw))
	case KindBool:
		v.Bool = b
	case KindNumber, KindTime:
		v.SetNum(f)
	}
	return v
}

// blockMap reads a block mapping with keys in column ind whose first key,
// starting at offset start, has been read up to its colon.
func (p *fastParser) blockMap(ind, start int, key string) *Value {
	v := p.newValue(KindMap, start)
	s := p.src
	base, kbase := len(p.items), len(p.keys)
	for {
		// p.pos is just after the colon.
		var val *Value
		if nested, line, col := p.entryValue(p.pos); nested {
			switch {
			case p.ind > ind:
				val = p.blockNode(ind, true)
			case p.ind == ind && s[p.pos] == '-' && blankz(s, p.pos+1):
				val = p.blockSeq(ind)
			default:
				val = p.c.alloc(KindNull, line, col)
			}
		} else {
			val = p.blockNode(ind, false)
		}
		p.keys = append(p.keys, p.keep(key))
		p.items = append(p.items, val)
		if p.ind < ind {
			break
		}
		if p.ind > ind {
			p.bail()
		}
		key = p.blockKey()
	}
	p.closeMap(v, base, kbase)
	return v
}

// blockKey reads the key of a block mapping entry at p.pos, up to and
// including its colon.
func (p *fastParser) blockKey() string {
	s := p.src
	i := p.pos
	switch s[i] {
	case '"', '\'':
		str := p.quoted(false)
		j := p.pos
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == len(s) || s[j] != ':' || !blankz(s, j+1) || j-i > maxSimpleKey {
			p.bail()
		}
		p.pos = j + 1
		return str
	}
	if !plainStart(s, i, false) {
		p.bail()
	}
	end, colon := scanPlain(s, i, false)
	if colon < 0 {
		p.bail()
	}
	p.pos = colon + 1
	return p.plainKey(s[i:end], i, colon)
}

// closeMap moves the entries above base into the map v, the way the
// converter fills a map, bailing out on a duplicate key.
func (p *fastParser) closeMap(v *Value, base, kbase int) {
	n := len(p.items) - base
	m := p.c.newMap(n)
	v.SetMap(m)
	keys, vals := p.keys[kbase:], p.items[base:]
	if !p.fillMap(m, keys, vals) {
		for i, k := range keys {
			if m.find(k) >= 0 {
				p.bail()
			}
			m.Set(k, vals[i])
		}
	}
	clear(vals)
	p.keys, p.items = p.keys[:kbase], p.items[:base]
}

// fillMap fills the empty map m with keys and vals as the sequence of
// find and Set calls in closeMap would, when no key is an array index
// (which Set moves to the front); it reports whether it could.
func (p *fastParser) fillMap(m *Map, keys []string, vals []*Value) bool {
	for _, k := range keys {
		if k != "" && isDigit(k[0]) {
			if _, ok := arrayIndex(k); ok {
				return false
			}
		}
	}
	if len(keys) > indexThreshold {
		index := newKeyIndex(len(keys))
		for i, k := range keys {
			if index.set(keys, k, i) {
				p.bail() // a duplicate key
			}
		}
		m.extra().index = index
	} else {
		for i, k := range keys {
			for _, prev := range keys[:i] {
				if prev == k {
					p.bail()
				}
			}
		}
	}
	// m comes from newMap(len(keys)): it has room for them all.
	m.n = int32(len(keys))
	copy(m.keys(), keys)
	copy(m.vals(), vals)
	return true
}

func (p *fastParser) closeList(v *Value, base int) {
	n := len(p.items) - base
	l := p.c.ptrSlice(n)
	copy(l, p.items[base:])
	v.SetList(l)
	clear(p.items[base:])
	p.items = p.items[:base]
}

// entryValue finds the value of a block entry whose indicator (a colon or
// a dash) ends at offset at. When the rest of the line is blank or a
// comment, the value is on the lines below: it moves to the next content
// and returns nested with the position an empty value has, just after the
// indicator. Otherwise it leaves p.pos at the start of the value.
func (p *fastParser) entryValue(at int) (nested bool, line, col int32) {
	s := p.src
	j := at
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j == len(s) || s[j] == '\n' || s[j] == '#' {
		line, col = p.line, p.colAt(at)
		p.pos = j
		p.endLine(true)
		p.nextContent()
		return true, line, col
	}
	p.pos = j
	return false, 0, 0
}

// blockSeq reads a block sequence whose first dash is at p.pos, in column
// ind.
func (p *fastParser) blockSeq(ind int) *Value {
	v := p.newValue(KindList, p.pos)
	s := p.src
	base := len(p.items)
	for {
		var val *Value
		if nested, line, col := p.entryValue(p.pos + 1); nested {
			if p.ind > ind {
				val = p.blockNode(ind, true)
			} else {
				val = p.c.alloc(KindNull, line, col)
			}
		} else {
			val = p.blockNode(ind, true)
		}
		p.items = append(p.items, val)
		if p.ind > ind {
			p.bail()
		}
		if p.ind < ind || s[p.pos] != '-' || !blankz(s, p.pos+1) {
			break
		}
	}
	p.closeList(v, base)
	return v
}

// quoted reads a quoted scalar at p.pos and leaves p.pos after its closing
// quote. It may span lines only if multi.
func (p *fastParser) quoted(multi bool) string {
	s := p.src
	q := s[p.pos]
	start := p.pos + 1
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return p.unquote(multi)
		case q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				return p.unquote(multi)
			}
			p.pos = i + 1
			return s[start:i]
		case '\\':
			if q == '"' {
				return p.unquote(multi)
			}
		}
	}
	p.bail()
	return ""
}

// unquote reads a quoted scalar with escapes or line breaks, whose opening
// quote is at p.pos, as yaml.v3's scanner does: a line break and the
// indentation after it fold into a space, or into the line breaks of the
// empty lines that follow it, the spaces before it are dropped, and an
// escaped line break joins the lines.
func (p *fastParser) unquote(multi bool) string {
	s := p.src
	q := s[p.pos]
	b := p.buf[:0]
	i := p.pos + 1
	for {
		if i == len(s) || i == p.lineStart && isMarker(s, i) {
			p.bail()
		}
		leadingBlanks := false
	text:
		for i < len(s) && s[i] != ' ' && s[i] != '\n' {
			c := s[i]
			switch {
			case c == '\'' && q == '\'':
				if i+1 < len(s) && s[i+1] == '\'' {
					b = append(b, '\'')
					i += 2
					continue
				}
				break text
			case c == '"' && q == '"':
				break text
			case c == '\\' && q == '"':
				i = p.escape(&b, i, multi, &leadingBlanks)
				if leadingBlanks {
					break text
				}
				continue
			}
			b = append(b, c)
			i++
		}
		if i < len(s) && s[i] == q {
			break
		}
		spaces, leadingBreak, breaks := 0, false, 0
		for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
			if s[i] == ' ' {
				if !leadingBlanks {
					spaces++
				}
				i++
				continue
			}
			if !multi {
				p.bail()
			}
			if leadingBlanks {
				breaks++
			} else {
				spaces, leadingBreak, leadingBlanks = 0, true, true
			}
			i++
			p.line++
			p.lineStart = i
		}
		switch {
		case leadingBreak && breaks == 0:
			b = append(b, ' ')
		case leadingBlanks:
			for ; breaks > 0; breaks-- {
				b = append(b, '\n')
			}
		default:
			for ; spaces > 0; spaces-- {
				b = append(b, ' ')
			}
		}
	}
	p.pos = i + 1
	p.buf = b
	return string(b)
}

// escape decodes the escape sequence at offset i of a double-quoted scalar
// into b and returns the offset after it. An escaped line break sets
// *joined.
func (p *fastParser) escape(b *[]byte, i int, multi bool, joined *bool) int {
	s := p.src
	if i+1 >= len(s) {
		p.bail()
	}
	i += 2
	n := 0
	switch s[i-1] {
	case '\n':
		if !multi {
			p.bail()
		}
		p.line++
		p.lineStart = i
		*joined = true
	case '0':
		*b = append(*b, 0)
	case 'a':
		*b = append(*b, '\a')
	case 'b':
		*b = append(*b, '\b')
	case 't':
		*b = append(*b, '\t')
	case 'n':
		*b = append(*b, '\n')
	case 'v':
		*b = append(*b, '\v')
	case 'f':
		*b = append(*b, '\f')
	case 'r':
		*b = append(*b, '\r')
	case 'e':
		*b = append(*b, 0x1b)
	case ' ', '"', '\'', '\\':
		*b = append(*b, s[i-1])
	case 'N':
		*b = append(*b, "\u0085"...)
	case '_':
		*b = append(*b, "\u00a0"...)
	case 'L':
		*b = append(*b, "\u2028"...)
	case 'P':
		*b = append(*b, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		p.bail()
	}
	if n > 0 {
		if i+n > len(s) {
			p.bail()
		}
		r := 0
		for k := i; k < i+n; k++ {
			d := hexValue(s[k])
			if d < 0 {
				p.bail()
			}
			r = r<<4 | d
		}
		if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
			p.bail()
		}
		*b = utf8.AppendRune(*b, rune(r))
		i += n
	}
	return i
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// flowNode reads a flow node on the current line at p.pos and leaves p.pos
// after it.
func (p *fastParser) flowNode() *Value {
	p.enter()
	defer func() { p.depth-- }()
	s := p.src
	i := p.pos
	switch s[i] {
	case '[':
		return p.flowSeq()
	case '{':
		return p.flowMap()
	case '"', '\'':
		str := p.quoted(false)
		v := p.newValue(KindString, i)
		v.SetStr(p.keep(str))
		return v
	}
	if !plainStart(s, i, true) {
		p.bail()
	}
	end, _ := scanPlain(s, i, true)
	p.pos = end
	return p.plain(s[i:end], p.line, p.colAt(i))
}

// flowSpaces skips spaces inside a flow collection; the collection must
// go on on this line.
func (p *fastParser) flowSpaces() byte {
	s := p.src
	i := p.pos
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i == len(s) {
		p.bail()
	}
	p.pos = i
	return s[i]
}

// flowNext steps past what follows a flow item: it reports whether end
// closes the collection, and bails on anything but a comma and another item.
func (p *fastParser) flowNext(end byte) bool {
	c := p.flowSpaces()
	if c == end {
		return true
	}
	if c != ',' {
		p.bail()
	}
	p.pos++
	if c := p.flowSpaces(); c == end || c == ',' {
		p.bail()
	}
	return false
}

func (p *fastParser) flowSeq() *Value {
	v := p.newValue(KindList, p.pos)
	base := len(p.items)
	p.pos++
	if p.flowSpaces() != ']' {
		for {
			p.items = append(p.items, p.flowNode())
			if p.flowNext(']') {
				break
			}
		}
	}
	p.pos++
	p.closeList(v, base)
	return v
}

func (p *fastParser) flowMap() *Value {
	v := p.newValue(KindMap, p.pos)
	s := p.src
	base, kbase := len(p.items), len(p.keys)
	p.pos++
	if p.flowSpaces() != '}' {
		for {
			start := p.pos
			var key string
			switch s[start] {
			case '"', '\'':
				key = p.quoted(false)
			default:
				if !plainStart(s, start, true) {
					p.bail()
				}
				end, _ := scanPlain(s, start, true)
				p.pos = end
				key = p.plainKey(s[start:end], start, end)
			}
			if p.flowSpaces() != ':' || !(p.pos+1 < len(s) && s[p.pos+1] == ' ') || p.pos-start > maxSimpleKey {
				p.bail()
			}
			p.pos++
			if c := p.flowSpaces(); c == ',' || c == '}' {
				p.bail()
			}
			p.keys = append(p.keys, p.keep(key))
			p.items = append(p.items, p.flowNode())
			if p.flowNext('}') {
				break
			}
		}
	}
	p.pos++
	p.closeMap(v, base, kbase)
	return v
}

// scalarBreaks skips, from offset i, the indentation (at most indent
// spaces; any number when indent is 0) and the empty lines before the next
// content line of a block scalar. It returns the offset reached, the number
// of line breaks skipped and the widest indentation seen.
func (p *fastParser) scalarBreaks(i, indent int) (next, breaks, widest int) {
	s := p.src
	for {
		j := i
		for j < len(s) && s[j] == ' ' && (indent == 0 || j-i < indent) {
			j++
		}
		widest = max(widest, j-i)
		if j == len(s) || s[j] != '\n' {
			return j, breaks, widest
		}
		breaks++
		i = j + 1
		p.line++
		p.lineStart = i
	}
}

// blockScalar reads a literal or folded block scalar whose indicator is at
// p.pos, in a block collection indented by parent, following yaml.v3's
// scanner.
func (p *fastParser) blockScalar(parent int) *Value {
	s := p.src
	v := p.newValue(KindString, p.pos)
	literal := s[p.pos] == '|'
	i := p.pos + 1
	chomp, increment := 0, 0
	for k := 0; k < 2 && i < len(s); k++ {
		switch c := s[i]; {
		case chomp == 0 && (c == '+' || c == '-'):
			chomp = 1
			if c == '-' {
				chomp = -1
			}
		case increment == 0 && c >= '1' && c <= '9':
			increment = int(c - '0')
		case c == '0':
			p.bail()
		default:
			k = 2
			continue
		}
		i++
	}
	p.pos = i
	p.endLine(true)
	indent := 0
	if increment > 0 {
		indent = parent + increment
		if parent < 0 {
			indent = increment
		}
	}
	// Leading empty lines, and the indentation if not given.
	i, breaks, maxIndent := p.scalarBreaks(p.pos, indent)
	if indent == 0 {
		indent = max(maxIndent, parent+1, 1)
	}
	b := p.buf[:0]
	leadingBreak := false
	leadingBlank := false
	for i-p.lineStart == indent && i < len(s) {
		trailingBlank := s[i] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if breaks == 0 {
				b = append(b, ' ')
			}
		} else if leadingBreak {
			b = append(b, '\n')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		leadingBlank = trailingBlank
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			b = append(b, s[i:]...)
			i = len(s)
			leadingBreak = false
		} else {
			b = append(b, s[i:i+k]...)
			i += k + 1
			p.line++
			p.lineStart = i
			leadingBreak = true
		}
		// Indentation and empty lines up to the next content line.
		var more int
		i, more, _ = p.scalarBreaks(i, indent)
		breaks += more
	}
	if chomp != -1 && leadingBreak {
		b = append(b, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
	v.SetStr(string(b))
	p.buf = b
	// The scalar ends before a less indented line, or at the end.
	p.pos = p.lineStart
	if i == len(s) {
		p.pos = len(s)
	}
	p.nextContent()
	return v
}
