package expr

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"v4t/model/yamlsrc"
)

// Date operands (variability.md §9.6): the operands of the date operators are
// converted to instants the way dayjs 1.11 does, with V8's Date parser for
// everything dayjs hands to new Date().
//
// Quirk: date operands are not evaluated (variability.md §17), and a missing
// operand means now.

const (
	msPerDay     = 86400000
	maxTimeValue = 8.64e15 // ECMAScript time values are within ±8.64e15 ms
)

// timeClip is ECMAScript TimeClip: NaN outside the range, else truncated.
func timeClip(t float64) float64 {
	if math.IsNaN(t) || math.Abs(t) > maxTimeValue {
		return math.NaN()
	}
	return math.Trunc(t) + 0 // +0 turns -0 into +0
}

// dayjsRegexParse is dayjs's REGEX_PARSE with JavaScript's \s.
var dayjsRegexParse = regexp.MustCompile(`^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt` + jsSpaceClass + `]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$`)

const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// instant converts a date operand like dayjs(v) and reports whether the
// result is a valid date. A map carrying $isDayjsObject is taken for a dayjs
// object by dayjs and fails cloning.
func (e *Evaluator) instant(v *yamlsrc.Value) (float64, bool, error) {
	if v == nil {
		return e.now, true, nil
	}
	var t float64
	switch v.Kind {
	case yamlsrc.KindNull:
		t = math.NaN()
	case yamlsrc.KindTime, yamlsrc.KindNumber:
		t = timeClip(v.Num)
	case yamlsrc.KindBool:
		t = 0
		if v.Bool {
			t = 1
		}
	case yamlsrc.KindString:
		t = e.dayjsString(v.Str)
	case yamlsrc.KindList:
		str, err := ToString(v, e.loc)
		if err != nil {
			return 0, false, err
		}
		t = ParseDate(str, e.loc)
	case yamlsrc.KindMap:
		if v.Get("$isDayjsObject").Truthy() {
			return 0, false, typeError("t.clone is not a function")
		}
		t = math.NaN() // "[object Object]"
	}
	return t, !math.IsNaN(t), nil
}

// dayjsString is dayjs's parseDate for strings: unless the string ends in Z,
// the REGEX_PARSE shape is read as local time; anything else goes to new
// Date(string).
func (e *Evaluator) dayjsString(s string) float64 {
	if n := len(s); n == 0 || (s[n-1] != 'Z' && s[n-1] != 'z') {
		if d := dayjsRegexParse.FindStringSubmatch(s); d != nil {
			num := func(x string) float64 {
				f, _ := strconv.ParseFloat(x, 64)
				return f
			}
			m := 0.0 // d[2] - 1 || 0
			if d[2] != "" {
				m = num(d[2]) - 1
			}
			day := 1.0 // d[3] || 1
			if d[3] != "" {
				day = num(d[3])
			}
			ms := d[7] // (d[7] || '0').substring(0, 3)
			if len(ms) > 3 {
				ms = ms[:3]
			}
			return localDate(num(d[1]), m, day, num(d[4]), num(d[5]), num(d[6]), num(ms), e.loc)
		}
	}
	return ParseDate(s, e.loc)
}

// localDate is new Date(year, month, day, h, min, s, ms) with integral
// arguments: years 0-99 mean 1900-1999, fields overflow into the next unit,
// and the local time is converted to UTC in loc.
func localDate(year, month, day, h, mi, s, ms float64, loc *time.Location) float64 {
	if year >= 0 && year <= 99 {
		year += 1900
	}
	t := makeDate(makeDay(year, month, day), makeTime(h, mi, s, ms))
	if math.IsNaN(t) || math.Abs(t) > maxTimeValue+2*msPerDay {
		return math.NaN()
	}
	return timeClip(localToUTC(t, loc))
}

// makeDay is ECMAScript MakeDay for integral arguments.
func makeDay(year, month, day float64) float64 {
	ym := year + math.Floor(month/12)
	mn := math.Mod(month, 12)
	if mn < 0 {
		mn += 12
	}
	if math.Abs(ym) > 400000 {
		return math.NaN()
	}
	return float64(daysFromCivil(int64(ym), int64(mn)+1, 1)) + day - 1
}

func makeTime(h, mi, s, ms float64) float64 {
	return h*3600000 + mi*60000 + s*1000 + ms
}

func makeDate(day, t float64) float64 {
	return day*msPerDay + t
}

// daysFromCivil counts days from 1970-01-01 to the proleptic Gregorian date
// y-m-d (m in 1..12).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// offsetAt returns loc's UTC offset in milliseconds at instant t.
func offsetAt(t float64, loc *time.Location) float64 {
	sec := math.Floor(t / 1000)
	_, off := time.Unix(int64(sec), 0).In(loc).Zone()
	return float64(off) * 1000
}

