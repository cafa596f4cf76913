package complete

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConstraintsIgnored: every part of a --constraints value that the
// searches of completion.md §8.3 do not use gets a warning, in order; the
// reference drops them silently. What is used does not change.
func TestConstraintsIgnored(t *testing.T) {
	const (
		anyKey = `expected size, pulls or stars with an operator and a whole number, e.g. size<=99MB pulls>30 stars>10`
		size   = `expected size, an operator (<, <=, >, >=), a whole number and its unit (bytes, kb, mb, gb), e.g. size<=99MB`
		stars  = `expected stars, an operator (<, <=, >, >=) and a whole number, e.g. stars>30`
	)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"all used", "size<=99MB pulls>30 stars>10", nil},
		{"separators only", " ,; size<1GB, pulls>10; ", nil},
		{"decimal size", "size<1.5GB", []string{`--constraints: ignored "size<1.5GB": ` + size}},
		{"space before the unit", "size<=99 MB", []string{`--constraints: ignored "size<=99 MB": ` + size}},
		{"decimal pulls", "pulls>1.5", []string{`--constraints: ignored ".5": expected whole numbers and a space after "pulls>1", which is used`}},
		{"text before a key", "maxsize<3GB", []string{`--constraints: ignored "max": ` + anyKey}},
		{"second of a key", "stars>1 stars>5", []string{`--constraints: ignored "stars>5": expected one stars constraint (the first, "stars>1", is used)`}},
		{"unknown word", "whatever", []string{`--constraints: ignored "whatever": ` + anyKey}},
		{"parts split at keys", "foo size<1.5GB stars>x pulls>3 bar baz", []string{
			`--constraints: ignored "foo": ` + anyKey,
			`--constraints: ignored "size<1.5GB": ` + size,
			`--constraints: ignored "stars>x": ` + stars,
			`--constraints: ignored "bar baz": ` + anyKey,
		}},
		{"words after a second of a key", "stars>1 stars>5 web worker", []string{
			`--constraints: ignored "stars>5": expected one stars constraint (the first, "stars>1", is used)`,
			`--constraints: ignored "web worker": ` + anyKey,
		}},
		{"malformed before the first match", "size<1.5GB size<2GB", []string{`--constraints: ignored "size<1.5GB": ` + size}},
		// "=" is matched, and reported per unit as an operator error.
		{"operator error is not ignored", "size=99MB", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, ParseConstraints(tc.in).Ignored, "warnings of %q", tc.in)
		})
	}
}

// TestCompleteWarnsIgnoredConstraints: Complete passes the warnings to
// Options.Warn before anything else, and completes as it does without
// the ignored text ("stars>39.5" reads as stars>39).
func TestCompleteWarnsIgnoredConstraints(t *testing.T) {
	body := unitA("{node: 6.x}")
	want, msgs := completeYAML(t, body, Options{Constraints: "pulls>5000 stars>39"})
	require.Nil(t, msgs)
	var warnings []string
	got, msgs := completeYAML(t, body, Options{Constraints: "size<1.5GB pulls>5000 stars>39.5", Warn: func(m string) { warnings = append(warnings, m) }})
	require.Nil(t, msgs)
	require.Equal(t, []string{
		`--constraints: ignored "size<1.5GB": expected size, an operator (<, <=, >, >=), a whole number and its unit (bytes, kb, mb, gb), e.g. size<=99MB`,
		`--constraints: ignored ".5": expected whole numbers and a space after "stars>39", which is used`,
	}, warnings)
	require.Equal(t, string(want.Output), string(got.Output), "the same completion")
	require.NotNil(t, want.Units[0].Image)
	require.Equal(t, "node:6", want.Units[0].Image.Name, "pulls>5000 stars>39 picks node:6")
}
