package encode

import (
	"math/bits"
	"slices"

	"v4t/model/reuse"
)

// clauseStore holds the builder's clauses. Their literals go into chunks,
// one allocation per chunk instead of one per clause, and a chunk is never
// copied, so the clauses can be handed out as slices of it. A bit per word
// marks where each clause starts.
//
// The clause list itself, one slice header (24 bytes) per clause, is built
// only when asked for (list), so that it is allocated at its exact size:
// grown by doubling clause by clause, it allocated 17 MB on the ring at
// seed 10,000, twice its final size and half of what encoding allocated.
// Encode hands the clauses over packed (packed), four bytes per clause; only
// the builder's other users ask for the list.
type clauseStore struct {
	// lits, starts and refs are where the chunks and the packed list's
	// references come from (nil: allocated; use).
	lits   *reuse.Arrays[int]
	starts *reuse.Arrays[uint64]
	refs   *reuse.Arrays[uint32]
	// cur is the chunk being filled, full the chunks before it.
	cur  chunk
	full []chunk
	// n is the number of clauses; built holds the first ones as slices,
	// and (next, pos) is where the first clause not in built starts: the
	// chunk (an index into full, len(full) for cur) and the word.
	n     int
	built [][]int
	next  int
	pos   int
	// unsorted tells that a clause has a variable twice (sortClause
	// keeps repeats); maxVar is the largest variable of any clause. The
	// packed list hands both on (Packed.Sorted), read here from the
	// clause just sorted rather than by the solver in another pass over
	// every literal.
	unsorted bool
	maxVar   int
}

type chunk struct {
	lits []int
	// starts has bit i set where a clause starts at lits[i].
	starts []uint64
}

// add appends a clause of at least one literal: an empty clause has no
// word for its start bit (no caller builds one).
func (s *clauseStore) add(c []Lit) {
	if len(c) == 0 {
		panic("encode: empty clause")
	}
	if len(s.cur.lits)+len(c) > cap(s.cur.lits) {
		// Chunks double from 256 literals up to 65,536: a fixed 64K
		// chunk (512 KB) per builder was 40% of the bytes allocated by a
		// batch of small templates, a large allocation each (zeroed, from
		// the heap's central lock), and drove its collections. Starting
		// at 1,024, a run of the motivation space (1,300 to 1,650
		// literals) made 3,072 words of chunks; from 256, 1,792: the
		// batch allocates 4.4% fewer bytes.
		size := max(min(max(2*cap(s.cur.lits), 1<<8), 1<<16), len(c))
		if len(s.cur.lits) > 0 {
			s.full = append(s.full, s.cur)
		}
		s.cur = chunk{lits: s.lits.Make(size)[:0], starts: s.starts.Make((size + 63) / 64)}
	}
	i := len(s.cur.lits)
	s.cur.starts[i/64] |= 1 << (i % 64)
	s.cur.lits = s.cur.lits[:i+len(c)]
	out := s.cur.lits[i:]
	for k, l := range c {
		out[k] = int(l)
	}
	sortClause(out)
	prev := 0
	for _, l := range out {
		v := max(l, -l)
		if v <= prev {
			s.unsorted = true
		}
		prev = v
	}
	s.maxVar = max(s.maxVar, prev)
	s.n++
}

// sortClause puts a clause's literals in the solver's order, by variable
// and the negative literal first. The solver takes a clause in that order
// (without repeated variables) as it is, and copied every other one to
// sort it: three fifths of the clauses, and a tenth to an eighth of the
// bytes a batch run allocated. The order means nothing to a clause, and
// the solver's own copies were sorted the same way, so what it solves is
// the same; the formula dumps (DIMACS, OPB) list each clause's literals in
// that order too. It is solver's litLess, spelt again because encode
// cannot import the solver; the two must agree.
func sortClause(c []int) {
	if len(c) == 2 {
		// Two literals, as most of a gate's clauses have: one
		// comparison, without the loop.
		if compareLits(c[1], c[0]) < 0 {
			c[0], c[1] = c[1], c[0]
		}
		return
	}
	if len(c) > 16 {
		slices.SortFunc(c, compareLits)
		return
	}
	for j := 1; j < len(c); j++ {
		for k := j; k > 0 && compareLits(c[k], c[k-1]) < 0; k-- {
			c[k], c[k-1] = c[k-1], c[k]
		}
	}
}

func compareLits(a, b int) int {
	if va, vb := max(a, -a), max(b, -b); va != vb {
		return va - vb
	}
	return a - b
}

// list returns the clauses. The list stays valid while clauses are added,
// but holds only the clauses added before the call.
func (s *clauseStore) list() [][]int {
	if len(s.built) == s.n {
		return s.built
	}
	s.built = slices.Grow(s.built, s.n-len(s.built))
	for len(s.built) < s.n {
		ch := &s.cur
		if s.next < len(s.full) {
			ch = &s.full[s.next]
		}
		if s.pos == len(ch.lits) {
			s.next, s.pos = s.next+1, 0
			continue
		}
		end := ch.nextStart(s.pos + 1)
		s.built = append(s.built, ch.lits[s.pos:end:end])
		s.pos = end
	}
	return s.built
}

