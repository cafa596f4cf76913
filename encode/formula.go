// Package encode owns the translation of an element graph into CNF
// (variability.md §8; solver.md §5.2): a hash-consed formula DAG with
// constant folding and two-sided Tseitin definitions, stable variable
// numbering (element variables first, in global element order), variable
// names for dumps, and the literals the optimiser and uniqueness checks need.
// It is pure: the same graph and inputs give the same CNF.
package encode

import (
	"encoding/binary"
	"maps"
	"slices"
	"strings"
)

// Lit is a literal: +v or -v for variable v >= 1, or one of the constants.
type Lit int32

// The constants. They never reach the CNF: Materialize turns them into a
// literal of a variable fixed by a unit clause.
const (
	True  Lit = 1<<31 - 1
	False Lit = -True
)

// IsConst reports whether l is True or False.
func (l Lit) IsConst() bool { return l == True || l == False }

// Not negates a literal.
func Not(l Lit) Lit { return -l }

// Builder builds a CNF from formulas. Named variables are never merged with
// anything; anonymous subformulas are hash-consed.
type Builder struct {
	// nv is the number of variables. named holds the named variables
	// outside the lazy block, in ascending order, and byName indexes them
	// (and the lazy block, once indexed). Auxiliary variables have no
	// name, and most variables of a template are in the lazy block or
	// auxiliary, so the names are kept per named variable, not per
	// variable: Names builds the full list when a dump needs it.
	nv     int
	named  []namedVar
	byName map[string]Lit
	// onceIn is the prefix of the names that TermOnce puts in named and
	// not in byName (DeferTerms): find indexes them on the first lookup
	// of a name with that prefix, and onceIn is "" from then on. A logic
	// expression's variable is asked for once per expression, and
	// looking its fresh name up and inserting it missed the caches once
	// the map outgrew them (the ring at seed 100,000: 200,000
	// expressions).
	onceIn string
	// names is the last list Names built, over namesOf named variables.
	names   []string
	namesOf int
	// lazy names a block of variables that are named only on demand
	// (LazyVars): naming and indexing every element's two variables
	// up front costs a string and a map entry each, and most runs never
	// look them up by name.
	lazy lazyNames
	// andCache holds the gates of five or more literals, by their sorted
	// literals as varints; and2Cache those of two, the most common ones
	// (an implication's premise), without building a key string.
	andCache  map[string]Lit
	and2Cache map[[2]Lit]Lit
	// and4Cache holds the gates of three or four literals, by their
	// sorted literals (a fourth 0 for three): a key string each for
	// andCache was the most that encoding still allocated.
	and4Cache map[[4]Lit]Lit
	xorCache  map[[2]Lit]Lit
	// maps is where the builder's maps come from, the maps of the
	// builder before it in its Arrays (nil: allocated).
	maps *builderMaps
	// pairHint sizes and2Cache, made on the first gate of two: templates
	// with such gates make one or two per element (the pruning and wide
	// families: 31,500 for 20,500 and 19,000 elements), and growing the
	// map from empty allocated 45% more than sizing it by the element
	// count does (1.2% of the bytes of a batch of the 256-run space);
	// the ring and choice families make none, so no empty map is sized.
	pairHint int
	constVar Lit
	unsat    bool
	key      []byte
	clauses  clauseStore
	// group is the group of the requirement being added; clauseGroups holds
	// each clause's group (0 for definitions), and unsatGroup the group of
	// the first requirement that folded to false.
	group, unsatGroup int
	clauseGroups      []int
	trackGroups       bool
}

// TrackGroups makes the builder record the group of every clause (for
// explanations); without it only the group of a folded requirement is kept.
func (b *Builder) TrackGroups() { b.trackGroups = true }

// SetGroup sets the group of the requirements added next (0: background).
func (b *Builder) SetGroup(g int) { b.group = g }

// ClauseGroups returns the group of every clause: the group that was set
// when a requirement added it, or 0 for definitions of auxiliary variables.
func (b *Builder) ClauseGroups() []int { return b.clauseGroups }

// UnsatGroup returns the group of the first requirement that folded to
// false (0 if none or if it was added in the background group).
func (b *Builder) UnsatGroup() int { return b.unsatGroup }

