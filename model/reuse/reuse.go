// Package reuse owns the arrays that one run hands on to the next: a batch
// worker resolves run after run, each allocating the same arrays of values,
// elements and clauses and dropping them all at its end, so that the
// collector's work and the fresh memory of a batch grow with the bytes its
// runs allocate. An Arrays keeps the arrays of the run before and hands
// them out again, zeroed, where they are large enough; the runs of one
// worker take their memory warm from the last run instead of fresh from
// the heap.
//
// An array is zeroed when it is handed out again, not when the run that
// used it ends: zeroed at the end of a run, a large array is out of the
// cache again when the next run writes it, so each of its cache lines
// went to memory twice (zeroing there was a third of the last-level
// write misses of 8 runs at pruning seed 500 in cachegrind's model of a
// 2 MiB cache; zeroing here, a fifth fewer). An array that the next run
// does not ask for is zeroed at that run's end, so that the pointers a
// free array still holds keep what they point to, a template the batch
// has let go among it, alive for one run at most.
//
// The rule that makes it safe is the caller's: after Reset, nothing may
// read or write an array that Make returned before it. A nil *Arrays keeps
// nothing and Make is make, so code that allocates through one works the
// same without.
package reuse

import (
	"math/bits"
	"unsafe"
)

// classes is the number of size classes: class c holds the arrays whose
// capacity has c+1 significant bits.
const classes = 48

// Arrays hands out zeroed slices of T, taking each from the arrays of the
// run before (Reset) where one is large enough. Its zero value is ready
// to use; it is not safe for concurrent use (one per worker).
type Arrays[T any] struct {
	// free holds the arrays not handed out since Reset, by size class of
	// their capacity; used the ones handed out.
	free [classes][]freeArray[T]
	used [][]T
	// held is the number of Ts in free and used.
	held int
}

// freeArray is an array to hand out, dirty where the run before used it
// and nothing has zeroed it since.
type freeArray[T any] struct {
	s     []T
	dirty bool
}

// class is the size class of a capacity n ≥ 1.
func class(n int) int { return bits.Len(uint(n)) - 1 }

// Make returns a zeroed slice of length and capacity n: appending to it
// copies it rather than writing into a neighbour.
func (a *Arrays[T]) Make(n int) []T {
	if a == nil || n == 0 {
		return make([]T, n)
	}
	c := class(n)
	s := a.take(c, n)
	if s == nil && c+1 < classes {
		// Every array of the next class holds n.
		s = a.take(c+1, n)
	}
	if s == nil {
		s = make([]T, n)
		a.held += n
	}
	s = s[:n:n]
	a.used = append(a.used, s)
	return s
}

// keepIdle is how many bytes of arrays that no run asked for Reset keeps
// at least.
const keepIdle = 16 << 20

// lookBack is how many arrays of a class take looks at for one that holds
// n: the runs of one template ask for the same sizes, so the array that
// fits is usually the last one put back.
const lookBack = 4

// take removes from class c an array whose capacity is at least n, zeroed,
// nil where none of the last lookBack is.
func (a *Arrays[T]) take(c, n int) []T {
	list := a.free[c]
	for i := len(list) - 1; i >= max(0, len(list)-lookBack); i-- {
		if f := list[i]; cap(f.s) >= n {
			last := len(list) - 1
			list[i] = list[last]
			list[last] = freeArray[T]{}
			a.free[c] = list[:last]
			s := f.s[:cap(f.s)]
			if f.dirty {
				// The whole array, not only the n entries handed out:
				// the collector reads all of it.
				clear(s)
			}
			return s
		}
	}
	return nil
}