// localToUTC converts a local time value to UTC like V8 (ICU's "former"
// rule): in an overlap the earlier instant wins, in a gap the offset from
// before the transition is used.
func localToUTC(t float64, loc *time.Location) float64 {
	before := offsetAt(t-msPerDay, loc)
	after := offsetAt(t+msPerDay, loc)
	if before == after {
		return t - before
	}
	okBefore := offsetAt(t-before, loc) == before
	okAfter := offsetAt(t-after, loc) == after
	switch {
	case okBefore && okAfter:
		return math.Min(t-before, t-after)
	case okAfter:
		return t - after
	}
	return t - before
}

// dateString is Date.prototype.toString in loc, e.g.
// "Sun Jan 01 2023 01:00:00 GMT+0100 (Central European Standard Time)". V8
// prints ICU's long zone name in the parentheses; Go knows only the
// abbreviations, which zoneName maps for common zones.
func dateString(ms float64, loc *time.Location) string {
	if math.IsNaN(ms) {
		return "Invalid Date"
	}
	if loc == nil {
		loc = time.Local
	}
	t := time.UnixMilli(int64(ms)).In(loc)
	name, off := t.Zone()
	name = zoneName(name, off)
	sign := '+'
	if off < 0 {
		sign = '-'
		off = -off
	}
	year := t.Year()
	ys := fmt.Sprintf("%04d", year)
	if year < 0 {
		ys = fmt.Sprintf("-%04d", -year)
	}
	return fmt.Sprintf("%s %s %02d %s %02d:%02d:%02d GMT%c%02d%02d (%s)",
		t.Weekday().String()[:3], t.Month().String()[:3], t.Day(), ys,
		t.Hour(), t.Minute(), t.Second(), sign, off/3600, off/60%60, name)
}

// dateOp builds the two-operand date comparisons.
func dateOp(holds func(a, b float64) bool) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		if err := e.array(x, arg); err != nil {
			return nil, err
		}
		a, err := e.date(x, index(arg, 0))
		if err != nil {
			return nil, err
		}
		b, err := e.date(x, index(arg, 1))
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewBool(holds(a, b)), nil
	}
}

// date is dayjs(v) followed by assert.isDate.
func (e *Evaluator) date(x, v *yamlsrc.Value) (float64, error) {
	t, ok, err := e.instant(v)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, e.fail(x, `Element "Invalid Date" is not a date`)
	}
	return t, nil
}

// opWithin is dayjs's isBetween with exclusive bounds, in either order.
func (e *Evaluator) opWithin(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	if err := e.array(x, arg); err != nil {
		return nil, err
	}
	bounds := index(arg, 1)
	if err := e.array(x, bounds); err != nil {
		return nil, err
	}
	t, err := e.date(x, index(arg, 0))
	if err != nil {
		return nil, err
	}
	lo, err := e.date(x, index(bounds, 0))
	if err != nil {
		return nil, err
	}
	hi, err := e.date(x, index(bounds, 1))
	if err != nil {
		return nil, err
	}
	return yamlsrc.NewBool(t > lo && t < hi || t < lo && t > hi), nil
}

// zoneNames maps tz abbreviations to ICU's English long names; ambiguous
// abbreviations are told apart by their offset (seconds east of UTC).
var zoneNames = map[string]string{
	"UTC": "Coordinated Universal Time", "GMT": "Greenwich Mean Time", "BST": "British Summer Time",
	"WET": "Western European Standard Time", "WEST": "Western European Summer Time",
	"CET": "Central European Standard Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Standard Time", "EEST": "Eastern European Summer Time",
	"MSK": "Moscow Standard Time", "EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time",
	"CST": "Central Standard Time", "CDT": "Central Daylight Time", "MST": "Mountain Standard Time",
	"MDT": "Mountain Daylight Time", "PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time",
	"AKST": "Alaska Standard Time", "AKDT": "Alaska Daylight Time", "HST": "Hawaii-Aleutian Standard Time",
	"JST": "Japan Standard Time", "KST": "Korean Standard Time", "IST": "India Standard Time",
	"AEST": "Australian Eastern Standard Time", "AEDT": "Australian Eastern Daylight Time",
}

func zoneName(abbr string, off int) string {
	switch {
	case abbr == "CST" && off == 8*3600:
		return "China Standard Time"
	case abbr == "IST" && off == 3600:
		return "Irish Standard Time"
	case abbr == "IST" && off == 2*3600:
		return "Israel Standard Time"
	}
	if n, ok := zoneNames[abbr]; ok {
		return n
	}
	if abbr == "" || abbr[0] == '+' || abbr[0] == '-' {
		// Zones without a name: ICU's localized GMT format.
		sign := '+'
		if off < 0 {
			sign, off = '-', -off
		}
		return fmt.Sprintf("GMT%c%02d:%02d", sign, off/3600, off/60%60)
	}
	return abbr
}