// ExpectPairs sizes the cache of gates of two literals for about n of them,
// where the builder makes any.
func (b *Builder) ExpectPairs(n int) { b.pairHint = n }

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return NewBuilderSize(0) }

// NewBuilderSize returns an empty builder with room for about named
// variables looked up by name.
func NewBuilderSize(named int) *Builder { return newBuilder(named, named, nil) }

// newBuilder is NewBuilderSize, with room in the name index for indexed of
// the named variables (the others being TermOnce's), the builder's
// clauses stored in arrays from a and its maps taken from a where no
// other builder since a's last Reset took them (nil: allocated).
func newBuilder(named, indexed int, a *Arrays) *Builder {
	b := &Builder{}
	b.clauses.use(a)
	if a != nil && !a.maps.taken {
		m := &a.maps
		m.taken = true
		b.maps = m
		b.byName = m.byName.take(indexed)
		b.andCache = m.andCache.take(0)
		b.and4Cache = m.and4Cache.take(0)
		b.xorCache = m.xorCache.take(0)
		b.named = a.named.Make(named)[:0]
		return b
	}
	b.named = make([]namedVar, 0, named)
	b.byName = make(map[string]Lit, indexed)
	b.andCache, b.and4Cache, b.xorCache = map[string]Lit{}, map[[4]Lit]Lit{}, map[[2]Lit]Lit{}
	return b
}

// namedVar is a named variable outside the lazy block.
type namedVar struct {
	v    Lit
	name string
}

// lazyNames is a block of variables named on demand.
type lazyNames struct {
	base, n int
	name    func(i int) string
	// prefix, where not empty, names a second half of the block
	// (LazyPairs): variable base+n+i is prefix+name(i).
	prefix string
	// mayBe reports whether a name could be one of the block's; names it
	// rejects are looked up without indexing the block.
	mayBe   func(name string) bool
	indexed bool
}

// NumVars returns the number of variables.
func (b *Builder) NumVars() int { return b.nv }

// Names returns the variable names indexed by variable (index 0 unused;
// auxiliary variables have empty names).
func (b *Builder) Names() []string {
	if len(b.names) == b.nv+1 && b.namesOf == len(b.named) {
		return b.names
	}
	names := make([]string, b.nv+1)
	lz := &b.lazy
	for i := range lz.n {
		names[lz.base+i] = lz.name(i)
		if lz.prefix != "" {
			names[lz.base+lz.n+i] = lz.prefix + names[lz.base+i]
		}
	}
	for _, n := range b.named {
		names[n.v] = n.name
	}
	b.names, b.namesOf = names, len(b.named)
	return names
}

// name returns the name of a variable outside the lazy block, "" for an
// auxiliary one. k is a cursor into the named variables, for a walk over
// variables in ascending order: it starts at 0, and name advances it.
func (b *Builder) name(v Lit, k *int) string {
	for *k < len(b.named) && b.named[*k].v < v {
		*k++
	}
	if *k < len(b.named) && b.named[*k].v == v {
		return b.named[*k].name
	}
	return ""
}

// LazyVars allocates n variables whose names are name(0), ..., name(n-1),
// computed only when Names, Var or Lookup needs them, and returns the first.
// mayBe must accept every one of those names; Var and Lookup index the block
// the first time they see a name it accepts and that is not yet known. One
// block per builder.
func (b *Builder) LazyVars(n int, name func(i int) string, mayBe func(string) bool) Lit {
	if b.lazy.n > 0 {
		panic("encode: LazyVars called twice")
	}
	first := Lit(b.nv + 1)
	b.nv += n
	b.lazy = lazyNames{base: int(first), n: n, name: name, mayBe: mayBe}
	return first
}

// LazyPairs is LazyVars for 2n variables, named name(0), ..., name(n-1)
// and then prefix+name(0), ..., prefix+name(n-1): the second names are
// looked up through the first, so that indexing the block makes and
// hashes n names, not 2n (an element's variable and its manual
// variable: every manual name was a string made for the index alone).
// mayBe must accept all 2n names, and no name(i) may begin with prefix.
func (b *Builder) LazyPairs(n int, name func(i int) string, prefix string, mayBe func(string) bool) Lit {
	first := b.LazyVars(2*n, name, mayBe)
	b.lazy.n, b.lazy.prefix = n, prefix
	return first
}

