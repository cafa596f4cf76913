package complete

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Spec completion.md §8 (building the query) and §9.1 (matching).

// Field is a numeric image field a query sorts or bounds on.
type Field uint8

// The numeric fields.
const (
	FieldSize Field = iota
	FieldPulls
	FieldStars
)

var fieldNames = [...]string{"size", "pulls", "stars"}

func (f Field) String() string { return fieldNames[f] }

func (f Field) of(img *Image) *Number {
	switch f {
	case FieldSize:
		return img.Size
	case FieldPulls:
		return img.Pulls
	}
	return img.Stars
}

// SortKey is one sort criterion; Desc sorts high values first.
type SortKey struct {
	Field Field
	Desc  bool
}

// Policy is the image ordering of completion.md §8.1.
type Policy uint8

// The policies.
const (
	TopRated Policy = iota
	SizePolicy
	MostUsed
)

var policyNames = [...]string{"top_rated", "size", "most_used"}

func (p Policy) String() string { return policyNames[p] }

// ParsePolicy reads a --policy value. An unknown name is a usage error with
// the reference's message.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, policyError{}
}

type policyError struct{}

func (policyError) Error() string { return MsgBadPolicy }

// SortKeys returns the policy's sort keys in priority order.
func (p Policy) SortKeys() []SortKey {
	switch p {
	case SizePolicy:
		return []SortKey{{FieldSize, false}, {FieldStars, true}, {FieldPulls, true}}
	case MostUsed:
		return []SortKey{{FieldPulls, true}, {FieldStars, true}, {FieldSize, false}}
	}
	return []SortKey{{FieldStars, true}, {FieldPulls, true}, {FieldSize, false}}
}

// Op is a comparison operator of a bound.
type Op uint8

// The operators, in the wire form's suffix order.
const (
	OpGT Op = iota
	OpGTE
	OpLT
	OpLTE
)

var opSuffix = [...]string{"gt", "gte", "lt", "lte"}

// Bound is a numeric condition "field op value".
type Bound struct {
	Field Field
	Op    Op
	Value int64
}

func (b Bound) holds(n *Number) bool {
	if n == nil {
		return false
	}
	v := float64(b.Value)
	switch b.Op {
	case OpGT:
		return n.Float > v
	case OpGTE:
		return n.Float >= v
	case OpLT:
		return n.Float < v
	}
	return n.Float <= v
}

// SoftwareCond requires a software whose version starts with Prefix, read as
// a regular expression (DockerFinder's "^prefix").
type SoftwareCond struct {
	Name, Prefix string
}

// Query is one DockerFinder search (completion.md §8).
type Query struct {
	Sort     []SortKey
	Software []SoftwareCond
	// Distro is the os_distribution filter; HasDistro tells it is set.
	Distro    string
	HasDistro bool
	// Bounds hold the implicit size > 0 first, then the global
	// constraints; a size > bound replaces the implicit one in place.
	Bounds []Bound
}

// newQuery returns the query every unit starts from.
func newQuery(p Policy) *Query {
	return &Query{Sort: p.SortKeys(), Bounds: []Bound{{FieldSize, OpGT, 0}}}
}

// setSoftware adds or replaces a software condition; a replaced name keeps
// its position, as in a Python dict.
func (q *Query) setSoftware(name, prefix string) {
	for i := range q.Software {
		if q.Software[i].Name == name {
			q.Software[i].Prefix = prefix
			return
		}
	}
	q.Software = append(q.Software, SoftwareCond{name, prefix})
}

// setBound adds or replaces the bound with the same field and operator.
func (q *Query) setBound(b Bound) {
	for i := range q.Bounds {
		if q.Bounds[i].Field == b.Field && q.Bounds[i].Op == b.Op {
			q.Bounds[i] = b
			return
		}
	}
	q.Bounds = append(q.Bounds, b)
}

// Wire renders the query string that DockerFinder's /search receives
// (completion.md §8.5).
func (q *Query) Wire() string {
	var parts []string
	add := func(k, v string) { parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v)) }
	bounds := q.Bounds
	if len(bounds) > 0 && bounds[0].Field == FieldSize && bounds[0].Op == OpGT {
		add("size_gt", strconv.FormatInt(bounds[0].Value, 10))
		bounds = bounds[1:]
	}
	for _, k := range q.Sort {
		if k.Desc {
			add("sort", k.Field.String())
		} else {
			add("sort", "-"+k.Field.String())
		}
	}
	for _, s := range q.Software {
		add(s.Name, s.Prefix)
	}
	if q.HasDistro {
		add("distro", q.Distro)
	}
	for _, b := range bounds {
		add(b.Field.String()+"_"+opSuffix[b.Op], strconv.FormatInt(b.Value, 10))
	}
	return strings.Join(parts, "&")
}

