package solver

import (
	"context"
	"fmt"
	"io"
	"testing"
)

// Benchmarks for the shapes of solver.md §6.2. Sizes are sub-benchmarks; the
// large ones are skipped under -short. Run with
//
//	go test -run '^$' -bench . -benchmem ./solver/
//
// Setup (building the formula) stays outside the timed loop.

func benchSolve(b *testing.B, s shape) {
	b.ReportAllocs()
	var st Stats
	for b.Loop() {
		res, err := Solve(context.Background(), s.cnf, s.steps, s.tieBreak)
		if err != nil {
			b.Fatal(err)
		}
		if !res.Sat {
			b.Fatal("unsatisfiable")
		}
		st = res.Stats
	}
	b.ReportMetric(float64(st.Solves), "solves/op")
	b.ReportMetric(float64(st.Builds), "builds/op")
	b.ReportMetric(float64(st.Conflicts), "conflicts/op")
}

func sizes(b *testing.B, name string, ns []int, shortMax int, fn func(b *testing.B, n int)) {
	for _, n := range ns {
		b.Run(fmt.Sprintf("%s=%d", name, n), func(b *testing.B) {
			if testing.Short() && n > shortMax {
				b.Skip("large size skipped under -short")
			}
			fn(b, n)
		})
	}
}

func BenchmarkRing(b *testing.B) {
	sizes(b, "n", []int{10, 1000, 10000, 40000}, 1000, func(b *testing.B, n int) {
		benchSolve(b, ringShape(n))
	})
}

// BenchmarkRingWithBuild includes building the clauses, for the end-to-end
// figure of the formula level.
func BenchmarkRingWithBuild(b *testing.B) {
	sizes(b, "n", []int{10000, 40000}, 1000, func(b *testing.B, n int) {
		b.ReportAllocs()
		for b.Loop() {
			s := ringShape(n)
			if _, err := Solve(context.Background(), s.cnf, s.steps, s.tieBreak); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkChain(b *testing.B) {
	for _, mode := range []string{"free", "fixed", "dep"} {
		b.Run(mode, func(b *testing.B) {
			sizes(b, "n", []int{10, 1000, 10000, 40000}, 1000, func(b *testing.B, n int) {
				benchSolve(b, chainShape(n, mode))
			})
		})
	}
}

func BenchmarkPairs(b *testing.B) {
	sizes(b, "k", []int{10, 100, 300, 1000}, 300, func(b *testing.B, k int) {
		benchSolve(b, pairsShape(k))
	})
}

func BenchmarkCover(b *testing.B) {
	b.Run("unit", func(b *testing.B) {
		sizes(b, "n", []int{41, 101, 1001}, 101, func(b *testing.B, n int) {
			benchSolve(b, coverShape(n, false))
		})
	})
	b.Run("weighted", func(b *testing.B) {
		sizes(b, "n", []int{20, 40, 100}, 40, func(b *testing.B, n int) {
			benchSolve(b, coverShape(n, true))
		})
	})
}

func BenchmarkEnum(b *testing.B) {
	sizes(b, "k", []int{8, 12, 16}, 8, func(b *testing.B, k int) {
		s := enumShape(k)
		b.ReportAllocs()
		var n int
		for b.Loop() {
			var err error
			n, _, err = Enumerate(context.Background(), s.cnf, s.nodes, 0, func([]bool) bool { return true })
			if err != nil {
				b.Fatal(err)
			}
		}
		if n != 1<<k {
			b.Fatalf("%d variants, want %d", n, 1<<k)
		}
		b.ReportMetric(float64(n), "variants/op")
	})
}

func BenchmarkDump(b *testing.B) {
	s := chainShape(10000, "free")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteDIMACS(io.Discard, s.cnf, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTieBreak covers the "many free alternatives" shapes of solver.md
// §5.9: the greedy-false walk over a path cover without optimisation (one
// large part), and over pairs minimised without a uniqueness check (many
// small parts, one tie each).
func BenchmarkTieBreak(b *testing.B) {
	b.Run("cover", func(b *testing.B) {
		sizes(b, "n", []int{101, 1001, 10001}, 1001, func(b *testing.B, n int) {
			s := coverShape(n, false)
			s.steps = nil
			benchSolve(b, s)
		})
	})
	b.Run("pairs", func(b *testing.B) {
		sizes(b, "k", []int{100, 1000, 10000}, 1000, func(b *testing.B, k int) {
			s := pairsShape(k)
			s.steps[0].Unique = false
			benchSolve(b, s)
		})
	})
}
