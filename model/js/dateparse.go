package js

import (
	"math"
	"time"
)

// ParseDate is JavaScript's Date.parse(s) as V8 implements it (dateparser):
// first the ES5 ISO format (date-only forms are UTC, date-time forms without
// offset local time in loc), then V8's legacy fallback that accepts forms like
// "Jan 1 2023 10:00 GMT+2", "2023/01/01" or "Sun, 01 Jan 2023 00:00:00 GMT"
// (legacy dates without a zone are local time). It returns epoch
// milliseconds, or NaN for an invalid date. A nil loc means time.Local.
func ParseDate(s string, loc *time.Location) float64 {
	if loc == nil {
		loc = time.Local
	}
	var p dateParser
	p.init(s)
	out, ok := p.parse()
	if !ok {
		return math.NaN()
	}
	day := makeDay(out.year, out.month, out.day)
	t := makeDate(day, makeTime(out.hour, out.minute, out.second, out.ms))
	if math.IsNaN(t) {
		return math.NaN()
	}
	if out.localTime {
		if math.Abs(t) > MaxTimeValue+10*msPerDay {
			return math.NaN()
		}
		t = localToUTC(t, loc)
	} else {
		t -= out.utcOffset * 1000
		if math.Abs(t) > MaxTimeValue {
			return math.NaN()
		}
	}
	return TimeClip(t)
}

const (
	none                  = math.MinInt32
	maxSignificantDigits  = 9
	kwInvalid             = 0
	kwMonthName           = 1
	kwTimeZoneName        = 2
	kwTimeSeparator       = 3
	kwAmPm                = 4
	tokInvalid            = 0
	tokNumber             = 1
	tokSymbol             = 2
	tokWhiteSpace         = 3
	tokKeyword            = 4
	tokUnknown            = 5
	tokEnd                = 6
	smiMax                = 1<<31 - 1 // Node's V8 has 31-bit Smis (no pointer compression)
	smiMin                = -(1 << 31)
	timeComposerSize      = 4
	dayComposerSize       = 3
	maxSecondsTotalOffset = smiMax
)

type dateToken struct {
	tag    int
	length int
	value  int // number, symbol character or keyword value
	kwType int
}

func (t dateToken) isNumber() bool           { return t.tag == tokNumber }
func (t dateToken) isSymbol(c rune) bool     { return t.tag == tokSymbol && t.value == int(c) }
func (t dateToken) isWhiteSpace() bool       { return t.tag == tokWhiteSpace }
func (t dateToken) isEnd() bool              { return t.tag == tokEnd }
func (t dateToken) isKeyword() bool          { return t.tag == tokKeyword }
func (t dateToken) isFixedNumber(n int) bool { return t.tag == tokNumber && t.length == n }
func (t dateToken) isAsciiSign() bool {
	return t.tag == tokSymbol && (t.value == '+' || t.value == '-')
}
func (t dateToken) asciiSign() int { return 44 - t.value }
func (t dateToken) isKeywordType(k int) bool {
	return t.tag == tokKeyword && t.kwType == k
}
func (t dateToken) isKeywordZ() bool {
	return t.tag == tokKeyword && t.kwType == kwTimeZoneName && t.length == 1 && t.value == 0
}

var dateKeywords = []struct {
	prefix string
	kwType int
	value  int
}{
	{"jan", kwMonthName, 1}, {"feb", kwMonthName, 2}, {"mar", kwMonthName, 3},
	{"apr", kwMonthName, 4}, {"may", kwMonthName, 5}, {"jun", kwMonthName, 6},
	{"jul", kwMonthName, 7}, {"aug", kwMonthName, 8}, {"sep", kwMonthName, 9},
	{"oct", kwMonthName, 10}, {"nov", kwMonthName, 11}, {"dec", kwMonthName, 12},
	{"am", kwAmPm, 0}, {"pm", kwAmPm, 12},
	{"ut", kwTimeZoneName, 0}, {"utc", kwTimeZoneName, 0}, {"z", kwTimeZoneName, 0},
	{"gmt", kwTimeZoneName, 0},
	{"cdt", kwTimeZoneName, -5}, {"cst", kwTimeZoneName, -6},
	{"edt", kwTimeZoneName, -4}, {"est", kwTimeZoneName, -5},
	{"mdt", kwTimeZoneName, -6}, {"mst", kwTimeZoneName, -7},
	{"pdt", kwTimeZoneName, -7}, {"pst", kwTimeZoneName, -8},
	{"t", kwTimeSeparator, 0},
}