// Matches applies DockerFinder's search rules (completion.md §9.1).
func (q *Query) Matches(img *Image) bool {
	for _, b := range q.Bounds {
		if !b.holds(b.Field.of(img)) {
			return false
		}
	}
	for _, s := range q.Software {
		re := prefixRegexp(s.Prefix)
		found := false
		for _, sw := range img.Softwares {
			if sw.Name == s.Name && sw.VerOK && re != nil && re.MatchString(sw.Ver) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if q.HasDistro {
		if img.Distro == nil {
			return false
		}
		re := distroRegexp(q.Distro)
		if re == nil || !re.MatchString(*img.Distro) {
			return false
		}
	}
	return true
}

// prefixRegexp is "^prefix" as DockerFinder builds it. Nil when it does
// not compile.
//
// Quirk: version-prefix (completion.md §9.1): the prefix is a regular
// expression matched as a string prefix, so node=6.2 matches 6.2.0, 6.20.1
// and 6-2-9.
func prefixRegexp(prefix string) *regexp.Regexp {
	re, err := regexp.Compile("^(?:" + prefix + ")")
	if err != nil {
		return nil
	}
	return re
}

// distroRegexp is DockerFinder's case-insensitive ".*w1.*w2.*" over the
// value's words split on single spaces.
func distroRegexp(distro string) *regexp.Regexp {
	re, err := regexp.Compile("(?i).*" + strings.Join(strings.Split(distro, " "), ".*") + ".*")
	if err != nil {
		return nil
	}
	return re
}

// Version patterns (completion.md §5.2, §8.2).
//
// Quirk: version-wildcard (completion.md §5.2, §8.2): the "." is an
// unescaped regular-expression wildcard in the reference, and so it is
// here; "6-2" passes, and so do "6." and "" at validation.
var (
	versionValid = lazyRegexp(`^(?:([0-9]+.)*([0-9]+|x)?)$`)
	versionQuery = lazyRegexp(`^(?:([0-9]+.)*([0-9]+|x))$`)
	versionLead  = lazyRegexp(`^[0-9]+(.[0-9]+)*`)
)

// versionPrefix is the prefix a version constraint searches for: the
// longest leading match of [0-9]+(.[0-9]+)*, or "" (any version).
func versionPrefix(v string) string { return versionLead().FindString(v) }

// GlobalConstraints are the matched parts of a --constraints value
// (completion.md §8.3); each is parsed per unit.
type GlobalConstraints struct {
	Size, Pulls, Stars string
	HasSize, HasPulls  bool
	HasStars           bool
	// Ignored has a warning for each part of the value that no search
	// used, in order; the reference drops them silently.
	Ignored []string
}

// The three searches of §8.3. [A-z] is the ASCII range A..z, as in the
// reference.
var (
	sizeSearch  = lazyRegexp(`size(\s*(?:>|<|=|>=|<=)\s*[0-9]+[A-z]+)`)
	pullsSearch = lazyRegexp(`pulls(\s*(?:>|<|=|>=|<=)\s*[0-9]+)`)
	starsSearch = lazyRegexp(`stars(\s*(?:>|<|=|>=|<=)\s*[0-9]+)`)
)

// ParseConstraints scans a --constraints value.
//
// Quirk: constraints-scan (completion.md §8.3): each key takes its first
// match; text that matches none of the searches is ignored, so
// "size<1.5GB" is dropped and "pulls>1.5" reads as pulls>1.
func ParseConstraints(s string) GlobalConstraints {
	var g GlobalConstraints
	used := make([]bool, len(s))
	firsts := map[string]string{}
	ends := map[int]string{}
	for _, k := range constraintKeys {
		m := k.search().FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		text := strings.TrimSpace(s[m[2]:m[3]])
		switch k.name {
		case "size":
			g.Size, g.HasSize = text, true
		case "pulls":
			g.Pulls, g.HasPulls = text, true
		case "stars":
			g.Stars, g.HasStars = text, true
		}
		firsts[k.name], ends[m[1]] = s[m[0]:m[1]], s[m[0]:m[1]]
		for i := m[0]; i < m[1]; i++ {
			used[i] = true
		}
	}
	g.Ignored = ignoredConstraints(s, used, firsts, ends)
	return g
}

// constraintKeys are the three searches of §8.3, in the order of §8.4.
var constraintKeys = []struct {
	name   string
	search func() *regexp.Regexp
}{{"size", sizeSearch}, {"pulls", pullsSearch}, {"stars", starsSearch}}

// isConstraintSep reports whether c separates the parts of a --constraints
// value: white space, or a comma or semicolon, which people write between
// constraints although the reference needs none.
func isConstraintSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',' || c == ';'
}

// ignoredConstraints returns a warning for each part of s that no search
// used (used marks the bytes of the matches; firsts holds each key's match,
// ends the matches by the offset where they end).
// The text between the matches is cut at the separators, and again where a
// key starts a word, so that "size<1.5GB stars>x" gives two parts and
// "size <= 99 MB" one.
func ignoredConstraints(s string, used []bool, firsts map[string]string, ends map[int]string) []string {
	var out []string
	var emit func(part, after string)
	emit = func(part, after string) {
		part = strings.TrimFunc(part, func(r rune) bool { return r < 0x80 && isConstraintSep(byte(r)) })
		if part == "" {
			return
		}
		if after != "" {
			// Glued to a match: "pulls>1.5" reads as pulls>1.
			out = append(out, msgConstraintIgnored(part, expectedWholeNumbers(after)))
			return
		}
		// A well-formed constraint of a key already used ("stars>5" after
		// "stars>1") is one part, and what follows it another.
		for _, k := range constraintKeys {
			first, ok := firsts[k.name]
			loc := k.search().FindStringIndex(part)
			if ok && loc != nil && loc[0] == 0 && strings.HasPrefix(part, k.name) {
				out = append(out, msgConstraintIgnored(part[:loc[1]], expectedOneConstraint(k.name, first)))
				emit(part[loc[1]:], "")
				return
			}
		}
		out = append(out, msgConstraintIgnored(part, constraintExpected(part)))
	}
	for i := 0; i < len(s); {
		if used[i] {
			i++
			continue
		}
		j := i
		for j < len(s) && !used[j] {
			j++
		}
		seg, start := s[i:j], 0
		after := ""
		if !isConstraintSep(seg[0]) {
			after = ends[i]
		}
		for k := 1; k < len(seg); k++ {
			if isConstraintSep(seg[k-1]) && startsWithKey(seg[k:]) {
				emit(seg[start:k], after)
				start, after = k, ""
			}
		}
		emit(seg[start:], after)
		i = j
	}
	return out
}

func startsWithKey(s string) bool {
	for _, k := range constraintKeys {
		if strings.HasPrefix(s, k.name) {
			return true
		}
	}
	return false
}

// constraintExpected says what an ignored part should have looked like.
func constraintExpected(part string) string {
	for _, k := range constraintKeys {
		if strings.HasPrefix(part, k.name) {
			return expectedConstraint(k.name)
		}
	}
	return expectedConstraint("")
}

// parseOp splits the operator off a trimmed constraint text.
func parseOp(t string) (Op, string, bool) {
	for _, c := range []struct {
		prefix string
		op     Op
	}{{">=", OpGTE}, {">", OpGT}, {"<=", OpLTE}, {"<", OpLT}} {
		if rest, ok := strings.CutPrefix(t, c.prefix); ok {
			return c.op, rest, true
		}
	}
	return 0, "", false
}

// sizeUnits are the size units and their factors, checked in this order.
var sizeUnits = []struct {
	suffix string
	factor int64
}{{"bytes", 1}, {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}}

// apply adds the global constraints to a unit's query and returns the
// unit's messages for them, in the order size, pulls, stars (§8.4).
func (g GlobalConstraints) apply(q *Query) []string {
	var msgs []string
	if g.HasSize {
		if b, msg, ok := parseSize(g.Size); ok {
			q.setBound(b)
		} else {
			msgs = append(msgs, msg)
		}
	}
	for _, c := range []struct {
		has   bool
		text  string
		field Field
	}{{g.HasPulls, g.Pulls, FieldPulls}, {g.HasStars, g.Stars, FieldStars}} {
		if !c.has {
			continue
		}
		op, rest, ok := parseOp(c.text)
		if !ok {
			msgs = append(msgs, msgOperator(c.text))
			continue
		}
		n, ok := pyInt(rest)
		if !ok {
			msgs = append(msgs, msgOperator(c.text))
			continue
		}
		q.setBound(Bound{c.field, op, n})
	}
	return msgs
}

// parseSize parses a size constraint text such as "<=99MB".
func parseSize(t string) (Bound, string, bool) {
	op, rest, ok := parseOp(t)
	if !ok {
		return Bound{}, msgOperator(t), false
	}
	rest = strings.ToLower(rest)
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(rest, u.suffix)
		if !ok {
			continue
		}
		// Improvement (completion.md §8.3): a number that is not an
		// integer ("5XMB") is a unit error, where the reference crashes.
		n, ok := pyInt(num)
		if !ok || n > (1<<62)/u.factor {
			return Bound{}, msgUnit(rest), false
		}
		return Bound{FieldSize, op, n * u.factor}, "", true
	}
	return Bound{}, msgUnit(rest), false
}

// pyInt reads a decimal integer as Python's int() does for these texts:
// surrounding whitespace is allowed.
func pyInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "_") {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
