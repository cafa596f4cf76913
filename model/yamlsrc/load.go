package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"v4t/model/diag"
)

// Limits that keep hostile documents from exhausting memory.
const (
	maxDepth = 10000
	// maxAliasExpansion bounds the number of alias uses (billion laughs);
	// aliases share values, so this only limits the walk.
	maxAliasUses = 1 << 20
)

// LoadFile reads and parses a YAML file. The file name is used in positions.
func LoadFile(path string) (*Value, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, diag.New(diag.StageLoad, readError(path, err))
	}
	return Parse(data, path)
}

func readError(path string, err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("%s: cannot read: %v", path, err)
}

// Parse parses one YAML document with js-yaml's value semantics. An empty
// document is null.
func Parse(data []byte, file string) (*Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return NewNull(), nil
		}
		return nil, syntaxError(file, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, syntaxError(file, err)
		}
		return nil, diag.At(diag.Pos{File: file, Line: extra.Line, Col: extra.Column}, diag.StageLoad,
			"expected a single YAML document, found another one")
	}
	c := converter{file: file, memo: map[*yaml.Node]*Value{}}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return NewNull(), nil
		}
		root = root.Content[0]
	}
	v, err := c.convert(root, 0)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// syntaxError turns a yaml.v3 error ("yaml: line 3: ...") into a positioned