// lookupKeyword matches the first three (lower-cased) characters of a word;
// words longer than the keyword only match month names.
func lookupKeyword(prefix [3]rune, length int) (int, int) {
	for _, k := range dateKeywords {
		var kp [3]rune
		for i := 0; i < len(k.prefix); i++ {
			kp[i] = rune(k.prefix[i])
		}
		if kp == prefix && (length <= 3 || k.kwType == kwMonthName) {
			return k.kwType, k.value
		}
	}
	return kwInvalid, 0
}

type dateParser struct {
	in   []rune
	pos  int
	next dateToken
}

func (p *dateParser) init(s string) {
	p.in = []rune(s)
	p.next = p.scan()
}

func (p *dateParser) ch() rune {
	if p.pos < len(p.in) {
		return p.in[p.pos]
	}
	return 0
}

func (p *dateParser) atEnd() bool { return p.pos >= len(p.in) }

func isDigitRune(c rune) bool { return c >= '0' && c <= '9' }

func (p *dateParser) scan() dateToken {
	start := p.pos
	if p.atEnd() {
		return dateToken{tag: tokEnd}
	}
	c := p.ch()
	if isDigitRune(c) {
		// ReadUnsignedNumeral: leading zeros skipped, at most 9 significant
		// digits used, the rest read and ignored.
		n, i := 0, 0
		for p.ch() == '0' && !p.atEnd() {
			p.pos++
		}
		for !p.atEnd() && isDigitRune(p.ch()) {
			if i < maxSignificantDigits {
				n = n*10 + int(p.ch()-'0')
			}
			i++
			p.pos++
		}
		return dateToken{tag: tokNumber, length: p.pos - start, value: n}
	}
	switch c {
	case ':', '-', '+', '.', ')':
		p.pos++
		return dateToken{tag: tokSymbol, length: 1, value: int(c)}
	}
	if c >= 'A' && !IsSpace(c) {
		var prefix [3]rune
		length := 0
		for !p.atEnd() && p.ch() >= 'A' && !IsSpace(p.ch()) {
			if length < 3 {
				r := p.ch()
				if r >= 'A' && r <= 'Z' {
					r += 'a' - 'A'
				}
				prefix[length] = r
			}
			length++
			p.pos++
		}
		kt, kv := lookupKeyword(prefix, length)
		return dateToken{tag: tokKeyword, length: length, kwType: kt, value: kv}
	}
	if IsSpace(c) {
		for !p.atEnd() && IsSpace(p.ch()) {
			p.pos++
		}
		return dateToken{tag: tokWhiteSpace, length: p.pos - start}
	}
	if c == '(' {
		balance := 0
		for {
			switch p.ch() {
			case ')':
				balance--
			case '(':
				balance++
			}
			p.pos++
			if balance <= 0 || p.atEnd() {
				break
			}
		}
		return dateToken{tag: tokUnknown}
	}
	p.pos++
	return dateToken{tag: tokUnknown}
}

func (p *dateParser) nextToken() dateToken {
	t := p.next
	p.next = p.scan()
	return t
}

func (p *dateParser) peek() dateToken { return p.next }

func (p *dateParser) skipSymbol(c rune) bool {
	if p.next.isSymbol(c) {
		p.nextToken()
		return true
	}
	return false
}

// slots is what V8's DayComposer and TimeComposer share: up to size
// numbers, collected in order.
type slots struct {
	comp  [timeComposerSize]int
	index int
	size  int
}

func (s *slots) add(n int) bool {
	if s.index < s.size {
		s.comp[s.index] = n
		s.index++
		return true
	}
	return false
}

