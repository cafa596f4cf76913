package solver

import (
	"context"
	"slices"
	"testing"
)

// FuzzCompile decodes a small formula and a projection from the fuzzer's
// bytes and checks the circuit's count, enumeration and marginals against
// brute force (the oracle of TestCompileOracle).
func FuzzCompile(f *testing.F) {
	f.Add([]byte{5, 0x1f, 1, 2, 0, 3, 4, 0, 1, 5, 0})
	f.Add([]byte{8, 0xff, 1, 2, 0, 255, 254, 0, 2, 3, 0, 253, 252, 0})
	f.Add([]byte{12, 0x0f, 1, 0, 2, 0, 3, 4, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		nv := 1 + int(data[0])%12
		mask := data[1]
		cnf := &CNF{NumVars: nv}
		var cl []int
		for _, b := range data[2:] {
			if b == 0 {
				cnf.Clauses = append(cnf.Clauses, cl)
				cl = nil
				continue
			}
			v := 1 + int(b&0x7f)%nv
			if b&0x80 != 0 {
				v = -v
			}
			cl = append(cl, v)
		}
		if len(cnf.Clauses) > 40 {
			return
		}
		var proj []int
		for v := 1; v <= nv; v++ {
			if mask>>(v%8)&1 == 1 {
				proj = append(proj, v)
			}
		}
		c, err := Compile(context.Background(), cnf, proj, CompileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := bruteProjections(cnf, proj)
		if got := c.Count().Int64(); got != int64(len(want)) {
			t.Fatalf("cnf %v projection %v: count %d, want %d", cnf.Clauses, proj, got, len(want))
		}
		var got []string
		c.Enumerate(func(v []bool) bool { got = append(got, bitString(v)); return true })
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("cnf %v projection %v: enumerated %v, want %v", cnf.Clauses, proj, got, want)
		}
		marg := c.Marginals()
		for i := range proj {
			if ones := countOnes(want, i); marg[i].Int64() != int64(ones) {
				t.Fatalf("cnf %v projection %v: variable %d true in %d, want %d", cnf.Clauses, proj, proj[i], marg[i].Int64(), ones)
			}
		}
	})
}
