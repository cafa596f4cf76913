package yamlsrc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValues: each maker of a Values gives what the package's function of
// the same name gives, run after run through a Reset, in the memory of the
// run before, and a map with room takes a second key in place.
func TestValues(t *testing.T) {
	a, b := NewString("a"), NewNumber(2)
	makers := []struct {
		name  string
		fresh func() *Value
		made  func(*Values) *Value
	}{
		{"MapOf1", func() *Value { return MapOf1("k", a) }, func(v *Values) *Value { return v.MapOf1("k", a) }},
		{"MapOf1Room", func() *Value { return MapOf1Room("k", a) }, func(v *Values) *Value { return v.MapOf1Room("k", a) }},
		{"OpOf", func() *Value { return OpOf("or", []*Value{a, b}) }, func(v *Values) *Value { return v.OpOf("or", []*Value{a, b}) }},
		{"OpOf nil", func() *Value { return OpOf("and", nil) }, func(v *Values) *Value { return v.OpOf("and", nil) }},
		{"OpOfRoom", func() *Value { return OpOfRoom("and", []*Value{b}) }, func(v *Values) *Value { return v.OpOfRoom("and", []*Value{b}) }},
		{"PairOf", func() *Value { return PairOf("implies", a, b) }, func(v *Values) *Value { return v.PairOf("implies", a, b) }},
		{"PairOfRoom", func() *Value { return PairOfRoom("implies", b, a) }, func(v *Values) *Value { return v.PairOfRoom("implies", b, a) }},
	}
	var values Values
	var first []*Value
	for round := range 3 {
		for i, m := range makers {
			want := m.fresh()
			for k := range 20 {
				got := m.made(&values)
				require.True(t, DeepEqual(want, got), "%s, round %d: %s, want %s", m.name, round, JSON(got), JSON(want))
				if k == 0 && round == 0 {
					first = append(first, got)
				} else if k == 0 {
					assert.Same(t, first[i], got, "%s, round %d, in the memory of round 0", m.name, round)
				}
				// An owner changes what it made: a marker, another item.
				got.Map().Set("_generated", NewBool(true))
				if l := got.Map().Val(0); l.IsList() && len(l.List()) > 0 {
					l.List()[0] = NewNull()
				}
			}
		}
		values.Reset()
	}
	var none *Values
	assert.True(t, DeepEqual(PairOf("implies", a, b), none.PairOf("implies", a, b)))
	none.Reset()
}
