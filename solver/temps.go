package solver

import "sync"

// temps are the arrays that one propagation, or one pass over all the
// variables of a residual (split, unfixedOnce, preferences), uses and
// drops: the occurrence lists, the clause counters, the queue and the
// variables' marks, a tenth of the bytes a batch of small templates
// allocated, each run's propagations taking theirs fresh from the heap
// for the collector to take back. They come from a pool instead, so that
// the passes of one goroutine (one batch worker) use the same memory,
// warm, one after the other; a take while another set is out gets a set
// of its own.
type temps struct {
	count, start, occ, queue reused[int32]
	marks                    reused[uint8]
}

var tempPool = sync.Pool{New: func() any { return new(temps) }}

// takeTemps returns a set of arrays that nothing else uses until give.
func takeTemps() *temps { return tempPool.Get().(*temps) }

// give hands t back: nothing may use its arrays afterwards.
func (t *temps) give() { tempPool.Put(t) }

// reused is one reused array.
type reused[T any] []T

// take returns n zeroed entries of b's array, which grows where it is
// shorter; the entries are b's until the next take. A new array is not
// cleared again: its pages, fresh from the kernel, stay untouched until
// written (a single resolve, whose collection is off, keeps every
// array it drops).
func (b *reused[T]) take(n int) []T {
	if cap(*b) < n {
		*b = make([]T, n)
		return *b
	}
	s := (*b)[:n]
	clear(s)
	return s
}

// filled returns n entries of b's array, which grows where it is shorter,
// as they are: for an array that the caller writes in full before it
// reads any of it, which take would clear for nothing (the occurrence
// lists and clause counters of one propagation of pruning-500 are 2 MiB,
// cleared at every propagation and then overwritten).
func (b *reused[T]) filled(n int) []T {
	if cap(*b) < n {
		*b = make([]T, n)
	}
	return (*b)[:n]
}

// room returns b's array empty, with room for n entries: for a queue,
// which is written before it is read.
func (b *reused[T]) room(n int) []T {
	if cap(*b) < n {
		*b = make([]T, 0, n)
	}
	return (*b)[:0]
}
