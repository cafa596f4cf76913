package solver

import "fmt"

// Packed is a clause list without a slice header per clause: a header (24
// bytes) weighs more than the two or three literals of most clauses that a
// large template encodes to. Clause i lies in chunk Refs[i]>>16 from word
// Refs[i]&0xffff up to the next clause's start in that chunk, or the
// chunk's end. The clauses lie in order, and every word of a chunk is in
// one: each chunk's first clause starts at word 0 (the passes over all
// clauses read the chunks' words in place; the entry points check the
// shape). encode.Packed has the same shape.
type Packed struct {
	Chunks [][]int
	Refs   []uint32
	// Sorted is the producer's word, taken from each clause as it was
	// stored, that every clause is sorted: non-empty, its variables
	// strictly ascending, none above MaxVar. The solver then takes the
	// packed clauses as sorted, where MaxVar is within the CNF's
	// variables, without a pass over every literal to find that out
	// (with propagation's uncleared arrays, 3.7% of the instructions of
	// pruning-500 runs); test binaries read them all the same and
	// report a false word.
	Sorted bool
	MaxVar int
}

// Len returns the number of clauses.
func (p Packed) Len() int { return len(p.Refs) }

// At returns clause i, a slice of its chunk that must not be modified.
func (p Packed) At(i int) []int { return clauseOf(p.Chunks, p.Refs, i) }

// clauseOf is At. It takes the slices rather than a Packed, which a call
// through the value receiver copied every time: a fifth of the
// instructions of a call of clauseSet.at.
func clauseOf(chunks [][]int, refs []uint32, i int) []int {
	r := refs[i]
	ch := chunks[r>>16]
	end := len(ch)
	if i+1 < len(refs) && refs[i+1]>>16 == r>>16 {
		end = int(refs[i+1] & 0xffff)
	}
	return ch[r&0xffff : end : end]
}

// check reports where p is not of the shape its type describes: the
// clauses in order, within their chunks, and each chunk with words
// starting with one.
func (p Packed) check() error {
	// The clause before's reference and its chunk k; a clause after it
	// in chunk k has a reference from prev up to limit (none before the
	// first clause).
	prev, limit, k := uint32(1), uint32(0), -1
	for i, r := range p.Refs {
		if r >= prev && r <= limit {
			prev = r
			continue
		}
		// The clause starts a chunk after k: word 0 of the next chunk
		// with words, or of an empty one before it.
		rk, w := int(r>>16), int(r&0xffff)
		next := k + 1
		for next < rk && next < len(p.Chunks) && len(p.Chunks[next]) == 0 {
			next++
		}
		switch {
		case rk >= len(p.Chunks) || w > len(p.Chunks[rk]):
			return fmt.Errorf("solver: packed clause %d: reference %#x out of range", i, r)
		case rk != next || w != 0:
			return fmt.Errorf("solver: packed clause %d: not where the clause before it ends", i)
		}
		prev, k = r, rk
		limit = uint32(rk)<<16 | uint32(min(len(p.Chunks[rk]), 0xffff))
	}
	for next := k + 1; next < len(p.Chunks); next++ {
		if len(p.Chunks[next]) > 0 {
			return fmt.Errorf("solver: packed chunk %d holds words of no clause", next)
		}
	}
	return nil
}

// List returns the clauses as slices, one header each.
func (p Packed) List() [][]int {
	s := clauseSet{packed: p}
	return s.slices()
}

// clauseSet is a CNF's clauses: its list, then its packed ones. Unit
// propagation reads them where they lie, so that a packed list gets a
// slice header only for the clauses that outlive it.
type clauseSet struct {
	list   [][]int
	packed Packed
	// sorted says that every clause is in residual form under no
	// assignment (checkedSet).
	sorted bool
}

func (c *CNF) set() clauseSet { return clauseSet{list: c.Clauses, packed: c.Packed} }

// all returns every clause of c as a slice: Clauses itself where nothing is
// packed.
func (c *CNF) all() [][]int {
	s := c.set()
	return s.slices()
}

func (s *clauseSet) len() int { return len(s.list) + s.packed.Len() }

func (s *clauseSet) at(i int) []int {
	if i < len(s.list) {
		return s.list[i]
	}
	return clauseOf(s.packed.Chunks, s.packed.Refs, i-len(s.list))
}

// slices returns the clauses as slices: the list itself where nothing is
// packed.
func (s *clauseSet) slices() [][]int {
	if s.packed.Len() == 0 {
		return s.list
	}
	out := make([][]int, s.len())
	for i := range out {
		out[i] = s.at(i)
	}
	return out
}
