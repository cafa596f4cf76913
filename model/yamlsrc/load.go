package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/js"
)

// Limits that keep hostile documents from exhausting memory.
const (
	// MaxDepth bounds nesting: no template nests a hundred levels, and
	// recursive walks downstream stay shallow. Readers of other packages
	// (resolve/sd's) apply it too.
	MaxDepth = 1000
	// maxAliasUses bounds the number of alias uses (billion laughs);
	// aliases share values, so this only limits the walk.
	maxAliasUses = 1 << 20
	// maxExpanded bounds the values a document stands for once its
	// aliases are expanded, as the writers and the pipeline walk it: a
	// billion laughs is small as shared values and endless as a tree.
	maxExpanded = 1 << 24
)

// CodeRead is the diagnostic code of a file that cannot be read (or is
// too large to read), as opposed to one whose content is wrong.
const CodeRead = "read"

// LoadFile reads and parses a YAML file. The file name is used in positions.
// The file must be a regular file of at most MaxFileSize bytes (ReadNamedFile):
// a device or a named pipe is refused, not read.
func LoadFile(path string) (*Value, error) {
	v, _, err := LoadFileAliased(path)
	return v, err
}

// LoadFileAliased is LoadFile that also says whether the document uses an
// alias. Where it does, some of its values are reached by more than one
// path, and a change made in place through one path shows through the
// others (js-yaml shares them too); where it does not, every value but
// the root has exactly one parent.
func LoadFileAliased(path string) (v *Value, aliased bool, err error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, false, ReadFailure(path, err)
	}
	defer f.Close()
	if v, aliased, ok, err := loadMapped(f, fi, path); ok {
		return v, aliased, err
	}
	data, err := readRegular(f, fi, path)
	if err != nil {
		return nil, false, ReadFailure(path, err)
	}
	return ParseAliased(data, path)
}

// ReadFailure is the diagnostic of a file at path that cannot be read
// (CodeRead), err being the error of ReadNamedFile or ReadFile; a file over
// the limit gets its size. LoadFile fails with it.
func ReadFailure(path string, err error) *diag.Diagnostic {
	var d *diag.Diagnostic
	if fi, serr := os.Stat(path); errors.Is(err, ErrTooLarge) && serr == nil && fi.Mode().IsRegular() && fi.Size() > maxFileSize {
		d = diag.At(diag.Pos{File: path}, diag.StageLoad,
			fmt.Sprintf("the file has %d bytes, more than the %d that v4t reads", fi.Size(), maxFileSize))
	} else {
		d = diag.New(diag.StageLoad, readError(path, err))
	}
	d.Code = CodeRead
	return d
}

func readError(path string, err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("%s: cannot read: %v", path, err)
}

// Parse parses one YAML document with js-yaml's value semantics
// (variability.md §2.1). An empty document is null. Every error is a
// diagnostic with at least a line.
//
// Documents in the subset of YAML that the fast path knows (fast.go) are
// read straight into values; the others, and every document with an
// error, go through yaml.v3, with the same results.
func Parse(data []byte, file string) (*Value, error) {
	v, _, err := ParseAliased(data, file)
	return v, err
}

// ParseAliased is Parse that also says whether the document uses an alias
// (LoadFileAliased).
func ParseAliased(data []byte, file string) (v *Value, aliased bool, err error) {
	if v, ok := parseFast(data); ok {
		// The fast path bails out on anchors and aliases.
		return v, false, nil
	}
	return parseYAML(data, file)
}

// DecodeDocument reads data with yaml.v3 as exactly one document and returns
// its root node; nil (with a nil error) for an empty document, which may
// also be only comments or a document end marker. Errors are diagnostics
// located as Parse locates its own. It is the first step of Parse, for
// packages that convert the node tree themselves (resolve/sd reads YAML
// 1.2 as yaml.v3 resolves it).
func DecodeDocument(data []byte, file string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decode(dec, &doc); err != nil {
		if err == io.EOF || onlyDocEnd(data) {
			return nil, nil
		}
		return nil, syntaxError(file, data, err)
	}
	var extra yaml.Node
	if err := decode(dec, &extra); err != io.EOF {
		if err != nil {
			return nil, syntaxError(file, data, err)
		}
		pos := diag.Pos{File: file, Line: extra.Line, Col: extra.Column}
		if pos.Line == 0 {
			pos.Line = 1
		}
		return nil, diag.At(pos, diag.StageLoad, "expected a single YAML document, found another one")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = root.Content[0]
	}
	return root, nil
}

