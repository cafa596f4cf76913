package validate

import (
	"bytes"
	"context"
	"testing"

	"v4t/benchmarks/gen"
	"v4t/model/yamlsrc"
)

// BenchmarkValidateRing times validation after parsing (the phases of
// doc.go on a parsed document, sorting included) on the ring benchmark of
// spec/benchmarks.md at seed n (benchmarks/gen), whose 2n node templates
// and 2n relationship templates use 4n types that are all missing: every
// template is a problem. The parsing it comes after is timed beside it.
//
//	go test -run '^$' -bench ValidateRing -benchtime 5x ./model/validate
func BenchmarkValidateRing(b *testing.B) {
	n := 10000
	if testing.Short() {
		n = 100
	}
	var buf bytes.Buffer
	if err := gen.Ring(&buf, n); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	const file = "ring.yaml"
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if _, err := yamlsrc.Parse(data, file); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		doc, err := yamlsrc.Parse(data, file)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			v := newValidator(context.Background(), file, Options{NoLib: true})
			got := v.run(func() *unit { return v.rootFromDoc(file, data, doc) })
			if len(got) != 4*n {
				b.Fatalf("got %d problems, want %d", len(got), 4*n)
			}
		}
	})
}
