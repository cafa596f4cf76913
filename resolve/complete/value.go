package complete

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"v4t/model/yamlsrc"
)

// The reference reads templates with a YAML 1.1 loader (PyYAML, through
// tosca-parser) and works on Python values: it tells integers from floats,
// types mapping keys (8080 is an integer key, '8080' a string key), and
// renders values in messages with Python's str(). The project's document
// layer (model/yamlsrc) has JavaScript semantics instead: every key is a
// string, array-index keys move to the front, and every number is a double.
// So this package reads templates into its own small value type, from the
// yaml.v3 node tree, with the scalar rules of completion.md §3.
//
// The same type, with YAML 1.2 core rules, backs the corpus runner's
// parsed-equal comparison (conformance/toskeriser/README.md).

// kind is the Python type of a value.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kStr
	kTime
	kMap
	kList
)

// value is a YAML value with Python semantics.
type value struct {
	kind kind
	b    bool
	i    *big.Int // kInt
	f    float64  // kFloat
	s    string   // kStr; the source text of a kTime
	m    []entry  // kMap, in key order; keys are unique (Python equality)
	l    []*value // kList
	// index maps the hash of each scalar key of a large map to its entry.
	index map[string]int
	// node is the source node, for positions; nil for created values.
	node *yaml.Node
}

// entry is one key/value pair of a map.
type entry struct {
	k, v *value
}

func newStr(s string) *value { return &value{kind: kStr, s: s} }

func newInt(n int64) *value { return &value{kind: kInt, i: big.NewInt(n)} }

func newMap() *value { return &value{kind: kMap} }

// kindOf is v's kind; a nil value (a missing one) is null.
func (v *value) kindOf() kind {
	if v == nil {
		return kNull
	}
	return v.kind
}

func (v *value) isNull() bool { return v.kindOf() == kNull }

func (v *value) isStr() bool { return v.kindOf() == kStr }

func (v *value) isMap() bool { return v.kindOf() == kMap }

func (v *value) isList() bool { return v.kindOf() == kList }

// eachListEntry calls fn with every entry of the maps in the list x. An x
// that is not a list, or an item that is not a map, is skipped after a call
// of bad with it, where bad is not nil.
func eachListEntry(x *value, bad func(*value), fn func(e entry)) {
	if !x.isList() {
		if bad != nil {
			bad(x)
		}
		return
	}
	for _, item := range x.l {
		if !item.isMap() {
			if bad != nil {
				bad(item)
			}
			continue
		}
		for _, e := range item.m {
			fn(e)
		}
	}
}

// get returns the value of the string key k of a map, or nil.
func (v *value) get(k string) *value {
	if !v.isMap() {
		return nil
	}
	for _, e := range v.m {
		if e.k.kind == kStr && e.k.s == k {
			return e.v
		}
	}
	return nil
}

// indexThreshold is the map size from which lookups go through an index.
const indexThreshold = 8

// lookup returns the entry index of key k (Python equality), or -1.
func (v *value) lookup(k *value) int {
	if h, ok := keyHash(k); ok && len(v.m) > indexThreshold {
		if v.index == nil {
			v.index = make(map[string]int, len(v.m))
			for i, e := range v.m {
				if eh, ok := keyHash(e.k); ok {
					v.index[eh] = i
				}
			}
		}
		if i, ok := v.index[h]; ok {
			return i
		}
		return -1
	}
	for i, e := range v.m {
		if pyEqual(e.k, k) {
			return i
		}
	}
	return -1
}

// set assigns a map key the way a Python dict does: an existing key keeps
// its position and takes the new value; a new key goes last.
func (v *value) set(k, x *value) {
	if i := v.lookup(k); i >= 0 {
		v.m[i].v = x
		return
	}
	v.m = append(v.m, entry{k, x})
	if v.index != nil {
		if h, ok := keyHash(k); ok {
			v.index[h] = len(v.m) - 1
		}
	}
}

// keyHash returns a string that is equal for Python-equal scalar keys. It
// reports false for collections and NaN, which are looked up by a scan.
func keyHash(k *value) (string, bool) {
	switch k.kindOf() {
	case kNull:
		return "z", true
	case kStr:
		return "s" + k.s, true
	case kTime:
		return "t" + k.s, true
	case kBool, kInt, kFloat:
		f := bigOf(k)
		if f == nil {
			return "", false
		}
		return "n" + f.Text('g', -1), true
	}
	return "", false
}

// line and col return the source position, or zero.
func (v *value) line() int {
	if v == nil || v.node == nil {
		return 0
	}
	return v.node.Line
}

func (v *value) col() int {
	if v == nil || v.node == nil {
		return 0
	}
	return v.node.Column
}

// schema selects the scalar rules of a conversion.
type schema uint8