// parseYAML is ParseAliased through yaml.v3's node tree, for every
// document.
func parseYAML(data []byte, file string) (*Value, bool, error) {
	root, err := DecodeDocument(data, file)
	if err != nil {
		return nil, false, err
	}
	if root == nil {
		return NewNull(), false, nil
	}
	c := converter{file: file}
	v, err := c.convert(root, 0)
	first := c.anchors.FirstUse()
	if err == nil && first != nil && expandedSize(v, map[*Value]int64{}) > maxExpanded {
		return nil, false, c.errAt(first, "aliases expand the document to more than %d values", maxExpanded)
	}
	return v, first != nil, err
}

// expandedSize counts the values of v with every shared value counted at
// each use, saturating above maxExpanded.
func expandedSize(v *Value, memo map[*Value]int64) int64 {
	if v == nil {
		return 0
	}
	if n, ok := memo[v]; ok {
		return n
	}
	n := int64(1)
	switch v.Kind {
	case KindMap:
		for i, x := range v.Map().vals() {
			if !v.Map().isDeleted(i) {
				n += expandedSize(x, memo)
			}
			if n > maxExpanded {
				break
			}
		}
	case KindList:
		for _, x := range v.List() {
			n += expandedSize(x, memo)
			if n > maxExpanded {
				break
			}
		}
	}
	n = min(n, maxExpanded+1)
	memo[v] = n
	return n
}

// decode runs yaml.v3, turning a panic of its parser (it has had some on
// malformed input) into an error.
func decode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

// onlyDocEnd reports whether data holds nothing but comments, blank lines
// and document end markers ("..."), which js-yaml reads as an empty document
// and yaml.v3 rejects.
func onlyDocEnd(data []byte) bool {
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if rest, ok := bytes.CutPrefix(line, []byte("...")); ok {
			line = bytes.TrimLeft(rest, " \t")
			if len(rest) > 0 && len(line) == len(rest) {
				return false // "...x"
			}
		}
		line = bytes.TrimLeft(line, " \t")
		if len(line) > 0 && line[0] != '#' {
			return false
		}
	}
	return true
}

// syntaxError turns a yaml.v3 error ("yaml: line 3: ...") into a positioned
// diagnostic. yaml.v3 reports encoding problems without a line; those are
// located here.
func syntaxError(file string, data []byte, err error) error {
	pos := diag.Pos{File: file}
	line, msg := splitLine(err)
	pos.Line = line
	if pos.Line == 0 {
		pos.Line, pos.Col = badCharPos(data)
	}
	d := diag.At(pos, diag.StageLoad, "invalid YAML: "+msg)
	if pos.Col == 0 {
		locateYAMLError(d, data)
	}
	return d
}

// CheckNode applies this package's limits to a yaml.v3 node tree read by
// another package (completion reads YAML 1.1 itself): nesting deeper than
// MaxDepth, and aliases that expand the document to more than maxExpanded
// values, are errors at the node where the limit is crossed.
func CheckNode(file string, root *yaml.Node) *diag.Diagnostic {
	// Without aliases the size is the document's own: not a bomb.
	aliases := hasAlias(root)
	memo := map[*yaml.Node]int64{}
	var bad *yaml.Node
	var msg string
	var walk func(n *yaml.Node, depth int) int64
	walk = func(n *yaml.Node, depth int) int64 {
		if n == nil || bad != nil {
			return 0
		}
		if depth > MaxDepth {
			bad, msg = n, fmt.Sprintf("document nested deeper than %d levels", MaxDepth)
			return 0
		}
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return 1
			}
			size, ok := memo[n.Alias]
			switch {
			case ok && size < 0: // the alias is inside what it names
				bad, msg = n, "alias *"+n.Value+" refers to a value that contains it"
				return 0
			case !ok:
				size = walk(n.Alias, depth+1)
			}
			if size > maxExpanded && bad == nil {
				bad, msg = n, fmt.Sprintf("aliases expand the document to more than %d values", maxExpanded)
			}
			return size
		}
		if c, ok := memo[n]; ok && c >= 0 {
			return c
		}
		memo[n] = -1
		size := int64(1)
		for _, c := range n.Content {
			size += walk(c, depth+1)
			if size > maxExpanded {
				if bad == nil && aliases {
					// The child that crossed the limit.
					bad, msg = c, fmt.Sprintf("aliases expand the document to more than %d values", maxExpanded)
				}
				size = maxExpanded + 1
			}
		}
		memo[n] = size
		return size
	}
	walk(root, 0)
	if bad == nil {
		return nil
	}
	return diag.At(diag.Pos{File: file, Line: bad.Line, Col: bad.Column}, diag.StageLoad, msg)
}