// find looks a name up, indexing the lazy block when the name could be in it.
func (b *Builder) find(name string) (Lit, bool) {
	b.indexOnce(name)
	if l, ok := b.byName[name]; ok {
		return l, true
	}
	lz := &b.lazy
	if lz.n == 0 || (!lz.indexed && !lz.mayBe(name)) {
		return 0, false
	}
	if !lz.indexed {
		lz.indexed = true
		// One map at the final size: growing the index name by name
		// rehashed it a dozen times, an eighth of a large encoding.
		var grown map[string]Lit
		if b.maps != nil {
			grown = b.maps.index.take(len(b.byName) + lz.n)
		} else {
			grown = make(map[string]Lit, len(b.byName)+lz.n)
		}
		maps.Copy(grown, b.byName)
		b.byName = grown
		for i := range lz.n {
			v := lz.base + i
			nm := lz.name(i)
			if _, dup := b.byName[nm]; !dup {
				b.byName[nm] = Lit(v)
			}
		}
		if l, ok := b.byName[name]; ok {
			return l, true
		}
	}
	if lz.prefix == "" {
		return 0, false
	}
	rest, ok := strings.CutPrefix(name, lz.prefix)
	if !ok {
		return 0, false
	}
	// The variable of rest, where it is one of the first half's.
	if l, ok := b.byName[rest]; ok && int(l) >= lz.base && int(l) < lz.base+lz.n {
		return l + Lit(lz.n), true
	}
	return 0, false
}

// Clauses returns the clauses. The list stays valid while clauses are
// added, but holds only the clauses added before the call.
func (b *Builder) Clauses() [][]int { return b.clauses.list() }

// Packed returns the clauses added so far without a header each.
func (b *Builder) Packed() Packed { return b.clauses.packed() }

// Unsat reports whether a requirement folded to false.
func (b *Builder) Unsat() bool { return b.unsat }

// Var returns the named variable, creating it on first use.
func (b *Builder) Var(name string) Lit {
	if l, ok := b.find(name); ok {
		return l
	}
	l := b.aux()
	b.named = append(b.named, namedVar{l, name})
	b.byName[name] = l
	return l
}

// DeferTerms has TermOnce name its variables, whose names all start with
// prefix, without indexing them, until a name with prefix is looked up.
// It must come before any variable with such a name is made.
func (b *Builder) DeferTerms(prefix string) { b.onceIn = prefix }

// TermOnce is Var(name) for a caller that asks for each name at most once,
// as the encoder does for each logic expression. While deferring (see
// DeferTerms) the variable is named but not indexed: every variable with
// a name of the deferred prefix was made by TermOnce, since a lookup of
// such a name ends the deferring (find indexes them then).
func (b *Builder) TermOnce(name string) Lit {
	lz := &b.lazy
	if b.onceIn == "" || !strings.HasPrefix(name, b.onceIn) || (lz.n > 0 && lz.mayBe(name)) {
		return b.Var(name)
	}
	l := b.aux()
	b.named = append(b.named, namedVar{l, name})
	return l
}

// indexOnce ends the deferring of DeferTerms before a lookup of name with
// the deferred prefix, putting the variables TermOnce made in byName:
// the named variables with that prefix, since none was made otherwise
// while deferring.
func (b *Builder) indexOnce(name string) {
	if b.onceIn == "" || !strings.HasPrefix(name, b.onceIn) {
		return
	}
	for _, n := range b.named {
		if strings.HasPrefix(n.name, b.onceIn) {
			b.byName[n.name] = n.v
		}
	}
	b.onceIn = ""
}

// Lookup returns the named variable if it exists.
func (b *Builder) Lookup(name string) (Lit, bool) { return b.find(name) }

func (b *Builder) aux() Lit {
	b.nv++
	return Lit(b.nv)
}

func (b *Builder) add(c ...Lit) { b.addTo(0, c...) }

func (b *Builder) require(c ...Lit) { b.addTo(b.group, c...) }

