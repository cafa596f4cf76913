// Package benchmarks names the benchmark families of spec/benchmarks.md,
// whose templates package gen writes, and holds the testing.B suites that
// time the resolver on them.
package benchmarks

import (
	"fmt"
	"io"
	"strings"

	"v4t/benchmarks/gen"
)

// Family is a generated template family: a template and its inputs for
// every seed, and the v4t command that v4t bench times on them.
type Family struct {
	// Name is the family's name on the command line (v4t bench --family).
	Name string
	// Description says what the family stresses, in one sentence.
	Description string
	// Template writes the template at seed n.
	Template func(w io.Writer, n int) error
	// Inputs writes the variability inputs the template resolves with; nil
	// when the family has none.
	Inputs func(w io.Writer, n int) error
	// Templates is the number of node templates plus relationship
	// templates at seed n, the unit of "templates per second".
	Templates func(n int) int
	// Seeds are the seeds v4t bench measures by default.
	Seeds []int
	// Command returns the arguments of the v4t child process that v4t
	// bench times, given the generated files (inputs is "" when Inputs is
	// nil) and a scratch file the command may write. Nil: "resolve
	// --template T --inputs I --output O" with its stage timings, which
	// the reference implementation can be compared with; a family with a
	// Command has no stage timings and no reference to compare with.
	Command func(template, inputs, output string) []string
	// Measures names what the child process does, for the report, e.g.
	// "analyze" or "sample --pairwise"; empty means "resolve".
	Measures string
}

// What returns Measures, or "resolve" when it is empty.
func (f Family) What() string {
	if f.Measures == "" {
		return "resolve"
	}
	return f.Measures
}

// spaceCommand returns a Family.Command that runs v4t with args and the
// template (the configuration-space families have no inputs); with output,
// it also writes its report to the scratch file instead of standard
// output.
func spaceCommand(output bool, args ...string) func(template, inputs, out string) []string {
	return func(template, _, out string) []string {
		cmd := append([]string{args[0], "--template", template}, args[1:]...)
		if output {
			cmd = append(cmd, "--output", out)
		}
		return cmd
	}
}

// Families returns the generated families: the resolve families, the
// reference's ring family first, then the configuration-space families
// (gen/space.go), whose variants are counted, analysed and sampled.
func Families() []Family {
	return []Family{
		{
			Name:        "ring",
			Description: "the reference's own benchmark (spec/benchmarks.md): 2n nodes in a ring, half of them removed by an input",
			Template:    gen.Ring,
			Inputs:      func(w io.Writer, _ int) error { return gen.RingInputs(w) },
			Templates:   func(n int) int { return 4 * n },
			Seeds:       []int{10, 100, 1000, 10000},
		},
		{
			Name:        "choice",
			Description: "n independent alternatives (one node or two) under topology optimisation with uniqueness",
			Template:    gen.Choice,
			Inputs:      func(w io.Writer, _ int) error { return gen.ChoiceInputs(w) },
			Templates:   func(n int) int { return 3 * n },
			Seeds:       []int{10, 30, 100, 300},
		},
		{
			Name:        "pruning",
			Description: "n hosting stacks with three alternatives per level, pruned under mode semantic-loose",
			Template:    gen.Pruning,
			Inputs:      func(w io.Writer, _ int) error { return gen.PruningInputs(w) },
			Templates:   func(n int) int { return 10 * n },
			Seeds:       []int{10, 100, 1000, 3000},
		},
		{
			Name:        "wide",
			Description: "n nodes with 21 conditional properties and 5 conditional artifacts each",
			Template:    gen.Wide,
			Inputs:      func(w io.Writer, _ int) error { return gen.WideInputs(w) },
			Templates:   func(n int) int { return n },
			Seeds:       []int{10, 100, 1000, 3000},
		},
		{
			Name:        "chain",
			Description: "n exclusive choices in a chain of conflicts (about 10^(0.209n) variants), analysed: count, core and dead elements, commonality",
			Template:    gen.Chain,
			Templates:   func(n int) int { return 2 * n },
			Seeds:       []int{100, 500, 2000},
			Command:     spaceCommand(true, "analyze", "--format", "json"),
			Measures:    "analyze",
		},
		{
			Name:        "conflict",
			Description: "n exclusive choices under a random sparse conflict graph (1.5n edges), analysed",
			Template:    gen.Conflict,
			Templates:   func(n int) int { return 2 * n },
			Seeds:       []int{50, 100, 150},
			Command:     spaceCommand(true, "analyze", "--format", "json"),
			Measures:    "analyze",
		},
		{
			Name:        "hub",
			Description: "n optional nodes that all connect to one hub (2^n variants in one component), counted",
			Template:    gen.Hub,
			Templates:   func(n int) int { return n + 1 },
			Seeds:       []int{20, 40, 1000},
			Command:     spaceCommand(false, "enumerate", "--count"),
			Measures:    "enumerate --count",
		},
		{
			Name:        "sample",
			Description: "the chain of n exclusive choices, 1,000 variants drawn exactly uniformly",
			Template:    gen.Chain,
			Templates:   func(n int) int { return 2 * n },
			Seeds:       []int{10, 100, 1000},
			Command:     spaceCommand(true, "sample", "--uniform", "1000", "--seed", "1"),
			Measures:    "sample --uniform 1000",
		},
		{
			Name:        "pairwise",
			Description: "n free exclusive choices (2^n variants), sampled to cover every pair",
			Template:    gen.Free,
			Templates:   func(n int) int { return 2 * n },
			Seeds:       []int{10, 20, 50},
			Command:     spaceCommand(true, "sample", "--pairwise"),
			Measures:    "sample --pairwise",
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
