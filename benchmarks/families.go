package benchmarks

import (
	"fmt"
	"io"
	"strings"
)

// Family is a generated template family: a template and its inputs for
// every seed.
type Family struct {
	// Name is the family's name on the command line (v4t bench --family).
	Name string
	// Description says what the family stresses, in one sentence.
	Description string
	// Template writes the template at seed n.
	Template func(w io.Writer, n int) error
	// Inputs writes the variability inputs the template resolves with.
	Inputs func(w io.Writer, n int) error
	// Templates is the number of node templates plus relationship
	// templates at seed n, the unit of "templates per second".
	Templates func(n int) int
	// Seeds are the seeds v4t bench measures by default.
	Seeds []int
}

// Families returns the generated families, the reference's ring family
// first.
func Families() []Family {
	return []Family{
		{
			Name:        "ring",
			Description: "the reference's own benchmark (spec/benchmarks.md): 2n nodes in a ring, half of them removed by an input",
			Template:    Ring,
			Inputs:      func(w io.Writer, _ int) error { return RingInputs(w) },
			Templates:   func(n int) int { return 4 * n },
			Seeds:       []int{10, 100, 1000, 10000},
		},
		{
			Name:        "choice",
			Description: "n independent alternatives (one node or two) under topology optimisation with uniqueness",
			Template:    Choice,
			Inputs:      func(w io.Writer, _ int) error { return ChoiceInputs(w) },
			Templates:   func(n int) int { return 3 * n },
			Seeds:       []int{10, 30, 100, 300},
		},
		{
			Name:        "pruning",
			Description: "n hosting stacks with three alternatives per level, pruned under mode semantic-loose",
			Template:    Pruning,
			Inputs:      func(w io.Writer, _ int) error { return PruningInputs(w) },
			Templates:   func(n int) int { return 10 * n },
			Seeds:       []int{10, 100, 1000, 3000},
		},
		{
			Name:        "wide",
			Description: "n nodes with 21 conditional properties and 5 conditional artifacts each",
			Template:    Wide,
			Inputs:      func(w io.Writer, _ int) error { return WideInputs(w) },
			Templates:   func(n int) int { return n },
			Seeds:       []int{10, 100, 1000, 3000},
		},
	}
}

// Lookup returns the family called name.
func Lookup(name string) (Family, error) {
	var names []string
	for _, f := range Families() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Family{}, fmt.Errorf("unknown family %q (expected %s)", name, strings.Join(names, ", "))
}
