package yamlsrc

import "strings"

// WriteFlow writes v to b in YAML's flow style: a list as [a, b] and a map
// as {k: v}, with each key written by key (as it is when key is nil) and
// every other value by scalar (as JSON when scalar is nil). Where limit is
// positive, it writes no more values once b holds more than limit bytes, so
// that a caller cutting the text short does not render all of a long value.
func WriteFlow(b *strings.Builder, v *Value, limit int, key func(*strings.Builder, string), scalar func(*strings.Builder, *Value)) {
	if limit > 0 && b.Len() > limit {
		return
	}
	switch {
	case v.IsList():
		b.WriteByte('[')
		for i, x := range v.List() {
			if i > 0 {
				b.WriteString(", ")
			}
			WriteFlow(b, x, limit, key, scalar)
		}
		b.WriteByte(']')
	case v.IsMap():
		b.WriteByte('{')
		for i, k := range v.Map().Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			if key != nil {
				key(b, k)
			} else {
				b.WriteString(k)
			}
			b.WriteString(": ")
			WriteFlow(b, v.Map().Val(i), limit, key, scalar)
		}
		b.WriteByte('}')
	case scalar != nil:
		scalar(b, v)
	default:
		b.WriteString(JSON(v))
	}
}
