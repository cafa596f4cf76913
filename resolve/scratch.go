package resolve

import (
	"v4t/encode"
	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// Scratch is memory that the resolves of one goroutine hand on, each to
// the next (model/reuse): a batch worker's runs allocate the same arrays
// run after run, and take them warm from the run before instead of fresh
// from the heap, which the collector would then have to take back.
//
// A call with a Scratch (Resolve, Prepare, any entry point that loads a
// template) starts by taking back everything the call before it with the
// same Scratch allocated there: what that call returned (a Result's Doc,
// Stages) must not be used once the next one starts. Reports, warnings
// and errors may be kept: they hold no such memory. A Scratch is not safe
// for concurrent use; its zero value is ready to use.
type Scratch struct {
	// copies holds the arrays of the template's copy (Templates).
	copies yamlsrc.CopyArrays
	// graphs holds the arrays of the graphs' elements.
	graphs graph.Arrays
	// clauses holds the arrays of the encoded clauses.
	clauses encode.Arrays
	// values holds the values enrichment generates.
	values yamlsrc.Values
}

// reset takes back what the last resolve allocated in s; nil keeps
// nothing.
func (s *Scratch) reset() {
	if s != nil {
		s.copies.Reset()
		s.graphs.Reset()
		s.clauses.Reset()
		s.values.Reset()
	}
}

// copyArrays returns where a template's copy takes its arrays; nil for
// allocating them.
func (s *Scratch) copyArrays() *yamlsrc.CopyArrays {
	if s == nil {
		return nil
	}
	return &s.copies
}

// graphArrays returns where a graph takes its arrays; nil for allocating
// them.
func (s *Scratch) graphArrays() *graph.Arrays {
	if s == nil {
		return nil
	}
	return &s.graphs
}

// encodeArrays returns where the encoding stores its clauses; nil for
// allocating them.
func (s *Scratch) encodeArrays() *encode.Arrays {
	if s == nil {
		return nil
	}
	return &s.clauses
}

// valueSlabs returns where enrichment makes the values it generates; nil
// for allocating them.
func (s *Scratch) valueSlabs() *yamlsrc.Values {
	if s == nil {
		return nil
	}
	return &s.values
}