func hasAlias(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode {
		return true
	}
	return slices.ContainsFunc(n.Content, hasAlias)
}

// SyntaxError turns an error of yaml.v3 reading data into a diagnostic
// located as the readers of this package locate theirs, for packages that
// run yaml.v3 themselves (completion types scalars as YAML 1.1 does).
func SyntaxError(file string, data []byte, err error) *diag.Diagnostic {
	d, _ := diag.As(syntaxError(file, data, err))
	return d
}

// splitLine splits a yaml.v3 error ("yaml: line 3: ...") into its line
// (0 when it names none) and its message.
func splitLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return 0, msg
}

// badCharPos returns the position of the first byte yaml.v3's reader
// rejects (invalid UTF-8 or a control character), or line 1.
func badCharPos(data []byte) (line, col int) {
	line, col = 1, 1
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data = data[3:]
	}
	for i := 0; i < len(data); {
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && w <= 1 {
			return line, col
		}
		switch {
		case r == '\n':
			line++
			col = 1
			i += w
			continue
		case r == '\t' || r == '\r' || r == 0x85 || (r >= 0x20 && r <= 0x7e) ||
			(r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd) || r >= 0x10000:
		default:
			return line, col
		}
		col++
		i += w
	}
	return 1, 0
}

// converter turns a yaml.v3 node tree into values. Values and maps are
// carved out of slabs: a document has many small nodes, and one allocation
// per node dominates the conversion otherwise.
type converter struct {
	file    string
	anchors Anchors[*Value]
	vals    []Value
	maps    []Map
	ptrs    []*Value
	strs    []string
}

const slabSize = 256

func (c *converter) newValue(k Kind, n *yaml.Node) *Value {
	return c.alloc(k, int32(n.Line), int32(n.Column))
}

// alloc returns a value of kind k at the given position.
func (c *converter) alloc(k Kind, line, col int32) *Value {
	if len(c.vals) == 0 {
		c.vals = make([]Value, slabSize)
	}
	v := &c.vals[0]
	c.vals = c.vals[1:]
	v.Kind = k
	v.Line, v.Col = line, col
	return v
}

func (c *converter) newMap(size int) *Map {
	if len(c.maps) == 0 {
		c.maps = make([]Map, slabSize/4)
	}
	m := &c.maps[0]
	c.maps = c.maps[1:]
	if size > 0 {
		vals := c.ptrSlice(size)[:0]
		var keys []string
		if size > slabSize/4 {
			keys = make([]string, 0, size)
		} else {
			if len(c.strs) < size {
				c.strs = make([]string, slabSize*2)
			}
			keys = c.strs[:0:size]
			c.strs = c.strs[size:]
		}
		m.setEntries(keys, vals)
	}
	return m
}

// ptrSlice returns a slice of n nil pointers with capacity n, so that an
// append by a later user copies instead of running into a neighbour.
func (c *converter) ptrSlice(n int) []*Value {
	if n > slabSize/4 {
		return make([]*Value, n)
	}
	if len(c.ptrs) < n {
		c.ptrs = make([]*Value, slabSize*2)
	}
	s := c.ptrs[:n:n]
	c.ptrs = c.ptrs[n:]
	return s
}

func (c *converter) errAt(n *yaml.Node, format string, args ...any) error {
	line := n.Line
	if line == 0 {
		line = 1
	}
	return diag.Errorf(diag.Pos{File: c.file, Line: line, Col: n.Column}, diag.StageLoad, format, args...)
}

// explicitTag returns the node's tag if it was written in the document.
func explicitTag(n *yaml.Node) string {
	if n.Style&yaml.TaggedStyle == 0 {
		return ""
	}
	return n.Tag
}

