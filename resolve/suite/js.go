package suite

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"v4t/model/yamlsrc"
)

// jsReplaceAll is String.prototype.replaceAll with a string pattern, as the
// reference applies test.yaml's replace: non-overlapping matches from the
// left, an empty pattern matching at every character boundary, and the
// replacement patterns $$, $&, $` and $' (ECMAScript GetSubstitution without
// captures; other $ sequences stay literal).
func jsReplaceAll(s, find, repl string) string {
	var matches []int
	if find == "" {
		for i := range s {
			matches = append(matches, i)
		}
		matches = append(matches, len(s))
	} else {
		for i := 0; i <= len(s); {
			j := strings.Index(s[i:], find)
			if j < 0 {
				break
			}
			matches = append(matches, i+j)
			i += j + len(find)
		}
	}
	if len(matches) == 0 {
		return s
	}
	var b strings.Builder
	prev := 0
	for _, m := range matches {
		b.WriteString(s[prev:m])
		substitute(&b, repl, s, m, m+len(find))
		prev = m + len(find)
	}
	b.WriteString(s[prev:])
	return b.String()
}

// substitute writes repl with its $ patterns expanded for the match
// s[start:end].
func substitute(b *strings.Builder, repl, s string, start, end int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '$' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		switch repl[i+1] {
		case '$':
			b.WriteByte('$')
		case '&':
			b.WriteString(s[start:end])
		case '`':
			b.WriteString(s[:start])
		case '\'':
			b.WriteString(s[end:])
		default:
			b.WriteByte('$')
			continue
		}
		i++
	}
}

// lodashMerge merges src into dst in place like lodash's merge, as the
// reference applies test.yaml's merge to the expected document: maps merge
// recursively, lists merge index-wise, a null source value overwrites, a
// non-object destination is left alone.
func lodashMerge(dst, src *yamlsrc.Value) {
	if !isObject(dst) || !(src.IsMap() || src.IsList()) {
		return
	}
	baseMerge(dst, src)
}

// isObject is lodash's isObject for document values: maps, lists and dates.
func isObject(v *yamlsrc.Value) bool {
	return v != nil && (v.Kind == yamlsrc.KindMap || v.Kind == yamlsrc.KindList || v.Kind == yamlsrc.KindTime)
}

func baseMerge(obj, src *yamlsrc.Value) {
	each(src, func(key string, sv *yamlsrc.Value) {
		if !isObject(sv) {
			setKey(obj, key, sv)
			return
		}
		ov := getKey(obj, key)
		var nv *yamlsrc.Value
		switch {
		case sv.IsList():
			nv = ov
			if !ov.IsList() {
				nv = yamlsrc.NewList()
			}
			baseMerge(nv, sv)
		case sv.IsMap():
			nv = ov
			if !isObject(ov) {
				nv = yamlsrc.NewMap()
			}
			baseMerge(nv, sv)
		default: // a date is assigned as it is
			nv = sv
		}
		if nv != ov {
			setKey(obj, key, nv)
		}
	})
}

// each visits a map's entries in order or a list's items by index.
func each(v *yamlsrc.Value, fn func(key string, item *yamlsrc.Value)) {
	if v.IsMap() {
		for i := 0; i < v.Map().Len(); i++ {
			fn(v.Map().Key(i), v.Map().Val(i))
		}
		return
	}
	for i, item := range v.List() {
		fn(strconv.Itoa(i), item)
	}
}

func getKey(obj *yamlsrc.Value, key string) *yamlsrc.Value {
	switch {
	case obj.IsMap():
		return obj.Map().Get(key)
	case obj.IsList():
		if i, ok := arrayIndex(key); ok && i < len(obj.List()) {
			return obj.List()[i]
		}
	}
	return nil
}

// setKey sets a map entry or a list item; a list grows with nulls (holes)
// as needed. Other keys of lists and anything set on a date are dropped:
// they are invisible to the comparison.
func setKey(obj *yamlsrc.Value, key string, v *yamlsrc.Value) {
	switch {
	case obj.IsMap():
		obj.Map().Set(key, v)
	case obj.IsList():
		i, ok := arrayIndex(key)
		if !ok {
			return
		}
		for len(obj.List()) <= i {
			obj.SetList(append(obj.List(), yamlsrc.NewNull()))
		}
		obj.List()[i] = v
	}
}

// arrayIndex parses a canonical array index ("0", "12", not "01").
func arrayIndex(key string) (int, bool) {
	if key == "" || len(key) > 9 || (len(key) > 1 && key[0] == '0') || !utf8.ValidString(key) {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
