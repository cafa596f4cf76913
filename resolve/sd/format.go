package sd

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Format writes an SD in the layout of §12: gopkg.in/yaml.v3's encoder with
// indentation 2 on the node tree of §12's recipe, so that the output is
// yaml.v3's byte for byte:
//
//   - null is "null"; numbers, booleans and dates are written with their
//     source text (Value.Str, as parseCore and yamlsrc.ParseJSON keep it),
//     or in a default spelling for values built by code (scalarText);
//     non-string keys (plainKey) likewise;
//   - a string is single-quoted when yaml.v3 would resolve its plain form to
//     another type (null, bool, int, float, timestamp, the merge key "<<");
//     otherwise the encoder decides (libyaml's rules): plain where plain can
//     carry it, else single quotes, else double quotes with escapes; strings
//     with a "\n" are literal blocks where a block can carry them, and keys
//     longer than 128 bytes or holding a line break use the explicit
//     "? key" form;
//   - a map value that is nil (JavaScript's undefined) is left out, a nil
//     list item is null.
//
// Two deliberate differences from the recipe, where yaml.v3 writes what it
// cannot read back: it drops the leading line break of a literal block
// ("\nx" would read back as "x"), and it rejects a literal block whose
// first line starts with a tab. Such strings are given the double-quoted
// style. A string that is not UTF-8 (which yaml.v3 would write as
// !!binary) is double-quoted with U+FFFD for each invalid byte.
//
// Long lines are never folded (yaml.v3 writes with unlimited width).
func Format(v *yamlsrc.Value) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(outNode(v)); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// outNode is the node tree of v for the encoder.
func outNode(v *yamlsrc.Value) *yaml.Node {
	if v == nil {
		return nullNode()
	}
	switch v.Kind {
	case yamlsrc.KindMap:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i, k := range v.Map().Keys() {
			x := v.Map().Val(i)
			if x == nil {
				continue
			}
			kn := stringNode(k)
			if k != "" && plainKey(v, k) {
				kn = &yaml.Node{Kind: yaml.ScalarNode, Value: k}
			}
			n.Content = append(n.Content, kn, outNode(x))
		}
		return n
	case yamlsrc.KindList:
		n := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, len(v.List()))}
		for i, x := range v.List() {
			n.Content[i] = outNode(x)
		}
		return n
	case yamlsrc.KindString:
		return stringNode(v.Str())
	case yamlsrc.KindNull:
		return nullNode()
	case yamlsrc.KindTime:
		if v.Str() == "" && js.FormatTime(v.Num()) == "Invalid Date" {
			return nullNode()
		}
	}
	text, _ := scalarText(v)
	return &yaml.Node{Kind: yaml.ScalarNode, Value: text}
}

func nullNode() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// stringNode is the node of string s, with the style that §12 and the two
// differences above ask for.
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case !utf8.ValidString(s):
		n.Value, n.Style = validUTF8(s), yaml.DoubleQuotedStyle
	case resolvesAsNonString(s):
		n.Style = yaml.SingleQuotedStyle
	case strings.Contains(s, "\n") && (leadingBreak(s) || s[0] == '\t'):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// resolvesAsNonString reports whether yaml.v3 reads the plain scalar s as
// anything but a string (§12: null, bool, int, float, timestamp, the merge
// key).
func resolvesAsNonString(s string) bool {
	// yaml.v3's ShortTag says "!!str" for "<<", but its decoder takes a
	// plain "<<" key for a merge key.
	return s == "<<" || (&yaml.Node{Kind: yaml.ScalarNode, Value: s}).ShortTag() != "!!str"
}

// leadingBreak reports whether s starts with a line break as libyaml counts
// them: CR, LF, NEL, LS or PS.
func leadingBreak(s string) bool {
	for _, b := range [...]string{"\r", "\n", "\u0085", "\u2028", "\u2029"} {
		if strings.HasPrefix(s, b) {
			return true
		}
	}
	return false
}

// validUTF8 returns s with U+FFFD for each byte that is not UTF-8.
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}
