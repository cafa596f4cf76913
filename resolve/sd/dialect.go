package sd

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// The core dialect (§1, §6.5, §12) reads YAML 1.2 the way gopkg.in/yaml.v3
// resolves it, into yamlsrc values, for SD documents, which are plain data
// rather than the reference's JavaScript objects (yamlsrc.Parse):
//
//   - scalars resolve as yaml.v3 resolves them (only true/True/TRUE and
//     false/False/FALSE are booleans, "yes" is a string, "1:20" a string);
//   - numbers, booleans and dates keep their source text in Value.Str, so
//     that 2.10 is written back as 2.10 and True as True (Format);
//   - map keys keep their source order whatever their form: JavaScript's
//     rule that array-index keys ("1", "2") come first would reorder a
//     document's keys;
//   - aliases are expanded into copies, so that changing one place never
//     changes another; merge keys (<<) are applied, explicit keys win and
//     merged keys take the place of the merge key;
//   - duplicate keys and non-scalar keys are errors; a non-string scalar key
//     becomes its source text ("null" for a null key), and the map records
//     it (see plainKey) so that Format writes it back unquoted: 1: stays
//     1:, where the string key "1" is written '1':.
//
// JSON input (SD_DATA, JSON artifacts) is read by yamlsrc.ParseJSON, which
// keeps key order and the text of numbers in the same way.

// maxCoreValues bounds the values one document may expand to, since every
// alias use is a copy (billion laughs).
const maxCoreValues = 1 << 20

// parseCore parses one YAML document in the core dialect. An empty document
// (no content, only comments, or a lone null) is null. Every error is a
// diagnostic with at least a line.
func parseCore(data []byte, file string) (*yamlsrc.Value, error) {
	root, err := yamlsrc.DecodeDocument(data, file)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return yamlsrc.NewNull(), nil
	}
	c := coreConverter{file: file}
	return c.convert(root, 0)
}

// loadCoreFile reads and parses a YAML file in the core dialect. The file
// must be a regular file (yamlsrc.ReadNamedFile).
func loadCoreFile(path string) (*yamlsrc.Value, error) {
	data, err := yamlsrc.ReadNamedFile(path)
	if err != nil {
		return nil, yamlsrc.ReadFailure(path, err)
	}
	return parseCore(data, path)
}

type coreConverter struct {
	file  string
	count int
	// open holds the anchored nodes being converted: an alias to one of
	// them would make the document contain itself.
	open map[*yaml.Node]bool
}

func (c *coreConverter) errAt(n *yaml.Node, format string, args ...any) error {
	line := n.Line
	if line == 0 {
		line = 1
	}
	return diag.Errorf(diag.Pos{File: c.file, Line: line, Col: n.Column}, diag.StageLoad, format, args...)
}

func (c *coreConverter) newValue(k yamlsrc.Kind, n *yaml.Node) *yamlsrc.Value {
	return &yamlsrc.Value{Kind: k, Line: int32(n.Line), Col: int32(n.Column)}
}

func (c *coreConverter) convert(n *yaml.Node, depth int) (*yamlsrc.Value, error) {
	if depth > yamlsrc.MaxDepth {
		return nil, c.errAt(n, "document nested deeper than %d levels", yamlsrc.MaxDepth)
	}
	c.count++
	if c.count > maxCoreValues {
		return nil, c.errAt(n, "document expands to more than %d values", maxCoreValues)
	}
	if n.Anchor != "" {
		if c.open == nil {
			c.open = map[*yaml.Node]bool{}
		}
		c.open[n] = true
		defer delete(c.open, n)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		v := c.newValue(yamlsrc.KindList, n)
		v.SetList(make([]*yamlsrc.Value, len(n.Content)))
		for i, item := range n.Content {
			x, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			v.List()[i] = x
		}
		return v, nil
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, c.errAt(n, "unknown anchor %q", n.Value)
		}
		if c.open[n.Alias] {
			return nil, c.errAt(n, "alias *%s refers to a value that contains it", n.Value)
		}
		return c.convert(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return yamlsrc.NewNull(), nil
		}
		return c.convert(n.Content[0], depth+1)
	}
	return nil, c.errAt(n, "unexpected YAML node")
}

// scalar resolves a scalar node as yaml.v3 does, keeping the source text of
// non-string values.
func (c *coreConverter) scalar(n *yaml.Node) (*yamlsrc.Value, error) {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return c.newValue(yamlsrc.KindNull, n), nil
	case "!!bool", "!!int", "!!float":
		return c.boolOrNumber(n, tag)
	case "!!timestamp":
		ms, ok := yamlsrc.ParseYAMLTimestamp(n.Value)
		if !ok && n.Style&yaml.TaggedStyle != 0 {
			return nil, c.errAt(n, "cannot read %q as %s", n.Value, tag)
		}
		v := c.newValue(yamlsrc.KindTime, n)
		v.SetNum(ms)
		v.SetStr(n.Value)
		return v, nil
	}
	// Strings, and whatever else is tagged (!!binary, local tags, a "<<"
	// that is not a key): the text.
	v := c.newValue(yamlsrc.KindString, n)
	v.SetStr(n.Value)
	return v, nil
}

// boolOrNumber reads a scalar of the tag !!bool, !!int or !!float as
// yaml.v3 decodes it, keeping its text.
func (c *coreConverter) boolOrNumber(n *yaml.Node, tag string) (*yamlsrc.Value, error) {
	var b bool
	var f float64
	var into any = &f
	kind := yamlsrc.KindNumber
	if tag == "!!bool" {
		into, kind = &b, yamlsrc.KindBool
	}
	if err := n.Decode(into); err != nil {
		return nil, c.errAt(n, "cannot read %q as %s", n.Value, tag)
	}
	v := c.newValue(kind, n)
	v.Bool = b
	v.SetNum(f)
	v.SetStr(n.Value)
	return v, nil
}

