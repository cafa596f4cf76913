package js

import (
	"strings"
	"unicode/utf8"
)

// Strings are handled as JavaScript sees them: sequences of UTF-16 code
// units. Go strings hold UTF-8; lone surrogates are stored in generalised
// UTF-8 (WTF-8), i.e. as the 3-byte sequence ED A0..BF xx that strict UTF-8
// rejects.

// decodeUnit decodes one code point (or one WTF-8 lone surrogate) at the start
// of s. Invalid bytes decode to U+FFFD, one byte at a time.
func decodeUnit(s string) (r rune, size int) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F)), 3
	}
	return utf8.DecodeRuneInString(s)
}

// toUTF16 returns the UTF-16 code units of s.
func toUTF16(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for len(s) > 0 {
		r, n := decodeUnit(s)
		s = s[n:]
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

// fromUTF16 builds a string from UTF-16 code units, joining surrogate pairs
// and keeping lone surrogates in WTF-8.
func fromUTF16(u []uint16) string {
	var b strings.Builder
	b.Grow(len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			b.WriteRune(0x10000 + (c-0xD800)<<10 + (rune(u[i+1]) - 0xDC00))
			i++
			continue
		}
		if c >= 0xD800 && c <= 0xDFFF {
			b.WriteByte(0xED)
			b.WriteByte(byte(0x80 | (c>>6)&0x3F))
			b.WriteByte(byte(0x80 | c&0x3F))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Normalize re-joins surrogate halves that became adjacent by concatenation.
func Normalize(s string) string {
	if strings.IndexByte(s, 0xED) < 0 {
		return s
	}
	return fromUTF16(toUTF16(s))
}

// UTF16Len returns the JavaScript length of s: its number of UTF-16 code
// units (an emoji outside the BMP counts 2).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := decodeUnit(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// CompareUTF16 compares two strings by their UTF-16 code unit sequences, as
// JavaScript's relational operators do.
func CompareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	ua, ub := toUTF16(a), toUTF16(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(ua) < len(ub):
		return -1
	case len(ua) > len(ub):
		return 1
	}
	return 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Split is String.prototype.split(sep) without a limit.
func Split(s, sep string) []string {
	if sep == "" {
		u := toUTF16(s)
		out := make([]string, len(u))
		for i := range u {
			out[i] = fromUTF16(u[i : i+1])
		}
		return out
	}
	if s == "" {
		return []string{""}
	}
	if utf8.ValidString(s) && utf8.ValidString(sep) {
		// Without lone surrogates, UTF-8 matches only at code point
		// boundaries, exactly like the UTF-16 search.
		return strings.Split(s, sep)
	}
	u, p := toUTF16(s), toUTF16(sep)
	var out []string
	start := 0
	for i := 0; i+len(p) <= len(u); {
		match := true
		for j := range p {
			if u[i+j] != p[j] {
				match = false
				break
			}
		}
		if match {
			out = append(out, fromUTF16(u[start:i]))
			i += len(p)
			start = i
			continue
		}
		i++
	}
	return append(out, fromUTF16(u[start:]))
}

// CharAt is s[i] for a JavaScript string: one code unit, or false when out of
// range.
func CharAt(s string, i int) (string, bool) {
	if isASCII(s) {
		if i < len(s) {
			return s[i : i+1], true
		}
		return "", false
	}
	u := toUTF16(s)
	if i < len(u) {
		return fromUTF16(u[i : i+1]), true
	}
	return "", false
}