func (c *converter) convert(n *yaml.Node, depth int) (*Value, error) {
	if depth > MaxDepth {
		return nil, c.errAt(n, "document nested deeper than %d levels", MaxDepth)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		v, err := c.scalar(n)
		if err != nil {
			return nil, err
		}
		c.anchors.Remember(n, v)
		return v, nil
	case yaml.MappingNode:
		tag := explicitTag(n)
		switch tag {
		case "", "!!map", "!!set":
		default:
			return nil, c.errAt(n, "unknown tag %s", n.Tag)
		}
		v := c.newValue(KindMap, n)
		v.SetMap(c.newMap(len(n.Content) / 2))
		c.anchors.Remember(n, v)
		c.anchors.Enter(n)
		if err := c.mapping(v, n, depth); err != nil {
			return nil, err
		}
		c.anchors.Leave(n)
		if tag == "!!set" {
			for _, x := range v.Map().vals() {
				if !x.IsNull() {
					return nil, c.errAt(n, "cannot resolve a node with %s explicit tag", tag)
				}
			}
		}
		return v, nil
	case yaml.SequenceNode:
		tag := explicitTag(n)
		switch tag {
		case "", "!!seq", "!!omap", "!!pairs":
		default:
			return nil, c.errAt(n, "unknown tag %s", n.Tag)
		}
		v := c.newValue(KindList, n)
		v.SetList(c.ptrSlice(len(n.Content)))
		c.anchors.Remember(n, v)
		c.anchors.Enter(n)
		for i, item := range n.Content {
			x, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			v.List()[i] = x
		}
		c.anchors.Leave(n)
		if tag == "!!omap" || tag == "!!pairs" {
			if err := c.pairs(v, n, tag); err != nil {
				return nil, err
			}
		}
		return v, nil
	case yaml.AliasNode:
		if msg := c.anchors.Use(n, maxAliasUses); msg != "" {
			return nil, c.errAt(n, "%s", msg)
		}
		if v, ok := c.anchors.Lookup(n.Alias); ok {
			return v, nil
		}
		return c.convert(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return NewNull(), nil
		}
		return c.convert(n.Content[0], depth+1)
	}
	return nil, c.errAt(n, "unexpected YAML node")
}

// pairs checks an !!omap or !!pairs list (items are maps of one key; omap
// keys are unique) and turns !!pairs items into [key, value] lists, as
// js-yaml does.
func (c *converter) pairs(v *Value, n *yaml.Node, tag string) error {
	var seen map[string]bool
	for i, item := range v.List() {
		if item.Kind != KindMap || item.Map().Len() != 1 {
			return c.errAt(n.Content[i], "cannot resolve a node with %s explicit tag", tag)
		}
		k := item.Map().keys()[0]
		if tag == "!!omap" {
			if seen[k] {
				return c.errAt(n.Content[i], "cannot resolve a node with %s explicit tag", tag)
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[k] = true
			continue
		}
		key := c.newValue(KindString, n.Content[i])
		key.SetStr(k)
		pair := c.newValue(KindList, n.Content[i])
		pair.SetList([]*Value{key, item.Map().vals()[0]})
		v.List()[i] = pair
	}
	return nil
}

// mapping fills v from a mapping node. Merge keys (<<) follow js-yaml: merged
// keys never replace keys set before them and may be overridden by explicit
// keys after them; explicit duplicates are an error.
func (c *converter) mapping(v *Value, n *yaml.Node, depth int) error {
	var overridable map[string]bool
	m := v.Map()
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Value == "<<" && (kn.Style == 0 || (kn.Style == yaml.TaggedStyle && kn.Tag == "!!merge")) {
			if overridable == nil {
				overridable = map[string]bool{}
			}
			if err := c.merge(v, vn, depth, overridable); err != nil {
				return err
			}
			continue
		}
		key, err := c.key(kn, depth)
		if err != nil {
			return err
		}
		i := m.find(key)
		if i >= 0 {
			if !overridable[key] {
				return c.errAt(kn, "duplicated mapping key %q", key)
			}
			delete(overridable, key)
		}
		val, err := c.convert(vn, depth+1)
		if err != nil {
			return err
		}
		if i >= 0 {
			m.vals()[i] = val
		} else {
			m.Set(key, val)
		}
	}
	return nil
}

func (c *converter) merge(v *Value, vn *yaml.Node, depth int, overridable map[string]bool) error {
	src, err := c.convert(vn, depth+1)
	if err != nil {
		return err
	}
	// js-yaml merges any object: maps, lists (by index) and dates (no keys).
	var sources []*Value
	switch src.Kind {
	case KindMap, KindTime:
		sources = []*Value{src}
	case KindList:
		for _, s := range src.List() {
			if s.Kind != KindMap && s.Kind != KindList && s.Kind != KindTime {
				return c.errAt(vn, "cannot merge mappings; the provided source object is unacceptable")
			}
		}
		sources = src.List()
	default:
		return c.errAt(vn, "cannot merge mappings; the provided source object is unacceptable")
	}
	for _, s := range sources {
		switch s.Kind {
		case KindMap:
			for j, k := range s.Map().keys() {
				c.mergeKey(v, k, s.Map().vals()[j], overridable)
			}
		case KindList:
			for j, x := range s.List() {
				c.mergeKey(v, strconv.Itoa(j), x, overridable)
			}
		}
	}
	return nil
}

