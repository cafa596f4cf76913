package yamlsrc

import "v4t/model/reuse"

// Values makes the small maps that enrichment generates for a graph's
// elements, the presence operators and the conditions and constraints
// made of them ({node_presence: name}, {and: [...]}, {implies: [a, b]}),
// in slabs whose arrays come from reuse: they were a third of the bytes of
// a batch run, allocated one by one, and a batch worker's runs make the
// same ones run after run. A nil *Values makes each as MapOf1, OpOf and
// PairOf do. It is not safe for concurrent use.
type Values struct {
	maps1  valueSlab[mapValue]
	maps2  valueSlab[mapValue2]
	ops1   valueSlab[opHolder[mapValue]]
	ops2   valueSlab[opHolder[mapValue2]]
	pairs1 valueSlab[pairHolder[mapValue]]
	pairs2 valueSlab[pairHolder[mapValue2]]
	strs   valueSlab[Value]
	lists  listCutter
}

// Reset makes the memory of every value made since the last Reset
// available to the next ones: nothing may use those values afterwards.
func (a *Values) Reset() {
	if a != nil {
		a.maps1.reset()
		a.maps2.reset()
		a.ops1.reset()
		a.ops2.reset()
		a.pairs1.reset()
		a.pairs2.reset()
		a.strs.reset()
		a.lists.reset()
	}
}

// List returns a list of n nil values, its capacity n (an append copies
// it), made in a's memory: the condition lists that enrichment gives its
// elements, one per element with a generated condition, were a sixth of
// the allocations of a batch run of the pruning family.
func (a *Values) List(n int) []*Value {
	if a == nil {
		return make([]*Value, n)
	}
	return a.lists.cut(n)
}

// listCutter is Values' Lists, with their arrays.
type listCutter struct {
	reuse.Lists[*Value]
	arrays reuse.Arrays[*Value]
}

func (c *listCutter) cut(n int) []*Value {
	if c.From == nil {
		c.From = &c.arrays
	}
	return c.Cut(n)
}

func (c *listCutter) reset() {
	c.Lists.Reset()
	c.arrays.Reset()
}

// String is NewString, made in a's memory: the names that generated
// conditions and constraints give their elements (a twentieth of the
// bytes of the 256-run space of benchmarks/scaling.sh).
func (a *Values) String(s string) *Value {
	if a == nil {
		return NewString(s)
	}
	v := a.strs.new()
	v.Kind = KindString
	v.SetStr(s)
	return v
}

// MapOf1 is MapOf1, made in a's memory.
func (a *Values) MapOf1(key string, v *Value) *Value {
	if a == nil {
		return MapOf1(key, v)
	}
	return a.maps1.new().make(key, v)
}

// MapOf1Room is MapOf1Room, made in a's memory.
func (a *Values) MapOf1Room(key string, v *Value) *Value {
	if a == nil {
		return MapOf1Room(key, v)
	}
	return a.maps2.new().make(key, v)
}

// OpOf is OpOf, made in a's memory.
func (a *Values) OpOf(key string, items []*Value) *Value {
	if a == nil {
		return OpOf(key, items)
	}
	return makeOp[mapValue](a.ops1.new(), key, items)
}

// OpOfRoom is OpOfRoom, made in a's memory.
func (a *Values) OpOfRoom(key string, items []*Value) *Value {
	if a == nil {
		return OpOfRoom(key, items)
	}
	return makeOp[mapValue2](a.ops2.new(), key, items)
}

// PairOf is PairOf, made in a's memory.
func (a *Values) PairOf(key string, x, y *Value) *Value {
	if a == nil {
		return PairOf(key, x, y)
	}
	return makePair[mapValue](a.pairs1.new(), key, x, y)
}

// PairOfRoom is PairOfRoom, made in a's memory.
func (a *Values) PairOfRoom(key string, x, y *Value) *Value {
	if a == nil {
		return PairOfRoom(key, x, y)
	}
	return makePair[mapValue2](a.pairs2.new(), key, x, y)
}

// maxValueSlab is the most values of one shape a slab cuts from one array.
const maxValueSlab = 1024

// valueSlab cuts zero Ts from arrays that double from 8 up to
// maxValueSlab, taken from the arrays of the run before where they are
// large enough.
type valueSlab[T any] struct {
	reuse.Slab[T]
	arrays reuse.Arrays[T]
}

func (s *valueSlab[T]) new() *T {
	if s.From == nil {
		s.From, s.First, s.Most = &s.arrays, 8, maxValueSlab
	}
	return s.New()
}

func (s *valueSlab[T]) reset() {
	s.Slab.Reset()
	s.arrays.Reset()
}