// fill sets the slots not yet collected to v.
func (s *slots) fill(v int) {
	for s.index < s.size {
		s.comp[s.index] = v
		s.index++
	}
}

type dayComposer struct {
	slots
	namedMonth int
	isISODate  bool
}

func between(x, lo, hi int) bool { return x >= lo && x <= hi }
func isMonth(x int) bool         { return between(x, 1, 12) }
func isDay(x int) bool           { return between(x, 1, 31) }
func isHour(x int) bool          { return between(x, 0, 23) }
func isMinute(x int) bool        { return between(x, 0, 59) }
func isSecond(x int) bool        { return between(x, 0, 59) }
func isHour12(x int) bool        { return between(x, 0, 12) }
func isMillisecond(x int) bool   { return between(x, 0, 999) }

func (d *dayComposer) write(out *parsedDate) bool {
	if d.index < 1 {
		return false
	}
	d.fill(1) // day and month default to 1
	year, month, day := 0, none, none
	if d.namedMonth == none {
		if d.isISODate || (d.index == 3 && !isDay(d.comp[0])) {
			year, month, day = d.comp[0], d.comp[1], d.comp[2]
		} else {
			month, day = d.comp[0], d.comp[1]
			if d.index == 3 {
				year = d.comp[2]
			}
		}
	} else {
		month = d.namedMonth
		if d.index == 1 {
			day = d.comp[0]
		} else if !isDay(d.comp[0]) {
			year, day = d.comp[0], d.comp[1]
		} else {
			day, year = d.comp[0], d.comp[1]
		}
	}
	if !d.isISODate {
		if between(year, 0, 49) {
			year += 2000
		} else if between(year, 50, 99) {
			year += 1900
		}
	}
	if year < smiMin || year > smiMax || !isMonth(month) || !isDay(day) {
		return false
	}
	out.year, out.month, out.day = float64(year), float64(month-1), float64(day)
	return true
}

type timeComposer struct {
	slots
	hourOffset int
}

func (t *timeComposer) isEmpty() bool { return t.index == 0 }
func (t *timeComposer) isExpecting(n int) bool {
	return (t.index == 1 && isMinute(n)) || (t.index == 2 && isSecond(n)) || (t.index == 3 && isMillisecond(n))
}
func (t *timeComposer) addFinal(n int) bool {
	if !t.add(n) {
		return false
	}
	t.fill(0)
	return true
}

func (t *timeComposer) write(out *parsedDate) bool {
	t.fill(0)
	hour, minute, second, ms := t.comp[0], t.comp[1], t.comp[2], t.comp[3]
	if t.hourOffset != none {
		if !isHour12(hour) {
			return false
		}
		hour %= 12
		hour += t.hourOffset
	}
	if !isHour(hour) || !isMinute(minute) || !isSecond(second) || !isMillisecond(ms) {
		// A 24th hour is allowed if minutes, seconds and milliseconds are 0.
		if hour != 24 || minute != 0 || second != 0 || ms != 0 {
			return false
		}
	}
	out.hour, out.minute, out.second, out.ms = float64(hour), float64(minute), float64(second), float64(ms)
	return true
}

type tzComposer struct {
	sign, hour, minute int
}

func (z *tzComposer) set(offsetHours int) {
	z.sign = 1
	if offsetHours < 0 {
		z.sign = -1
	}
	z.hour = offsetHours * z.sign
	z.minute = 0
}
func (z *tzComposer) setSign(sign int) {
	z.sign = 1
	if sign < 0 {
		z.sign = -1
	}
}
func (z *tzComposer) isExpecting(n int) bool {
	return z.hour != none && z.minute == none && isMinute(n)
}
func (z *tzComposer) isUTC() bool   { return z.hour == 0 && z.minute == 0 }
func (z *tzComposer) isEmpty() bool { return z.hour == none }