// Packed is a clause list without a slice header per clause: a header
// (24 bytes) weighs more than the two or three literals of most encoded
// clauses (5.7 MB on the ring at seed 10,000). Clause i lies in chunk
// Refs[i]>>16 from word Refs[i]&0xffff up to the next clause's start in
// that chunk, or the chunk's end. solver.Packed has the same shape and
// reads it: the resolver converts one into the other without a copy.
type Packed struct {
	Chunks [][]int
	Refs   []uint32
	// Sorted says that every clause is non-empty with its variables
	// strictly ascending, none above MaxVar (solver.Packed.Sorted).
	Sorted bool
	MaxVar int
}

// packed returns the clauses added so far. A chunk holds at most 1<<16
// words, or one clause longer than that at word 0, so a start fits 16 bits;
// 1<<16 chunks would hold more than 4G literals.
func (s *clauseStore) packed() Packed {
	chunks := make([][]int, 0, len(s.full)+1)
	for _, ch := range s.full {
		chunks = append(chunks, ch.lits)
	}
	if len(s.cur.lits) > 0 {
		chunks = append(chunks, s.cur.lits)
	}
	if len(chunks) > 1<<16 {
		panic("encode: more clause literals than a packed list holds")
	}
	refs := s.refs.Make(s.n)[:0]
	for c, lits := range chunks {
		ch := &s.cur
		if c < len(s.full) {
			ch = &s.full[c]
		}
		for w, word := range ch.starts {
			for word != 0 {
				i := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if i < len(lits) {
					refs = append(refs, uint32(c)<<16|uint32(i))
				}
			}
		}
	}
	return Packed{Chunks: chunks, Refs: refs, Sorted: !s.unsorted, MaxVar: s.maxVar}
}

// nextStart returns the first clause start at or after word i, or the
// chunk's length when no clause starts there yet.
func (ch *chunk) nextStart(i int) int {
	for w := i / 64; w*64 < len(ch.lits); w++ {
		word := ch.starts[w]
		if w == i/64 {
			word &= ^uint64(0) << (i % 64)
		}
		if word != 0 {
			return min(w*64+bits.TrailingZeros64(word), len(ch.lits))
		}
	}
	return len(ch.lits)
}

// Arrays keeps the arrays that an owner's builders store their clauses in,
// from one run to the next (model/reuse): a batch worker encodes its run's
// formula, and drops it, run after run. After Reset, nothing may use a
// builder, or a Result, made with it before.
type Arrays struct {
	literals reuse.Arrays[int]
	begins   reuse.Arrays[uint64]
	packed   reuse.Arrays[uint32]
	// named and maps are one builder's: the first made after Reset.
	named reuse.Arrays[namedVar]
	maps  builderMaps
	// vars holds each element's variables (Encode).
	vars reuse.Arrays[Lit]
}

// intArrays and litArrays are where Encode takes its per-element arrays
// from (nil: allocated).
func (a *Arrays) intArrays() *reuse.Arrays[int] {
	if a == nil {
		return nil
	}
	return &a.literals
}

func (a *Arrays) litArrays() *reuse.Arrays[Lit] {
	if a == nil {
		return nil
	}
	return &a.vars
}

// Reset makes the arrays of the builders made since the last Reset
// available to the next ones.
func (a *Arrays) Reset() {
	if a != nil {
		a.literals.Reset()
		a.begins.Reset()
		a.packed.Reset()
		a.named.Reset()
		a.vars.Reset()
		a.maps.taken = false
	}
}

// builderMaps are the maps of a Builder (its name index and gate caches),
// kept for the next builder: clearing a map keeps its room.
type builderMaps struct {
	taken     bool
	byName    reusedMap[string]
	index     reusedMap[string]
	andCache  reusedMap[string]
	and4Cache reusedMap[[4]Lit]
	and2Cache reusedMap[[2]Lit]
	xorCache  reusedMap[[2]Lit]
}

// reusedMap is a map kept from one builder to the next, with the size it
// was made for.
type reusedMap[K comparable] struct {
	m    map[K]Lit
	size int
}

// take returns the map emptied, or a new one made for size entries where
// the kept one was made for fewer, or where it was made for, or held, many
// more: clearing a map costs its room, which a batch's small runs after a
// large one would pay for.
func (r *reusedMap[K]) take(size int) map[K]Lit {
	if r.m == nil || r.size < size || max(r.size, len(r.m)) > 4*max(size, 4096) {
		r.m, r.size = make(map[K]Lit, size), size
		return r.m
	}
	clear(r.m)
	return r.m
}

// use stores the clauses in a's arrays (nil: allocated), before there are
// any.
func (s *clauseStore) use(a *Arrays) {
	if a != nil {
		s.lits, s.starts, s.refs = &a.literals, &a.begins, &a.packed
	}
}