func isMergeKey(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!merge"
}

// mapping converts a mapping node. Explicit keys are collected first so that
// a merged key never replaces one (yaml.v3's rule), wherever the merge key
// stands.
func (c *coreConverter) mapping(n *yaml.Node, depth int) (*yamlsrc.Value, error) {
	v := yamlsrc.NewMap()
	v.Line, v.Col = int32(n.Line), int32(n.Column)
	keys := make([]string, len(n.Content)/2)
	explicit := make(map[string]*yaml.Node, len(keys))
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn := n.Content[i]
		if isMergeKey(kn) {
			continue
		}
		k, err := c.key(kn)
		if err != nil {
			return nil, err
		}
		if prev, dup := explicit[k]; dup {
			return nil, c.errAt(kn, "mapping key %q already defined at line %d", k, prev.Line)
		}
		explicit[k] = kn
		keys[i/2] = k
	}
	var merged map[string]bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if !isMergeKey(kn) && !stringKey(kn) {
			markPlainKey(v, keys[i/2])
		}
		if !isMergeKey(kn) {
			x, err := c.convert(vn, depth+1)
			if err != nil {
				return nil, err
			}
			v.Map().Append(keys[i/2], x)
			continue
		}
		src, err := c.convert(vn, depth+1)
		if err != nil {
			return nil, err
		}
		sources := []*yamlsrc.Value{src}
		if src.Kind == yamlsrc.KindList {
			sources = src.List()
		}
		for _, s := range sources {
			if s.Kind != yamlsrc.KindMap {
				return nil, c.errAt(vn, "map merge requires map or sequence of maps as the value")
			}
			for j, k := range s.Map().Keys() {
				if explicit[k] != nil || merged[k] {
					continue
				}
				if merged == nil {
					merged = map[string]bool{}
				}
				merged[k] = true
				if plainKey(s, k) {
					markPlainKey(v, k)
				}
				v.Map().Append(k, s.Map().Val(j))
			}
		}
	}
	return v, nil
}

// key returns the text of a mapping key, which must be a scalar (or an
// alias of one): its source text, or "null" for a null key.
func (c *coreConverter) key(kn *yaml.Node) (string, error) {
	n := keyNode(kn)
	if n.Kind != yaml.ScalarNode {
		return "", c.errAt(kn, "a mapping key must be a scalar, found a %s", nodeKindName(n.Kind))
	}
	if n.ShortTag() == "!!null" {
		return "null", nil
	}
	return n.Value, nil
}

func keyNode(kn *yaml.Node) *yaml.Node {
	if kn.Kind == yaml.AliasNode && kn.Alias != nil {
		return kn.Alias
	}
	return kn
}

// stringKey reports whether a key node is a string.
func stringKey(kn *yaml.Node) bool {
	switch keyNode(kn).ShortTag() {
	case "!!str", "!!binary":
		return true
	case "!!null", "!!bool", "!!int", "!!float", "!!timestamp":
		return false
	}
	// Local tags: the text, as a string.
	return true
}

func nodeKindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	}
	return "node of kind " + strconv.Itoa(int(k))
}

// Non-string keys of a core map are listed in the map value's Str, each
// between NUL bytes; maps have no other use for Str, and yamlsrc.Clone
// copies it.

// plainKey reports whether key k of map value m is a non-string scalar
// (a number, boolean, date or null) in the source, which Format writes
// unquoted.
func plainKey(m *yamlsrc.Value, k string) bool {
	return m != nil && m.Str() != "" && strings.Contains(m.Str(), "\x00"+k+"\x00")
}

// markPlainKey records that key k of map value m is not a string.
func markPlainKey(m *yamlsrc.Value, k string) {
	if plainKey(m, k) {
		return
	}
	if m.Str() == "" {
		m.SetStr("\x00")
	}
	m.SetStr(m.Str() + k + "\x00")
}

// copyMap returns a shallow copy of map value v: the same keys in the same
// order (Append, not JavaScript's order), the same values, and the record of
// its non-string keys.
func copyMap(v *yamlsrc.Value) *yamlsrc.Value {
	c := yamlsrc.NewMap()
	c.Line, c.Col = v.Line, v.Col
	c.SetStr(v.Str())
	for i, k := range v.Map().Keys() {
		c.Map().Append(k, v.Map().Val(i))
	}
	return c
}

// scalarText returns the text of a scalar as a document spells it: a
// string's value, the source text of a number, boolean or date read in the
// core dialect (or a default spelling for one built by code), and "null"
// for null. ok is false for maps and lists.
func scalarText(v *yamlsrc.Value) (text string, ok bool) {
	if v == nil {
		return "null", true
	}
	switch v.Kind {
	case yamlsrc.KindNull:
		return "null", true
	case yamlsrc.KindString:
		return v.Str(), true
	case yamlsrc.KindBool:
		if v.Str() != "" {
			return v.Str(), true
		}
		return strconv.FormatBool(v.Bool), true
	case yamlsrc.KindNumber:
		if v.Str() != "" {
			return v.Str(), true
		}
		return yamlsrc.FormatNumber(v.Num()), true
	case yamlsrc.KindTime:
		if v.Str() != "" {
			return v.Str(), true
		}
		return js.FormatTime(v.Num()), true
	}
	return "", false
}