func (z *tzComposer) write(out *parsedDate) bool {
	if z.sign != none {
		if z.hour == none {
			z.hour = 0
		}
		if z.minute == none {
			z.minute = 0
		}
		// V8 computes this in unsigned 32-bit arithmetic, wrapping around.
		total := uint32(z.hour)*3600 + uint32(z.minute)*60
		if total > maxSecondsTotalOffset {
			return false
		}
		seconds := int64(total)
		if z.sign < 0 {
			seconds = -seconds
		}
		out.utcOffset = float64(seconds)
	} else {
		out.localTime = true
	}
	return true
}

type parsedDate struct {
	year, month, day, hour, minute, second, ms float64
	utcOffset                                  float64 // seconds east of UTC
	localTime                                  bool
}

// readMilliseconds reads the first three significant digits of a fraction,
// inferring leading zeros from the token length.
func readMilliseconds(t dateToken) int {
	n, length := t.value, t.length
	if length < 3 {
		if length == 1 {
			n *= 100
		} else if length == 2 {
			n *= 10
		}
	} else if length > 3 {
		if length > maxSignificantDigits {
			length = maxSignificantDigits
		}
		factor := 1
		for length > 3 {
			factor *= 10
			length--
		}
		n /= factor
	}
	return n
}

func (p *dateParser) parse() (parsedDate, bool) {
	day := dayComposer{slots: slots{size: dayComposerSize}, namedMonth: none}
	tm := timeComposer{slots: slots{size: timeComposerSize}, hourOffset: none}
	tz := tzComposer{sign: none, hour: none, minute: none}
	var out parsedDate

	token := p.parseES5(&day, &tm, &tz)
	if token.tag == tokInvalid {
		return out, false
	}
	hasReadNumber := day.index > 0
	for ; !token.isEnd(); token = p.nextToken() {
		switch {
		case token.isNumber():
			hasReadNumber = true
			n := token.value
			if p.skipSymbol(':') {
				if p.skipSymbol(':') {
					// n + "::"
					if !tm.isEmpty() {
						return out, false
					}
					tm.add(n)
					tm.add(0)
				} else {
					// n + ":"
					if !tm.add(n) {
						return out, false
					}
					if p.peek().isSymbol('.') {
						p.nextToken()
					}
				}
			} else if p.skipSymbol('.') && tm.isExpecting(n) {
				tm.add(n)
				if !p.peek().isNumber() {
					return out, false
				}
				ms := readMilliseconds(p.nextToken())
				if ms < 0 {
					return out, false
				}
				tm.addFinal(ms)
			} else if tz.isExpecting(n) {
				tz.minute = n
			} else if tm.isExpecting(n) {
				tm.addFinal(n)
				// Require end, white space, "Z", "+" or "-" immediately after
				// finalizing the time.
				pk := p.peek()
				if !pk.isEnd() && !pk.isWhiteSpace() && !pk.isKeywordZ() && !pk.isAsciiSign() {
					return out, false
				}
			} else {
				if !day.add(n) {
					return out, false
				}
				p.skipSymbol('-')
			}
		case token.isKeyword():
			switch {
			case token.kwType == kwAmPm && !tm.isEmpty():
				tm.hourOffset = token.value
			case token.kwType == kwMonthName:
				day.namedMonth = token.value
				p.skipSymbol('-')
			case token.kwType == kwTimeZoneName && hasReadNumber:
				tz.set(token.value)
			default:
				// Garbage words are illegal once a number has been read, and
				// the first number must be separated from them.
				if hasReadNumber || p.peek().isNumber() {
					return out, false
				}
			}
		case token.isAsciiSign() && (tz.isUTC() || !tm.isEmpty()):
			// UTC offset (only after UTC or a time).
			tz.setSign(token.asciiSign())
			n, length := 0, 0
			if p.peek().isNumber() {
				t := p.nextToken()
				length = t.length
				n = t.value
			}
			hasReadNumber = true
			switch {
			case p.peek().isSymbol(':'):
				tz.hour = n
				tz.minute = none
			case length == 1 || length == 2:
				tz.hour = n
				tz.minute = 0
			case length == 3 || length == 4:
				tz.hour = n / 100
				tz.minute = n % 100
			default:
				return out, false
			}
		case (token.isAsciiSign() || token.isSymbol(')')) && hasReadNumber:
			return out, false
		}
	}
	if !day.write(&out) || !tm.write(&out) || !tz.write(&out) {
		return out, false
	}
	return out, true
}