// Reset makes every array handed out since the last Reset available again.
// Nothing may use those arrays afterwards.
//
// The arrays that no run asked for since the last Reset are let go where
// they hold more than the run used and more than keepIdle bytes: a
// worker's small runs after a large one would otherwise keep the large
// one's memory, which the collector reads in every cycle. Smaller idle
// arrays stay, since the runs of one template ask for sizes that differ a
// little from run to run (letting every idle array go cost the generated
// space of benchmarks/scaling.sh two thirds more collections).
func (a *Arrays[T]) Reset() {
	if a == nil {
		return
	}
	used := 0
	for _, s := range a.used {
		used += cap(s)
	}
	var zero T
	if idle := (a.held - used) * int(unsafe.Sizeof(zero)); idle > keepIdle && a.held-used > used {
		for c, list := range a.free {
			for i, f := range list {
				a.held -= cap(f.s)
				list[i] = freeArray[T]{}
			}
			a.free[c] = list[:0]
		}
	}
	for _, list := range a.free {
		// Idle for a whole run: zeroed now, so that what its pointers
		// hold can go (the type's doc).
		for i := range list {
			if f := &list[i]; f.dirty {
				clear(f.s[:cap(f.s)])
				f.dirty = false
			}
		}
	}
	for i, s := range a.used {
		s = s[:cap(s)]
		c := class(cap(s))
		a.free[c] = append(a.free[c], freeArray[T]{s, true})
		a.used[i] = nil
	}
	a.used = a.used[:0]
}

// Held is the number of Ts the arrays hold, handed out or not.
func (a *Arrays[T]) Held() int {
	if a == nil {
		return 0
	}
	return a.held
}

// Slab hands out zero Ts one at a time, cut from an array of many: one
// allocation for many small values. Each array is twice as long as the
// one before, from First up to Most Ts (at least 1), so that a small run
// allocates little; it comes from From where that is set.
type Slab[T any] struct {
	From        *Arrays[T]
	First, Most int
	free        []T
	next        int
}

// New returns a zero T, cut from the slab's array or from a new one.
func (s *Slab[T]) New() *T {
	if len(s.free) == 0 {
		s.grow()
	}
	x := &s.free[0]
	s.free = s.free[1:]
	return x
}

// grow is New's new array, kept out of line so that New inlines.
//
//go:noinline
func (s *Slab[T]) grow() {
	s.next = min(max(2*s.next, s.First, 1), max(s.Most, 1))
	s.free = s.From.Make(s.next)
}

// Reset forgets the array being cut, for a slab that outlives the run
// whose arrays an Arrays.Reset takes back.
func (s *Slab[T]) Reset() { s.free, s.next = nil, 0 }

// MaxLists is the longest array that Lists cuts lists from.
const MaxLists = 512

// Lists cuts lists of known length from shared arrays, for the many short
// lists of a run (a graph's condition, type and relation lists, one or
// two entries each, were three quarters of a build's allocations). The
// arrays double from 4 up to MaxLists entries, so that small runs
// allocate little; a longer list gets an array of its own. A list's
// capacity is its length, so that appending to one copies it rather than
// writing into the next. The arrays come from From (nil: allocated).
type Lists[T any] struct {
	From *Arrays[T]
	free []T
	next int
}

// Cut returns a list of n zero entries; nil for none, as append gives.
func (s *Lists[T]) Cut(n int) []T {
	// n is 0 or longer than what is left: refill (0 gives nil).
	if uint(n-1) >= uint(len(s.free)) {
		return s.refill(n)
	}
	l := s.free[:n:n]
	s.free = s.free[n:]
	return l
}

// refill is Cut where the array is short: a new array, or an array of its
// own for a long list, or nil for none. Out of line, so that Cut inlines.
//
//go:noinline
func (s *Lists[T]) refill(n int) []T {
	if n == 0 {
		return nil
	}
	if n > MaxLists/8 {
		return s.From.Make(n)
	}
	s.next = min(max(2*s.next, 4, n), MaxLists)
	s.free = s.From.Make(s.next)
	l := s.free[:n:n]
	s.free = s.free[n:]
	return l
}

// Reset forgets the array being cut, for Lists that outlive the run whose
// arrays an Arrays.Reset takes back.
func (s *Lists[T]) Reset() { s.free, s.next = nil, 0 }
