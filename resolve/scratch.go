package resolve

import (
	"v4t/encode"
	"v4t/model/graph"
	"v4t/model/reuse"
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
	// present holds the checker's lists of present elements.
	present reuse.Arrays[*graph.Element]
}

// reset takes back what the last resolve allocated in s; nil keeps
// nothing.
func (s *Scratch) reset() {
	if s != nil {
		s.copies.Reset()
		s.graphs.Reset()
		s.clauses.Reset()
		s.values.Reset()
		s.present.Reset()
	}
}

// scratchParts are where each stage takes the memory a Scratch keeps;
// all nil for no Scratch, so that the stages allocate.
type scratchParts struct {
	copies  *yamlsrc.CopyArrays
	graphs  *graph.Arrays
	values  *yamlsrc.Values
	clauses *encode.Arrays
	present *reuse.Arrays[*graph.Element]
}

func (s *Scratch) parts() scratchParts {
	if s == nil {
		return scratchParts{}
	}
	return scratchParts{copies: &s.copies, graphs: &s.graphs, values: &s.values, clauses: &s.clauses, present: &s.present}
}
