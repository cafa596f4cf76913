package benchmarks

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"v4t/resolve"
)

// The configuration-space suites: counting, analysis and sampling in
// process, each iteration from the template file to the result (parse,
// space, compilation, and the count, analysis or sample), as v4t
// enumerate --count, v4t analyze and v4t sample do them. Under -short
// (the CI smoke run) each runs at a small seed instead.

// spaceSeed is the seed of a suite, or short under -short; the
// sub-benchmark is named after it.
func spaceSeed(seed, short int) int {
	if testing.Short() {
		return short
	}
	return seed
}

// benchSpace runs body on the template that gen writes at the suite's
// seed, in a sub-benchmark "seed=N".
func benchSpace(b *testing.B, name string, gen func(*bytes.Buffer, int) error, seed, short int, body func(b *testing.B, in resolve.Input)) {
	k := spaceSeed(seed, short)
	b.Run("seed="+strconv.Itoa(k), func(b *testing.B) {
		in := resolve.Input{TemplatePath: generatedFile(b, name, k, gen)}
		b.ReportAllocs()
		body(b, in)
	})
}

// benchCount counts the variants exactly (v4t enumerate --count) and
// reports the number of decimal digits of the count.
func benchCount(b *testing.B, in resolve.Input) {
	ctx := context.Background()
	var digits int
	for b.Loop() {
		res, err := resolve.Enumerate(ctx, in, resolve.Options{}, resolve.EnumerateOptions{CountOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		digits = len(res.Count.String())
	}
	b.ReportMetric(float64(digits), "digits")
}

// BenchmarkCountChain counts the chain of 2,000 exclusive choices (F(2002),
// 418 digits): one component with a long path of conflicts.
func BenchmarkCountChain(b *testing.B) {
	benchSpace(b, "chain", chain, 2000, 100, benchCount)
}

// BenchmarkCountConflict counts 150 exclusive choices under a random
// sparse conflict graph: many cycles, where the variable order matters.
func BenchmarkCountConflict(b *testing.B) {
	benchSpace(b, "conflict", conflict, 150, 50, benchCount)
}

// BenchmarkAnalyzeChain analyses the chain of 2,000 choices (v4t analyze):
// the count and the commonality of all 4,000 nodes.
func BenchmarkAnalyzeChain(b *testing.B) {
	benchSpace(b, "chain", chain, 2000, 100, func(b *testing.B, in resolve.Input) {
		ctx := context.Background()
		var elements int
		for b.Loop() {
			a, err := resolve.Analyze(ctx, in, resolve.Options{}, resolve.SpaceOptions{})
			if err != nil {
				b.Fatal(err)
			}
			elements = len(a.Elements)
		}
		b.ReportMetric(float64(elements), "elements")
	})
}

// BenchmarkSampleUniform draws 1,000 variants of the chain of 100 choices
// exactly uniformly (v4t sample --uniform 1000 --seed 1).
func BenchmarkSampleUniform(b *testing.B) {
	const samples = 1000
	benchSpace(b, "chain", chain, 100, 10, func(b *testing.B, in resolve.Input) {
		ctx := context.Background()
		for b.Loop() {
			res, err := resolve.Sample(ctx, in, resolve.Options{}, resolve.SampleOptions{Uniform: samples, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Variants) != samples {
				b.Fatalf("%d samples, want %d", len(res.Variants), samples)
			}
		}
		b.ReportMetric(samples*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
	})
}

// BenchmarkSamplePairwise builds a pairwise covering sample of 20 free
// choices (v4t sample --pairwise) and reports its size.
func BenchmarkSamplePairwise(b *testing.B) {
	benchSpace(b, "free", free, 20, 10, func(b *testing.B, in resolve.Input) {
		ctx := context.Background()
		var size int
		for b.Loop() {
			res, err := resolve.Sample(ctx, in, resolve.Options{}, resolve.SampleOptions{T: 2, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			size = len(res.Variants)
		}
		b.ReportMetric(float64(size), "variants")
	})
}
