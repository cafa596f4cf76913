package js

import (
	"strings"
	"unicode/utf8"
)

// QuoteJSON writes s as a JSON string literal the way JSON.stringify does:
// '"', '\\' and the control characters below U+0020 are escaped (the short
// forms \b \f \n \r \t where JSON has them, else \u00xx), lone surrogates
// (kept in WTF-8, see utf16.go) become \udxxx, and everything else is copied.
// Bytes that are not UTF-8 at all, which no document holds, are written as
// U+FFFD.
func QuoteJSON(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for len(s) > 0 {
		// Copy the run that needs no escape in one go.
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' && s[i] < utf8.RuneSelf {
			i++
		}
		b.WriteString(s[:i])
		s = s[i:]
		if len(s) == 0 {
			break
		}
		r, n := decodeUnit(s)
		s = s[n:]
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || (r >= 0xD800 && r <= 0xDFFF) {
				b.WriteString(`\u`)
				b.WriteByte(hex[r>>12&0xF])
				b.WriteByte(hex[r>>8&0xF])
				b.WriteByte(hex[r>>4&0xF])
				b.WriteByte(hex[r&0xF])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// Quote returns s as a JSON string literal (QuoteJSON).
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	QuoteJSON(&b, s)
	return b.String()
}