const (
	// yaml11 is PyYAML's SafeLoader (YAML 1.1), the reference's reader.
	yaml11 schema = iota
	// yaml12 is the YAML 1.2 core schema, the corpus's comparison rule.
	yaml12
)

// maxConvertDepth bounds the nesting of converted documents.
const maxConvertDepth = 1000

// convertError is a problem found while converting a node tree.
type convertError struct {
	node *yaml.Node
	msg  string
}

func (e *convertError) Error() string { return e.msg }

// converter turns yaml.v3 nodes into values.
type converter struct {
	schema  schema
	anchors yamlsrc.Anchors[*value]
	// dupKeys rejects duplicate mapping keys (the reference's round-trip
	// loader rejects them too).
	dupKeys bool
}

const maxAliasUses = 10000

// convert turns a node tree into a value.
func convert(n *yaml.Node, s schema, rejectDuplicates bool) (*value, error) {
	c := &converter{schema: s, dupKeys: rejectDuplicates}
	return c.convert(n, 0)
}

func (c *converter) convert(n *yaml.Node, depth int) (*value, error) {
	if depth > maxConvertDepth {
		return nil, &convertError{n, fmt.Sprintf("document nested deeper than %d levels", maxConvertDepth)}
	}
	if v, ok := c.anchors.Lookup(n); ok {
		return v, nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &value{kind: kNull, node: n}, nil
		}
		return c.convert(n.Content[0], depth+1)
	case yaml.AliasNode:
		if msg := c.anchors.Use(n, maxAliasUses); msg != "" {
			return nil, &convertError{n, msg}
		}
		return c.convert(n.Alias, depth+1)
	case yaml.ScalarNode:
		v, err := c.scalar(n)
		if err != nil {
			return nil, err
		}
		c.anchors.Remember(n, v)
		return v, nil
	case yaml.SequenceNode:
		v := &value{kind: kList, node: n, l: make([]*value, 0, len(n.Content))}
		c.anchors.Remember(n, v)
		c.anchors.Enter(n)
		for _, item := range n.Content {
			x, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			v.l = append(v.l, x)
		}
		c.anchors.Leave(n)
		return v, nil
	case yaml.MappingNode:
		v := &value{kind: kMap, node: n}
		c.anchors.Remember(n, v)
		c.anchors.Enter(n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := c.convert(n.Content[i], depth+1)
			if err != nil {
				return nil, err
			}
			x, err := c.convert(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			if c.dupKeys && v.lookup(k) >= 0 {
				return nil, &convertError{n.Content[i], fmt.Sprintf("duplicate mapping key %s", pyRepr(k))}
			}
			v.set(k, x)
		}
		c.anchors.Leave(n)
		return v, nil
	}
	return nil, &convertError{n, "unexpected YAML node"}
}

// scalar resolves a scalar node: quoted and block scalars are strings,
// explicit tags are honoured, plain scalars follow the schema.
func (c *converter) scalar(n *yaml.Node) (*value, error) {
	if n.Style&yaml.TaggedStyle != 0 {
		v, ok := resolveTagged(n.Tag, n.Value, c.schema)
		if !ok {
			return nil, &convertError{n, fmt.Sprintf("cannot read %q as %s", n.Value, n.Tag)}
		}
		v.node = n
		return v, nil
	}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return &value{kind: kStr, s: n.Value, node: n}, nil
	}
	var v *value
	if c.schema == yaml11 {
		v = resolve11(n.Value)
	} else {
		v = resolve12(n.Value)
	}
	v.node = n
	return v, nil
}

// resolveTagged reads a scalar with an explicit standard tag.
func resolveTagged(tag, s string, sch schema) (*value, bool) {
	switch tag {
	case "!!str", "tag:yaml.org,2002:str":
		return newStr(s), true
	case "!!null", "tag:yaml.org,2002:null":
		return &value{kind: kNull}, true
	case "!!bool", "tag:yaml.org,2002:bool", "!!int", "tag:yaml.org,2002:int",
		"!!float", "tag:yaml.org,2002:float", "!!timestamp", "tag:yaml.org,2002:timestamp":
		var v *value
		if sch == yaml11 {
			v = resolve11(s)
		} else {
			v = resolve12(s)
		}
		want := map[string]kind{"bool": kBool, "int": kInt, "float": kFloat, "timestamp": kTime}[tag[strings.LastIndexAny(tag, "!:")+1:]]
		if v.kind == want {
			return v, true
		}
		if want == kFloat && v.kind == kInt {
			f, _ := new(big.Float).SetInt(v.i).Float64()
			return &value{kind: kFloat, f: f}, true
		}
		return nil, false
	}
	// Application tags (e.g. !Ref) keep the text.
	return newStr(s), true
}