func (c *converter) mergeKey(v *Value, k string, x *Value, overridable map[string]bool) {
	if v.Map().find(k) < 0 {
		v.Map().Set(k, x)
		overridable[k] = true
	}
}

// key converts a mapping key the way js-yaml does: String(key), with
// nested lists rejected and maps inside list keys as "[object Object]".
func (c *converter) key(kn *yaml.Node, depth int) (string, error) {
	if kn.Kind == yaml.ScalarNode {
		switch {
		case kn.Style == 0:
			return plainKey(kn.Value), nil
		case kn.Style&yaml.TaggedStyle == 0:
			return kn.Value, nil
		}
		v, err := c.scalar(kn)
		if err != nil {
			return "", err
		}
		return String(v), nil
	}
	v, err := c.convert(kn, depth+1)
	if err != nil {
		return "", err
	}
	if v.Kind == KindList {
		for _, x := range v.List() {
			if x.Kind == KindList {
				return "", c.errAt(kn, "nested arrays are not supported inside keys")
			}
		}
	}
	return String(v), nil
}

// plainKey is String(ResolvePlain(s)) without allocating for the common
// case of a key that is a string.
func plainKey(s string) string {
	kind, b, f := resolvePlain(s)
	switch kind {
	case KindString:
		return s
	case KindNull:
		return "null"
	case KindBool:
		if b {
			return "true"
		}
		return "false"
	case KindNumber:
		return js.FormatNumber(f)
	}
	v := Value{Kind: kind}
	v.SetNum(f)
	return String(&v)
}

func (c *converter) scalar(n *yaml.Node) (*Value, error) {
	if n.Style&yaml.TaggedStyle != 0 {
		return c.taggedScalar(n)
	}
	if n.Style != 0 {
		// Quoted, literal and folded scalars are strings.
		v := c.newValue(KindString, n)
		v.SetStr(n.Value)
		return v, nil
	}
	kind, b, f := resolvePlain(n.Value)
	if kind == KindString && overflows(n.Value) {
		return nil, c.errAt(n, "number %s is out of range (the largest is about 1.8e308)", truncate(n.Value, 40))
	}
	v := c.newValue(kind, n)
	switch kind {
	case KindString:
		v.SetStr(n.Value)
	case KindBool:
		v.Bool = b
	case KindNumber, KindTime:
		v.SetNum(f)
	}
	return v, nil
}

func (c *converter) taggedScalar(n *yaml.Node) (*Value, error) {
	s := n.Value
	plain := n.Style == yaml.TaggedStyle
	// An explicitly tagged empty plain node is js-yaml's null input to
	// the tag's resolver.
	empty := plain && s == ""
	fail := func() (*Value, error) {
		return nil, c.errAt(n, "cannot resolve a node with %s explicit tag", n.Tag)
	}
	switch n.Tag {
	case "!!str":
		v := c.newValue(KindString, n)
		v.SetStr(s)
		return v, nil
	case "!!null":
		if empty || isNull(s) {
			return c.newValue(KindNull, n), nil
		}
		return fail()
	case "!!bool":
		if b, ok := parseBool(s); ok {
			v := c.newValue(KindBool, n)
			v.Bool = b
			return v, nil
		}
		return fail()
	case "!!int", "!!float", "!!timestamp":
		kind, f, ok := KindNumber, 0.0, false
		switch n.Tag {
		case "!!int":
			f, ok = parseInt(s)
		case "!!float":
			f, ok = parseFloat(s)
		default:
			kind = KindTime
			f, ok = ParseYAMLTimestamp(s)
		}
		if !ok {
			return fail()
		}
		v := c.newValue(kind, n)
		v.SetNum(f)
		return v, nil
	case "!!map", "!!set":
		if empty {
			v := c.newValue(KindMap, n)
			v.SetMap(c.newMap(0))
			return v, nil
		}
	case "!!seq", "!!omap", "!!pairs":
		if empty {
			v := c.newValue(KindList, n)
			v.SetList([]*Value{})
			return v, nil
		}
	}
	return nil, c.errAt(n, "unknown tag %s", n.Tag)
}
