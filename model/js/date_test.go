package js

import (
	"encoding/json"
	"math"
	"os"
	"testing"
	"time"
	_ "time/tzdata" // the oracle zones must exist on every machine

	"github.com/stretchr/testify/require"
)

// The expectations in testdata/node_dates.json were produced by V8's
// Date.parse itself (testdata/dates.js), with local time Europe/Berlin and
// America/New_York.

type dateCase struct {
	S      string   `json:"s"`
	Berlin *float64 `json:"Europe/Berlin"`
	NY     *float64 `json:"America/New_York"`
}

// nodeDates reads the Date.parse vectors.
func nodeDates(t testing.TB) []dateCase {
	t.Helper()
	data, err := os.ReadFile("testdata/node_dates.json")
	require.NoError(t, err)
	var cases []dateCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	return cases
}

// zone loads a time zone that the tests need (time/tzdata is linked in).
func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err, name)
	return loc
}

func TestNodeDateParse(t *testing.T) {
	cases := nodeDates(t)
	zones := []struct {
		loc  *time.Location
		want func(c dateCase) *float64
	}{
		{zone(t, "Europe/Berlin"), func(c dateCase) *float64 { return c.Berlin }},
		{zone(t, "America/New_York"), func(c dateCase) *float64 { return c.NY }},
	}
	for _, z := range zones {
		for _, c := range cases {
			got := ParseDate(c.S, z.loc)
			if want := z.want(c); want == nil {
				require.True(t, math.IsNaN(got), "Date.parse(%q) in %s = %v, want NaN", c.S, z.loc, got)
			} else {
				require.Equal(t, *want, got, "Date.parse(%q) in %s", c.S, z.loc)
			}
		}
	}
}

// FuzzParseDate: Date.parse never panics, and what it returns is NaN or a
// time value.
func FuzzParseDate(f *testing.F) {
	for i, c := range nodeDates(f) {
		if i%16 == 0 {
			f.Add(c.S)
		}
	}
	f.Add("Jan 1 2023 10:00 GMT+2")
	f.Add("2023-01-01T00:00:00.000+01:00")
	loc := time.FixedZone("X", 3600)
	f.Fuzz(func(t *testing.T, s string) {
		ms := ParseDate(s, loc)
		if !math.IsNaN(ms) && (!ValidTime(ms) || ms != math.Trunc(ms)) {
			t.Fatalf("Date.parse(%q) = %v, not a time value", s, ms)
		}
	})
}

// Expectations from Node.js: new Date(ms).toString() with TZ set.
func TestDateString(t *testing.T) {
	require.Equal(t, "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)", DateString(0, time.UTC))
	require.Equal(t, "Fri Dec 31 -0001 00:00:00 GMT+0000 (Coordinated Universal Time)", DateString(-62167305600000, time.UTC))
	require.Equal(t, "Fri Jan 01 -0001 00:00:00 GMT+0000 (Coordinated Universal Time)", DateString(-62198755200000, time.UTC))
	require.Equal(t, "Sat Jan 01 10000 00:00:00 GMT+0000 (Coordinated Universal Time)", DateString(253402300800000, time.UTC))
	require.Equal(t, "Invalid Date", DateString(math.NaN(), time.UTC))
	require.Equal(t, "Invalid Date", DateString(8.64e15+1, time.UTC))
	for _, tc := range []struct{ zone, want string }{
		{"Asia/Kolkata", "Thu Jan 01 1970 05:30:00 GMT+0530 (India Standard Time)"},
		{"Europe/Berlin", "Thu Jan 01 1970 01:00:00 GMT+0100 (Central European Standard Time)"},
		{"America/New_York", "Wed Dec 31 1969 19:00:00 GMT-0500 (Eastern Standard Time)"},
		{"Etc/GMT+3", "Wed Dec 31 1969 21:00:00 GMT-0300 (GMT-03:00)"},
	} {
		require.Equal(t, tc.want, DateString(0, zone(t, tc.zone)), "Date string in %s", tc.zone)
	}
	require.Equal(t, "Sat Jul 15 2023 01:00:00 GMT+0100 (Irish Standard Time)", DateString(1689379200000, zone(t, "Europe/Dublin")))
}

func TestFormatTime(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{0, "1970-01-01T00:00:00.000Z"},
		{1672531200123, "2023-01-01T00:00:00.123Z"},
		{-1, "1969-12-31T23:59:59.999Z"},
		{-62198755200000, "-000001-01-01T00:00:00.000Z"},
		{253636790400000, "+010007-06-07T00:00:00.000Z"},
		{8.64e15, "+275760-09-13T00:00:00.000Z"},
		{8.64e15 + 1, "Invalid Date"},
		{math.NaN(), "Invalid Date"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, FormatTime(tc.ms), "formatting %v", tc.ms)
	}
	require.True(t, ValidTime(8.64e15))
	require.False(t, ValidTime(-8.64e15-1))
}