// parseES5 reads the ES5 ISO form. It returns the end token on success, an
// invalid token when the string cannot be a date, or the first token the
// legacy parser has to continue with.
func (p *dateParser) parseES5(day *dayComposer, tm *timeComposer, tz *tzComposer) dateToken {
	// [('-'|'+')yy]yyyy[-MM[-DD]]
	if p.peek().isAsciiSign() {
		sign := p.nextToken()
		if !p.peek().isFixedNumber(6) {
			return sign
		}
		year := p.nextToken().value
		if sign.asciiSign() < 0 && year == 0 {
			return sign
		}
		day.add(sign.asciiSign() * year)
	} else if p.peek().isFixedNumber(4) {
		day.add(p.nextToken().value)
	} else {
		return p.nextToken()
	}
	if p.skipSymbol('-') {
		if !p.peek().isFixedNumber(2) || !isMonth(p.peek().value) {
			return p.nextToken()
		}
		day.add(p.nextToken().value)
		if p.skipSymbol('-') {
			if !p.peek().isFixedNumber(2) || !isDay(p.peek().value) {
				return p.nextToken()
			}
			day.add(p.nextToken().value)
		}
	}
	// 'T'HH':'mm[':'ss['.'sss]][Z|(+|-)hh:mm]
	if !p.peek().isKeywordType(kwTimeSeparator) {
		if !p.peek().isEnd() {
			return p.nextToken()
		}
	} else {
		p.nextToken()
		if !p.peek().isFixedNumber(2) || !between(p.peek().value, 0, 24) {
			return dateToken{tag: tokInvalid}
		}
		hourIs24 := p.peek().value == 24
		tm.add(p.nextToken().value)
		if !p.skipSymbol(':') {
			return dateToken{tag: tokInvalid}
		}
		if !p.peek().isFixedNumber(2) || !isMinute(p.peek().value) || (hourIs24 && p.peek().value > 0) {
			return dateToken{tag: tokInvalid}
		}
		tm.add(p.nextToken().value)
		if p.skipSymbol(':') {
			if !p.peek().isFixedNumber(2) || !isSecond(p.peek().value) || (hourIs24 && p.peek().value > 0) {
				return dateToken{tag: tokInvalid}
			}
			tm.add(p.nextToken().value)
			if p.skipSymbol('.') {
				if !p.peek().isNumber() || (hourIs24 && p.peek().value > 0) {
					return dateToken{tag: tokInvalid}
				}
				tm.add(readMilliseconds(p.nextToken()))
			}
		}
		if p.peek().isKeywordZ() {
			p.nextToken()
			tz.set(0)
		} else if p.peek().isSymbol('+') || p.peek().isSymbol('-') {
			sign := 1
			if p.nextToken().value == '-' {
				sign = -1
			}
			if p.peek().isFixedNumber(4) {
				// hhmm extension syntax
				hourmin := p.nextToken().value
				hour, minute := hourmin/100, hourmin%100
				if !isHour(hour) || !isMinute(minute) {
					return dateToken{tag: tokInvalid}
				}
				tz.setSign(sign)
				tz.hour, tz.minute = hour, minute
			} else {
				if !p.peek().isFixedNumber(2) || !isHour(p.peek().value) {
					return dateToken{tag: tokInvalid}
				}
				tz.setSign(sign)
				tz.hour = p.nextToken().value
				if !p.skipSymbol(':') {
					return dateToken{tag: tokInvalid}
				}
				if !p.peek().isFixedNumber(2) || !isMinute(p.peek().value) {
					return dateToken{tag: tokInvalid}
				}
				tz.minute = p.nextToken().value
			}
		}
		if !p.peek().isEnd() {
			return dateToken{tag: tokInvalid}
		}
	}
	// Date-only forms without an offset are UTC, date-time forms local.
	if tz.isEmpty() && tm.isEmpty() {
		tz.set(0)
	}
	day.isISODate = true
	return dateToken{tag: tokEnd}
}
