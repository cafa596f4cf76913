package yamlsrc

import "hash/maphash"

// keyIndex finds the keys of a large map by hash. It holds only positions
// in the map's keys (an open-addressing table of int32s, linear probing),
// not the keys themselves: the map has them, and a Go map from key to
// position would take six times the memory (a ring template's three
// 20,000-key maps took 2.5 MB of indexes this way). It has the semantics
// of that Go map: set overwrites the position of a key already there.
type keyIndex struct {
	// slots hold a position plus one, zero for an empty slot; their
	// number is a power of two, at least twice the entries.
	slots []int32
	n     int
}

// keySeed seeds the hash of keys; no order depends on it.
var keySeed = maphash.MakeSeed()

func (ix *keyIndex) home(k string) int {
	return int(maphash.String(keySeed, k) & uint64(len(ix.slots)-1))
}

// newKeyIndex returns an empty index with room for n keys.
func newKeyIndex(n int) *keyIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &keyIndex{slots: make([]int32, size)}
}

// get returns the position of k in keys, or -1.
func (ix *keyIndex) get(keys []string, k string) int {
	mask := len(ix.slots) - 1
	for h := ix.home(k); ; h = (h + 1) & mask {
		p := ix.slots[h]
		if p == 0 {
			return -1
		}
		if keys[p-1] == k {
			return int(p - 1)
		}
	}
}

// set records that k, which keys holds at i, is at position i, and
// reports whether k was indexed already.
func (ix *keyIndex) set(keys []string, k string, i int) (replaced bool) {
	mask := len(ix.slots) - 1
	h := ix.home(k)
	for ; ix.slots[h] != 0; h = (h + 1) & mask {
		if keys[ix.slots[h]-1] == k {
			ix.slots[h] = int32(i + 1)
			return true
		}
	}
	ix.slots[h] = int32(i + 1)
	ix.n++
	if 2*ix.n > len(ix.slots) {
		ix.rehash(keys, 2*len(ix.slots))
	}
	return false
}

func (ix *keyIndex) rehash(keys []string, size int) {
	old := ix.slots
	ix.slots = make([]int32, size)
	mask := size - 1
	for _, p := range old {
		if p != 0 {
			h := ix.home(keys[p-1])
			for ix.slots[h] != 0 {
				h = (h + 1) & mask
			}
			ix.slots[h] = p
		}
	}
}

// slot returns the slot that holds position i of key k.
func (ix *keyIndex) slot(k string, i int) int {
	mask := len(ix.slots) - 1
	h := ix.home(k)
	for ix.slots[h] != int32(i+1) {
		h = (h + 1) & mask
	}
	return h
}

// move changes the position of key k from i to j.
func (ix *keyIndex) move(k string, i, j int) {
	ix.slots[ix.slot(k, i)] = int32(j + 1)
}

// remove drops key k, at position i of keys, closing the gap in its probe
// sequence by moving later entries back (no tombstones).
func (ix *keyIndex) remove(keys []string, k string, i int) {
	mask := len(ix.slots) - 1
	gap := ix.slot(k, i)
	for j := (gap + 1) & mask; ix.slots[j] != 0; j = (j + 1) & mask {
		// The entry at j may fill the gap unless its home lies
		// cyclically in (gap, j].
		h := ix.home(keys[ix.slots[j]-1])
		if gap <= j && gap < h && h <= j || gap > j && (gap < h || h <= j) {
			continue
		}
		ix.slots[gap] = ix.slots[j]
		gap = j
	}
	ix.slots[gap] = 0
	ix.n--
}