func (b *Builder) addTo(group int, c ...Lit) {
	if b.trackGroups {
		b.clauseGroups = append(b.clauseGroups, group)
	}
	b.clauses.add(c)
}

// Materialize returns a non-constant literal equivalent to l.
func (b *Builder) Materialize(l Lit) Lit {
	if !l.IsConst() {
		return l
	}
	if b.constVar == 0 {
		b.constVar = b.aux()
		b.named = append(b.named, namedVar{b.constVar, "const.true"})
		b.add(b.constVar)
	}
	if l == True {
		return b.constVar
	}
	return -b.constVar
}

// Require adds l as a hard constraint.
func (b *Builder) Require(l Lit) {
	switch l {
	case True:
	case False:
		b.fold()
	default:
		b.require(l)
	}
}

func (b *Builder) fold() {
	if !b.unsat {
		b.unsatGroup = b.group
	}
	b.unsat = true
}

// RequireEquiv adds a <-> c as a hard constraint.
func (b *Builder) RequireEquiv(a, c Lit) {
	switch {
	case a.IsConst():
		if a == True {
			b.Require(c)
		} else {
			b.Require(-c)
		}
	case c.IsConst():
		if c == True {
			b.Require(a)
		} else {
			b.Require(-a)
		}
	case a == c:
	case a == -c:
		b.fold()
	default:
		b.require(-a, c)
		b.require(a, -c)
	}
}

// And returns a literal equivalent to the conjunction of ls.
func (b *Builder) And(ls ...Lit) Lit {
	switch len(ls) {
	case 0:
		return True
	case 2:
		return b.and2(ls[0], ls[1])
	}
	kids := make([]Lit, 0, len(ls))
	for _, l := range ls {
		switch l {
		case True:
			continue
		case False:
			return False
		}
		kids = append(kids, l)
	}
	slices.Sort(kids)
	kids = slices.Compact(kids)
	// x and -x: after sorting by value, -x sorts before x; check via a set
	// only when small sets are not enough.
	if len(kids) > 1 {
		if hasComplement(kids) {
			return False
		}
	}
	switch len(kids) {
	case 0:
		return True
	case 1:
		return kids[0]
	}
	if len(kids) == 2 {
		return b.gate2(kids[0], kids[1])
	}
	var v Lit
	if len(kids) <= 4 {
		var key [4]Lit
		copy(key[:], kids)
		if v, ok := b.and4Cache[key]; ok {
			return v
		}
		v = b.aux()
		b.and4Cache[key] = v
	} else {
		b.key = b.key[:0]
		for _, k := range kids {
			b.key = binary.AppendVarint(b.key, int64(k))
		}
		if v, ok := b.andCache[string(b.key)]; ok {
			return v
		}
		v = b.aux()
		b.andCache[string(b.key)] = v
	}
	long := make([]Lit, 0, len(kids)+1)
	long = append(long, v)
	for _, k := range kids {
		b.add(-v, k)
		long = append(long, -k)
	}
	b.add(long...)
	return v
}

// and2 is And of two literals, without the general case's list: most
// gates the encoder makes have two inputs (an implication, a condition
// and its element's container), and the list, its sorting and its checks
// were half of each such And. It gives what the general case gives,
// constants and repeats folded alike (TestAnd2).
func (b *Builder) and2(x, y Lit) Lit {
	switch {
	case x == False || y == False:
		return False
	case x == True:
		return y
	case y == True:
		return x
	case x == y:
		return x
	case x == -y:
		return False
	case x > y:
		x, y = y, x
	}
	return b.gate2(x, y)
}

// gate2 returns the gate of the non-constant literals lo < hi, of
// different variables, made on first use: a new variable v with the
// clauses of v <-> lo and hi.
func (b *Builder) gate2(lo, hi Lit) Lit {
	pair := [2]Lit{lo, hi}
	if v, ok := b.and2Cache[pair]; ok {
		return v
	}
	v := b.aux()
	if b.and2Cache == nil && b.maps != nil {
		b.and2Cache = b.maps.and2Cache.take(b.pairHint)
	} else if b.and2Cache == nil {
		b.and2Cache = make(map[[2]Lit]Lit, b.pairHint)
	}
	b.and2Cache[pair] = v
	b.add(-v, lo)
	b.add(-v, hi)
	b.add(v, -lo, -hi)
	return v
}

