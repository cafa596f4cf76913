package expr

import (
	"unsafe"

	"v4t/model/yamlsrc"
)

// resultCache is the Evaluator's result cache, the reference's
// _cached_result property: a hash table keyed by the map value's
// address, where a key is present once the map has been evaluated (with a
// nil result where it was undefined).
//
// A Go map hashes the address at random, so that each evaluation of a new
// expression missed the processor's caches twice (the lookup, then the
// insertion): on the ring at seed 100,000, with 400,000 results, a
// seventh of encoding. A template's expressions are allocated in document
// order and mostly evaluated in that order, so the table keeps the order
// of addresses within each mebibyte of memory (a slot is the address in
// words plus an offset drawn from the mebibyte's number), and successive
// evaluations fall in neighbouring slots. Linear probing, at most half
// full.
type resultCache struct {
	slots []cacheSlot
	n     int
}

type cacheSlot struct {
	k, v *yamlsrc.Value
}

// newResultCache returns a cache with room for about n results.
func newResultCache(n int) resultCache {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return resultCache{slots: make([]cacheSlot, size)}
}

// home is k's first slot in a table of mask+1 slots.
func home(k *yamlsrc.Value, mask uintptr) uintptr {
	a := uint64(uintptr(unsafe.Pointer(k)))
	return uintptr(a>>3+(a>>20)*0x9e3779b97f4a7c15>>20) & mask
}

// get returns the result cached for k, and whether there is one.
func (c *resultCache) get(k *yamlsrc.Value) (*yamlsrc.Value, bool) {
	if c == nil || c.n == 0 {
		return nil, false
	}
	mask := uintptr(len(c.slots) - 1)
	for i := home(k, mask); ; i = (i + 1) & mask {
		switch s := &c.slots[i]; s.k {
		case k:
			return s.v, true
		case nil:
			return nil, false
		}
	}
}

// set caches v as k's result.
func (c *resultCache) set(k, v *yamlsrc.Value) {
	if 2*(c.n+1) > len(c.slots) {
		c.grow()
	}
	mask := uintptr(len(c.slots) - 1)
	for i := home(k, mask); ; i = (i + 1) & mask {
		switch s := &c.slots[i]; s.k {
		case k:
			s.v = v
			return
		case nil:
			s.k, s.v = k, v
			c.n++
			return
		}
	}
}

// grow doubles the table.
func (c *resultCache) grow() {
	old := c.slots
	c.slots = make([]cacheSlot, max(2*len(old), 16))
	c.n = 0
	for _, s := range old {
		if s.k != nil {
			c.set(s.k, s.v)
		}
	}
}
