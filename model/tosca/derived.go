package tosca

// Ancestors walks a derived_from chain up from start: start, its parent,
// the parent's parent, and so on (TOSCA 1.3 §3.7.1; variability.md §5.3).
// It is the one walker of type hierarchies: the resolver walks type names
// in its merged document, the validator its decoded types.
//
// parent, called once for each type of the chain in order, returns the
// type's parent and true, or false where the chain ends: at a root, or
// wherever the caller wants it to end, such as a parent that is not
// defined (the caller remembers that, to report it or not) or a type it
// has walked before. When parent returns a type already in the
// chain, the walk stops: loop is the part of the chain from that type on,
// each deriving from the next and the last from the first; what to do
// with it is the caller's choice. loop is nil when the chain ends.
func Ancestors[T comparable](start T, parent func(T) (T, bool)) (chain, loop []T) {
	chain = []T{start}
	var index map[T]int // built once the chain is too long to search
	for cur := start; ; {
		next, ok := parent(cur)
		if !ok {
			return chain, nil
		}
		if i := chainIndex(chain, &index, next); i >= 0 {
			return chain, chain[i:]
		}
		chain = append(chain, next)
		if index != nil {
			index[next] = len(chain) - 1
		}
		cur = next
	}
}

// linearChain is the length up to which Ancestors searches its chain
// instead of indexing it: hierarchies are shallow, long ones are generated.
const linearChain = 32

// chainIndex returns the index of x in chain, or -1.
func chainIndex[T comparable](chain []T, index *map[T]int, x T) int {
	if *index == nil && len(chain) <= linearChain {
		for i, c := range chain {
			if c == x {
				return i
			}
		}
		return -1
	}
	if *index == nil {
		*index = make(map[T]int, 2*len(chain))
		for i, c := range chain {
			(*index)[c] = i
		}
	}
	if i, ok := (*index)[x]; ok {
		return i
	}
	return -1
}
