package js

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Dates as ECMAScript and V8 have them: time values are epoch milliseconds
// (float64, NaN for an invalid date), local time is a *time.Location.

const (
	msPerDay = 86400000
	// MaxTimeValue bounds ECMAScript time values: a Date is within
	// ±8.64e15 ms (±100,000,000 days) of the epoch.
	MaxTimeValue = 8.64e15
)

// TimeClip is ECMAScript TimeClip: NaN outside the range, else truncated.
func TimeClip(t float64) float64 {
	if math.IsNaN(t) || math.Abs(t) > MaxTimeValue {
		return math.NaN()
	}
	return math.Trunc(t) + 0 // +0 turns -0 into +0
}

// ValidTime reports whether ms is a valid time value (not NaN, within
// ±MaxTimeValue): what a Date must hold for toISOString not to throw.
func ValidTime(ms float64) bool {
	return !math.IsNaN(ms) && math.Abs(ms) <= MaxTimeValue
}

// LocalDate is new Date(year, month, day, h, min, s, ms) with integral
// arguments: years 0-99 mean 1900-1999, fields overflow into the next unit,
// and the local time is converted to UTC in loc.
func LocalDate(year, month, day, h, mi, s, ms float64, loc *time.Location) float64 {
	if year >= 0 && year <= 99 {
		year += 1900
	}
	t := makeDate(makeDay(year, month, day), makeTime(h, mi, s, ms))
	if math.IsNaN(t) || math.Abs(t) > MaxTimeValue+2*msPerDay {
		return math.NaN()
	}
	return TimeClip(localToUTC(t, loc))
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

// DateString is Date.prototype.toString in loc (nil means time.Local), e.g.
// "Sun Jan 01 2023 01:00:00 GMT+0100 (Central European Standard Time)", or
// "Invalid Date". V8 prints ICU's long zone name in the parentheses; Go knows
// only the abbreviations, which zoneName maps for common zones.
func DateString(ms float64, loc *time.Location) string {
	if !ValidTime(ms) {
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

// FormatTime renders epoch milliseconds as Date.prototype.toISOString
// ("Invalid Date" where JavaScript would throw).
func FormatTime(ms float64) string {
	if !ValidTime(ms) {
		return "Invalid Date"
	}
	return string(AppendISOTime(nil, ms))
}

// AppendISOTime appends FormatTime(ms) to b for a valid time value ms.
func AppendISOTime(b []byte, ms float64) []byte {
	t := time.UnixMilli(int64(ms)).UTC()
	y := t.Year()
	switch {
	case y < 0:
		b = append(b, '-')
		b = appendPadded(b, -y, 6)
	case y > 9999:
		b = append(b, '+')
		b = appendPadded(b, y, 6)
	default:
		b = appendPadded(b, y, 4)
	}
	b = append(b, '-')
	b = appendPadded(b, int(t.Month()), 2)
	b = append(b, '-')
	b = appendPadded(b, t.Day(), 2)
	b = append(b, 'T')
	b = appendPadded(b, t.Hour(), 2)
	b = append(b, ':')
	b = appendPadded(b, t.Minute(), 2)
	b = append(b, ':')
	b = appendPadded(b, t.Second(), 2)
	b = append(b, '.')
	b = appendPadded(b, t.Nanosecond()/int(time.Millisecond), 3)
	return append(b, 'Z')
}

func appendPadded(b []byte, n, width int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