func hasComplement(sorted []Lit) bool {
	// Negative literals come first; for each negative one, binary-search
	// its complement among the positive ones.
	for _, k := range sorted {
		if k > 0 {
			break
		}
		if _, found := slices.BinarySearch(sorted, -k); found {
			return true
		}
	}
	return false
}

// Or returns a literal equivalent to the disjunction of ls.
func (b *Builder) Or(ls ...Lit) Lit {
	if len(ls) == 2 {
		return -b.and2(-ls[0], -ls[1])
	}
	neg := make([]Lit, len(ls))
	for i, l := range ls {
		neg[i] = -l
	}
	return -b.And(neg...)
}

// Implies returns a -> c.
func (b *Builder) Implies(a, c Lit) Lit { return b.Or(-a, c) }

// Equiv returns a <-> c as a formula.
func (b *Builder) Equiv(a, c Lit) Lit { return -b.Xor(a, c) }

// Xor returns the parity (odd number true) of ls; xor() is false.
func (b *Builder) Xor(ls ...Lit) Lit {
	neg := false
	kids := make([]Lit, 0, len(ls))
	for _, l := range ls {
		switch l {
		case True:
			neg = !neg
			continue
		case False:
			continue
		}
		kids = append(kids, l)
	}
	var r Lit
	if len(kids) == 0 {
		r = False
	} else {
		r = b.xorTree(kids)
	}
	if neg {
		return -r
	}
	return r
}

func (b *Builder) xorTree(ls []Lit) Lit {
	if len(ls) == 1 {
		return ls[0]
	}
	mid := len(ls) / 2
	return b.xor2(b.xorTree(ls[:mid]), b.xorTree(ls[mid:]))
}

func (b *Builder) xor2(x, y Lit) Lit {
	switch {
	case x == True:
		return -y
	case x == False:
		return y
	case y == True:
		return -x
	case y == False:
		return x
	case x == y:
		return False
	case x == -y:
		return True
	}
	neg := false
	if x < 0 {
		x, neg = -x, !neg
	}
	if y < 0 {
		y, neg = -y, !neg
	}
	if x > y {
		x, y = y, x
	}
	v, ok := b.xorCache[[2]Lit{x, y}]
	if !ok {
		v = b.aux()
		b.xorCache[[2]Lit{x, y}] = v
		b.add(-v, x, y)
		b.add(-v, -x, -y)
		b.add(v, -x, y)
		b.add(v, x, -y)
	}
	if neg {
		return -v
	}
	return v
}

// Amo returns "at most one of ls is true"; true for at most one operand.
func (b *Builder) Amo(ls ...Lit) Lit {
	kids := make([]Lit, 0, len(ls))
	trues := 0
	for _, l := range ls {
		switch l {
		case False:
			continue
		case True:
			trues++
			continue
		}
		kids = append(kids, l)
	}
	switch {
	case trues >= 2:
		return False
	case trues == 1:
		neg := make([]Lit, len(kids))
		for i, k := range kids {
			neg[i] = -k
		}
		return b.And(neg...)
	case len(kids) <= 1:
		return True
	case len(kids) <= 5:
		var pairs []Lit
		for i := 0; i < len(kids); i++ {
			for j := i + 1; j < len(kids); j++ {
				pairs = append(pairs, b.Or(-kids[i], -kids[j]))
			}
		}
		return b.And(pairs...)
	}
	// Sequential counter: s_i = "some of the first i", d_i = a_i and s_{i-1}.
	s := kids[0]
	viol := make([]Lit, 0, len(kids)-1)
	for _, a := range kids[1:] {
		viol = append(viol, b.And(a, s))
		s = b.Or(s, a)
	}
	return -b.Or(viol...)
}

// Exo returns "exactly one of ls is true"; false for no operand.
func (b *Builder) Exo(ls ...Lit) Lit {
	switch len(ls) {
	case 0:
		return False
	case 1:
		return ls[0]
	}
	return b.And(b.Or(ls...), b.Amo(ls...))
}