// lazyRegexp returns expr compiled on the first call: compiled at start-up,
// completion's expressions cost every v4t process 0.6 ms, most of which
// never complete a template.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// YAML 1.1 implicit resolvers of PyYAML's SafeLoader, tried in PyYAML's
// order: bool, float, int, null, timestamp.
var (
	bool11  = lazyRegexp(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	float11 = lazyRegexp(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?` +
		`|\.[0-9_]+(?:[eE][-+][0-9]+)?` +
		`|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*` +
		`|[-+]?\.(?:inf|Inf|INF)` +
		`|\.(?:nan|NaN|NAN))$`)
	int11 = lazyRegexp(`^(?:[-+]?0b[0-1_]+` +
		`|[-+]?0[0-7_]+` +
		`|[-+]?(?:0|[1-9][0-9_]*)` +
		`|[-+]?0x[0-9a-fA-F_]+` +
		`|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	null11      = lazyRegexp(`^(?:~|null|Null|NULL|)$`)
	timestamp11 = lazyRegexp(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]` +
		`|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?` +
		`(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?` +
		`(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
)

// resolve11 types a plain scalar as PyYAML's SafeLoader does (YAML 1.1).
func resolve11(s string) *value {
	switch {
	case bool11().MatchString(s):
		switch s[0] {
		case 'y', 'Y', 't', 'T':
			return &value{kind: kBool, b: true}
		case 'o', 'O':
			return &value{kind: kBool, b: s == "on" || s == "On" || s == "ON"}
		}
		return &value{kind: kBool, b: false}
	case float11().MatchString(s):
		if f, ok := float11Value(s); ok {
			return &value{kind: kFloat, f: f}
		}
	case int11().MatchString(s):
		if i, ok := int11Value(s); ok {
			return &value{kind: kInt, i: i}
		}
	case null11().MatchString(s):
		return &value{kind: kNull}
	case timestamp11().MatchString(s):
		return &value{kind: kTime, s: s}
	}
	return newStr(s)
}

// int11Value is PyYAML's construct_yaml_int.
func int11Value(s string) (*big.Int, bool) {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n := new(big.Int)
	ok := true
	switch {
	case s == "0":
	case strings.HasPrefix(s, "0b"):
		_, ok = n.SetString(s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		_, ok = n.SetString(s[2:], 16)
	case strings.HasPrefix(s, "0"):
		_, ok = n.SetString(s, 8)
	case strings.Contains(s, ":"):
		base := big.NewInt(1)
		parts := strings.Split(s, ":")
		for _, part := range slices.Backward(parts) {
			d, good := new(big.Int).SetString(part, 10)
			if !good {
				return nil, false
			}
			n.Add(n, d.Mul(d, base))
			base.Mul(base, big.NewInt(60))
		}
	default:
		_, ok = n.SetString(s, 10)
	}
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// float11Value is PyYAML's construct_yaml_float.
func float11Value(s string) (float64, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), true
	case s == ".nan":
		return math.NaN(), true
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		base, sum := 1.0, 0.0
		for _, part := range slices.Backward(parts) {
			d, err := strconv.ParseFloat(part, 64)
			if err != nil {
				return 0, false
			}
			sum += d * base
			base *= 60
		}
		return sign * sum, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return sign * f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// YAML 1.2 core schema.
var (
	null12  = lazyRegexp(`^(?:~|null|Null|NULL|)$`)
	bool12  = lazyRegexp(`^(?:true|True|TRUE|false|False|FALSE)$`)
	int12   = lazyRegexp(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	float12 = lazyRegexp(`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// resolve12 types a plain scalar with the YAML 1.2 core schema.
func resolve12(s string) *value {
	switch {
	case null12().MatchString(s):
		return &value{kind: kNull}
	case bool12().MatchString(s):
		return &value{kind: kBool, b: s[0] == 't' || s[0] == 'T'}
	case int12().MatchString(s):
		n := new(big.Int)
		switch {
		case strings.HasPrefix(s, "0o"):
			n.SetString(s[2:], 8)
		case strings.HasPrefix(s, "0x"):
			n.SetString(s[2:], 16)
		default:
			n.SetString(strings.TrimPrefix(s, "+"), 10)
		}
		return &value{kind: kInt, i: n}
	case float12().MatchString(s):
		t := strings.ToLower(s)
		switch strings.TrimLeft(t, "+-") {
		case ".inf":
			if t[0] == '-' {
				return &value{kind: kFloat, f: math.Inf(-1)}
			}
			return &value{kind: kFloat, f: math.Inf(1)}
		case ".nan":
			return &value{kind: kFloat, f: math.NaN()}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return &value{kind: kFloat, f: f}
	}
	return newStr(s)
}

// pyEqual is Python's ==: numbers compare by value across bool, int and
// float; lists element-wise; dicts as unordered key sets.
func pyEqual(a, b *value) bool {
	if a == nil || b == nil {
		return a.isNull() && b.isNull()
	}
	if isNumber(a) && isNumber(b) {
		return numCompare(a, b) == 0
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNull:
		return true
	case kStr, kTime:
		return a.s == b.s
	case kList:
		return slices.EqualFunc(a.l, b.l, pyEqual)
	case kMap:
		if len(a.m) != len(b.m) {
			return false
		}
		for _, e := range a.m {
			j := b.lookup(e.k)
			if j < 0 || !pyEqual(e.v, b.m[j].v) {
				return false
			}
		}
		return true
	}
	return false
}

func isNumber(v *value) bool { return v.kind == kBool || v.kind == kInt || v.kind == kFloat }

// numCompare compares two numbers; NaN compares unequal to everything
// (it returns 2).
func numCompare(a, b *value) int {
	fa, fb := bigOf(a), bigOf(b)
	if fa == nil || fb == nil {
		return 2
	}
	return fa.Cmp(fb)
}

func bigOf(v *value) *big.Float {
	switch v.kind {
	case kBool:
		if v.b {
			return big.NewFloat(1)
		}
		return big.NewFloat(0)
	case kInt:
		return new(big.Float).SetInt(v.i)
	case kFloat:
		if math.IsNaN(v.f) {
			return nil
		}
		return big.NewFloat(v.f)
	}
	return nil
}

// pyStr renders a value as Python's str() does.
func pyStr(v *value) string {
	if v.isStr() || (v != nil && v.kind == kTime) {
		return v.s
	}
	return pyRepr(v)
}

// pyRepr renders a value as Python's repr() does.
func pyRepr(v *value) string {
	switch v.kindOf() {
	case kNull:
		return "None"
	case kBool:
		if v.b {
			return "True"
		}
		return "False"
	case kInt:
		return v.i.String()
	case kFloat:
		return pyFloat(v.f)
	case kStr:
		return pyQuote(v.s)
	case kTime:
		return v.s
	case kList:
		parts := make([]string, len(v.l))
		for i, x := range v.l {
			parts[i] = pyRepr(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case kMap:
		parts := make([]string, len(v.m))
		for i, e := range v.m {
			parts[i] = pyRepr(e.k) + ": " + pyRepr(e.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "?"
}

// pyFloat renders a float as Python's repr() does: the shortest digits that
// read back, in fixed notation when the decimal exponent is in (-4, 16],
// with ".0" for integral values, else in exponent notation ("1e+16").
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			return sign + "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			return sign + digits[:decpt] + "." + digits[decpt:]
		}
	}
	out := digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	return fmt.Sprintf("%s%se%s%02d", sign, out, es, exp)
}

// pyQuote is Python's repr() of a str.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// canonical renders a value as indented text with its types made explicit
// and map keys sorted, so that two values are parsed-equal (README of the
// corpus: typed scalars, unordered maps, ordered lists) exactly when their
// canonical texts are equal. The text doubles as the input of failure diffs.
func canonical(v *value) string {
	var b strings.Builder
	writeCanonical(&b, v, 0)
	return b.String()
}

func writeCanonical(b *strings.Builder, v *value, indent int) {
	pad := strings.Repeat("  ", indent)
	switch {
	case v.isMap():
		if len(v.m) == 0 {
			b.WriteString(pad + "{}\n")
			return
		}
		keys := make([]string, len(v.m))
		vals := map[string]*value{}
		for i, e := range v.m {
			keys[i] = scalarText(e.k)
			vals[keys[i]] = e.v
		}
		sort.Strings(keys)
		for _, k := range keys {
			x := vals[k]
			if x.isMap() && len(x.m) > 0 || x.isList() && len(x.l) > 0 {
				b.WriteString(pad + k + ":\n")
				writeCanonical(b, x, indent+1)
				continue
			}
			b.WriteString(pad + k + ": ")
			writeCanonical(b, x, 0)
		}
	case v.isList():
		if len(v.l) == 0 {
			b.WriteString(pad + "[]\n")
			return
		}
		for _, x := range v.l {
			b.WriteString(pad + "-\n")
			writeCanonical(b, x, indent+1)
		}
	default:
		b.WriteString(pad + scalarText(v) + "\n")
	}
}

// scalarText is the typed text of a scalar (or of a collection used as a
// key) in canonical().
func scalarText(v *value) string {
	switch v.kindOf() {
	case kNull:
		return "null"
	case kBool:
		return strconv.FormatBool(v.b)
	case kInt:
		return "int " + v.i.String()
	case kFloat:
		return "float " + pyFloat(v.f)
	case kStr:
		return strconv.Quote(v.s)
	case kTime:
		return "timestamp " + v.s
	}
	return strings.ReplaceAll(strings.TrimSpace(canonical(v)), "\n", "; ")
}