// diagnostic.
func syntaxError(file string, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if strings.HasPrefix(msg, "line ") {
		rest := msg[len("line "):]
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n
				msg = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return diag.At(diag.Pos{File: file, Line: line}, diag.StageLoad, "invalid YAML: "+msg)
}

type converter struct {
	file  string
	memo  map[*yaml.Node]*Value
	alias int
}

func (c *converter) errAt(n *yaml.Node, format string, args ...any) error {
	return diag.Errorf(diag.Pos{File: c.file, Line: n.Line, Col: n.Column}, diag.StageLoad, format, args...)
}

func (c *converter) convert(n *yaml.Node, depth int) (*Value, error) {
	if depth > maxDepth {
		return nil, c.errAt(n, "document nested deeper than %d levels", maxDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.alias++
		if c.alias > maxAliasUses {
			return nil, c.errAt(n, "more than %d alias uses", maxAliasUses)
		}
		if v, ok := c.memo[n.Alias]; ok {
			return v, nil
		}
		return c.convert(n.Alias, depth+1)
	case yaml.ScalarNode:
		v, err := c.scalar(n)
		if err != nil {
			return nil, err
		}
		if n.Anchor != "" {
			c.memo[n] = v
		}
		return v, nil
	case yaml.SequenceNode:
		if n.Tag != "" && n.Style&yaml.TaggedStyle != 0 && n.Tag != "!!seq" {
			return nil, c.errAt(n, "unknown tag %s", n.Tag)
		}
		v := &Value{Kind: KindList, List: make([]*Value, len(n.Content)), Line: int32(n.Line), Col: int32(n.Column)}
		if n.Anchor != "" {
			c.memo[n] = v
		}
		for i, item := range n.Content {
			x, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			v.List[i] = x
		}
		return v, nil
	case yaml.MappingNode:
		if n.Tag != "" && n.Style&yaml.TaggedStyle != 0 && n.Tag != "!!map" {
			return nil, c.errAt(n, "unknown tag %s", n.Tag)
		}
		v := &Value{Kind: KindMap, Map: &Map{}, Line: int32(n.Line), Col: int32(n.Column)}
		if n.Anchor != "" {
			c.memo[n] = v
		}
		if err := c.mapping(v, n, depth); err != nil {
			return nil, err
		}
		return v, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return NewNull(), nil
		}
		return c.convert(n.Content[0], depth+1)
	}
	return nil, c.errAt(n, "unexpected YAML node")
}

// mapping fills v from a mapping node. Merge keys (<<) follow js-yaml: merged
// keys never replace keys set before them and may be overridden by explicit
// keys after them; explicit duplicates are an error.
func (c *converter) mapping(v *Value, n *yaml.Node, depth int) error {
	var overridable map[string]bool
	var seen map[string]bool
	if len(n.Content) > 2*indexThreshold {
		seen = make(map[string]bool, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Value == "<<" && (kn.Style == 0 || kn.Tag == "!!merge") {
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
		var dup bool
		if seen != nil {
			dup = seen[key]
			seen[key] = true
		} else {
			_, dup = v.Map.Lookup(key)
		}
		if dup && !overridable[key] {
			return c.errAt(kn, "duplicated mapping key %q", key)
		}
		delete(overridable, key)
		val, err := c.convert(vn, depth+1)
		if err != nil {
			return err
		}
		v.Map.Set(key, val)
	}
	return nil
}

func (c *converter) merge(v *Value, vn *yaml.Node, depth int, overridable map[string]bool) error {
	src, err := c.convert(vn, depth+1)
	if err != nil {
		return err
	}
	var sources []*Value
	switch src.Kind {
	case KindMap:
		sources = []*Value{src}
	case KindList:
		for _, s := range src.List {
			if s.Kind != KindMap {
				return c.errAt(vn, "cannot merge mappings; the provided source object is unacceptable")
			}
		}
		sources = src.List
	default:
		return c.errAt(vn, "cannot merge mappings; the provided source object is unacceptable")
	}
	for _, s := range sources {
		for j, k := range s.Map.keys {
			if _, ok := v.Map.Lookup(k); !ok {
				v.Map.Set(k, s.Map.vals[j])
				overridable[k] = true
			}
		}
	}
	return nil
}

// key converts a mapping key the way JavaScript does: String(key).
func (c *converter) key(kn *yaml.Node, depth int) (string, error) {
	if kn.Kind == yaml.ScalarNode {
		v, err := c.scalar(kn)
		if err != nil {
			return "", err
		}
		return KeyString(v), nil
	}
	v, err := c.convert(kn, depth+1)
	if err != nil {
		return "", err
	}
	return KeyString(v), nil
}

// KeyString converts a value the way JavaScript converts a property key.
func KeyString(v *Value) string {
	switch v.Kind {
	case KindNull:
		return "null"
	case KindBool:
		if v.Bool {
			return "true"
		}
		return "false"
	case KindNumber:
		return FormatNumber(v.Num)
	case KindString:
		return v.Str
	case KindTime:
		return FormatTime(v.Num)
	case KindList:
		parts := make([]string, len(v.List))
		for i, x := range v.List {
			if !x.IsNull() {
				parts[i] = KeyString(x)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

func (c *converter) scalar(n *yaml.Node) (*Value, error) {
	pos := func(v *Value) *Value {
		v.Line, v.Col = int32(n.Line), int32(n.Column)
		return v
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.Tag {
		case "!!str":
			return pos(NewString(n.Value)), nil
		case "!!null":
			if v, ok := resolveNull(n.Value); ok {
				return pos(v), nil
			}
		case "!!bool":
			if v, ok := resolveBool(n.Value); ok {
				return pos(v), nil
			}
		case "!!int":
			if v, ok := resolveInt(n.Value); ok {
				return pos(v), nil
			}
		case "!!float":
			if v, ok := resolveInt(n.Value); ok {
				return pos(v), nil
			}
			if v, ok := resolveFloat(n.Value); ok {
				return pos(v), nil
			}
		case "!!timestamp":
			if v, ok := resolveTimestamp(n.Value); ok {
				return pos(v), nil
			}
		default:
			return nil, c.errAt(n, "unknown tag %s", n.Tag)
		}
		return nil, c.errAt(n, "cannot resolve %q as %s", n.Value, n.Tag)
	}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return pos(NewString(n.Value)), nil
	}
	return pos(ResolvePlain(n.Value)), nil
}

// ResolvePlain resolves a plain (unquoted, untagged) scalar with js-yaml's
// default schema: null, bool, int, float, timestamp, else string.
func ResolvePlain(s string) *Value {
	if s == "" {
		return NewNull()
	}
	switch c := s[0]; {
	case c == '~' || c == 'n' || c == 'N':
		if v, ok := resolveNull(s); ok {
			return v
		}
	case c == 't' || c == 'T' || c == 'f' || c == 'F':
		if v, ok := resolveBool(s); ok {
			return v
		}
	case (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.':
		if v, ok := resolveInt(s); ok {
			return v
		}
		if v, ok := resolveFloat(s); ok {
			return v
		}
		if c >= '0' && c <= '9' {
			if v, ok := resolveTimestamp(s); ok {
				return v
			}
		}
	}
	return NewString(s)
}

func resolveNull(s string) (*Value, bool) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return NewNull(), true
	}
	return nil, false
}

func resolveBool(s string) (*Value, bool) {
	switch s {
	case "true", "True", "TRUE":
		return NewBool(true), true
	case "false", "False", "FALSE":
		return NewBool(false), true
	}
	return nil, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// resolveInt follows js-yaml 4's int type: optional sign, 0b/0x/0o prefixes,
// underscores between digits.
func resolveInt(s string) (*Value, bool) {
	i := 0
	sign := 1.0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		i++
	}
	if i >= len(s) {
		return nil, false
	}
	body := s[i:]
	if body[0] == '0' && len(body) > 1 {
		base := 0
		switch body[1] {
		case 'b':
			base = 2
		case 'x':
			base = 16
		case 'o':
			base = 8
		}
		if base != 0 {
			digits := body[2:]
			has := false
			for j := 0; j < len(digits); j++ {
				ch := digits[j]
				if ch == '_' {
					continue
				}
				if !validDigit(ch, base) {
					return nil, false
				}
				has = true
			}
			if !has || digits[len(digits)-1] == '_' {
				return nil, false
			}
			clean := strings.ReplaceAll(digits, "_", "")
			f := parseIntBase(clean, base)
			return NewNumber(sign * f), true
		}
	}
	if body[0] == '_' {
		return nil, false
	}
	has := false
	for j := 0; j < len(body); j++ {
		ch := body[j]
		if ch == '_' {
			continue
		}
		if !isDigit(ch) {
			return nil, false
		}
		has = true
	}
	if !has || body[len(body)-1] == '_' {
		return nil, false
	}
	clean := strings.ReplaceAll(body, "_", "")
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		// Out-of-range decimal integers still parse to ±Inf in JS.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return NewNumber(sign * f), true
		}
		return nil, false
	}
	return NewNumber(sign * f), true
}

func validDigit(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return c >= '0' && c <= '7'
	}
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// parseIntBase converts digits to a double like JS parseInt: exact up to 2^53,
// rounded above.
func parseIntBase(digits string, base int) float64 {
	f := 0.0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d int
		switch {
		case isDigit(c):
			d = int(c - '0')
		case c >= 'a':
			d = int(c-'a') + 10
		default:
			d = int(c-'A') + 10
		}
		f = f*float64(base) + float64(d)
	}
	return f
}

// resolveFloat follows js-yaml 4's float pattern.
func resolveFloat(s string) (*Value, bool) {
	if s[len(s)-1] == '_' {
		return nil, false
	}
	t := s
	sign := 1.0
	signed := false
	if t[0] == '-' || t[0] == '+' {
		signed = true
		if t[0] == '-' {
			sign = -1
		}
		t = t[1:]
	}
	switch t {
	case ".inf", ".Inf", ".INF":
		return NewNumber(sign * math.Inf(1)), true
	case ".nan", ".NaN", ".NAN":
		if signed {
			return nil, false
		}
		return NewNumber(math.NaN()), true
	}
	if t == "" {
		return nil, false
	}
	i := 0
	if t[0] == '.' {
		if signed {
			// "[-+]" is not allowed before ".5" in js-yaml's pattern.
			return nil, false
		}
		i = 1
		start := i
		for i < len(t) && (isDigit(t[i]) || t[i] == '_') {
			i++
		}
		if i == start {
			return nil, false
		}
	} else {
		if !isDigit(t[0]) {
			return nil, false
		}
		for i < len(t) && (isDigit(t[i]) || t[i] == '_') {
			i++
		}
		if i < len(t) && t[i] == '.' {
			i++
			for i < len(t) && (isDigit(t[i]) || t[i] == '_') {
				i++
			}
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			i++
		}
		start := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == start {
			return nil, false
		}
	}
	if i != len(t) {
		return nil, false
	}
	clean := strings.ReplaceAll(t, "_", "")
	f, err := parseFloatJS(clean)
	if err != nil {
		return nil, false
	}
	return NewNumber(sign * f), true
}

// parseFloatJS parses the longest numeric prefix like JS parseFloat; the
// pattern check above has already made the whole text numeric, except for
// forms like "1." that Go rejects.
func parseFloatJS(s string) (float64, error) {
	s = strings.TrimSuffix(strings.Replace(s, ".e", "e", 1), ".")
	s = strings.Replace(s, ".E", "E", 1)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
		return 0, err
	}
	return f, nil
}

// resolveTimestamp follows js-yaml's timestamp type.
func resolveTimestamp(s string) (*Value, bool) {
	if ms, ok := ParseYAMLTimestamp(s); ok {
		return NewTime(ms), true
	}
	return nil, false
}

// ParseYAMLTimestamp parses the YAML timestamp forms js-yaml accepts and
// returns epoch milliseconds.
func ParseYAMLTimestamp(s string) (float64, bool) {
	num := func(t string) (int, bool) {
		if t == "" {
			return 0, false
		}
		n := 0
		for i := 0; i < len(t); i++ {
			if !isDigit(t[i]) {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, true
	}
	if len(s) < 8 {
		return 0, false
	}
	year, ok := num(s[:4])
	if !ok || s[4] != '-' {
		return 0, false
	}
	rest := s[5:]
	// month: 1 or 2 digits
	j := 0
	for j < len(rest) && j < 2 && isDigit(rest[j]) {
		j++
	}
	if j == 0 || j >= len(rest) || rest[j] != '-' {
		return 0, false
	}
	month, _ := num(rest[:j])
	rest = rest[j+1:]
	j = 0
	for j < len(rest) && j < 2 && isDigit(rest[j]) {
		j++
	}
	if j == 0 {
		return 0, false
	}
	day, _ := num(rest[:j])
	monthLen := len(s) - 5 - len(rest) - 1
	rest = rest[j:]
	if rest == "" {
		// Date only requires exactly two-digit month and day.
		if monthLen != 2 || j != 2 {
			return 0, false
		}
		return float64(utcMillis(year, month, day, 0, 0, 0, 0)), true
	}
	// separator: T, t, or spaces/tabs
	if rest[0] == 'T' || rest[0] == 't' {
		rest = rest[1:]
	} else {
		k := 0
		for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
			k++
		}
		if k == 0 {
			return 0, false
		}
		rest = rest[k:]
	}
	j = 0
	for j < len(rest) && j < 2 && isDigit(rest[j]) {
		j++
	}
	if j == 0 || j >= len(rest) || rest[j] != ':' {
		return 0, false
	}
	hour, _ := num(rest[:j])
	rest = rest[j+1:]
	if len(rest) < 5 || rest[2] != ':' {
		return 0, false
	}
	minute, ok1 := num(rest[:2])
	second, ok2 := num(rest[3:5])
	if !ok1 || !ok2 {
		return 0, false
	}
	rest = rest[5:]
	frac := 0
	if rest != "" && rest[0] == '.' {
		k := 1
		for k < len(rest) && isDigit(rest[k]) {
			k++
		}
		digits := rest[1:k]
		if len(digits) > 3 {
			digits = digits[:3]
		}
		for len(digits) < 3 {
			digits += "0"
		}
		frac, _ = num(digits)
		rest = rest[k:]
	}
	delta := 0
	if rest != "" {
		k := 0
		for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
			k++
		}
		rest = rest[k:]
		switch {
		case rest == "Z":
		case rest != "" && (rest[0] == '+' || rest[0] == '-'):
			tz := rest[1:]
			k = 0
			for k < len(tz) && k < 2 && isDigit(tz[k]) {
				k++
			}
			if k == 0 {
				return 0, false
			}
			th, _ := num(tz[:k])
			tm := 0
			tz = tz[k:]
			if tz != "" {
				if len(tz) != 3 || tz[0] != ':' {
					return 0, false
				}
				var ok bool
				if tm, ok = num(tz[1:]); !ok {
					return 0, false
				}
			}
			delta = (th*60 + tm) * 60000
			if rest[0] == '-' {
				delta = -delta
			}
		default:
			return 0, false
		}
	}
	return float64(utcMillis(year, month, day, hour, minute, second, frac) - int64(delta)), true
}

// utcMillis is JS Date.UTC: out-of-range fields carry over.
func utcMillis(year, month, day, hour, minute, second, ms int) int64 {
	t := time.Date(year, time.Month(month), day, hour, minute, second, ms*int(time.Millisecond), time.UTC)
	return t.UnixMilli()
}

// FormatTime renders epoch milliseconds as JS Date.prototype.toISOString.
func FormatTime(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "Invalid Date"
	}
	t := time.UnixMilli(int64(ms)).UTC()
	if t.Year() < 0 || t.Year() > 9999 {
		y := t.Year()
		sign := "+"
		if y < 0 {
			sign = "-"
			y = -y
		}
		return fmt.Sprintf("%s%06d-%s", sign, y, t.Format("01-02T15:04:05.000Z"))
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}
