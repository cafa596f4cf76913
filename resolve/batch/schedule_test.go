package batch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/resolve"
)

// TestSchedule drives the scheduler through sequences of takes and
// loadings. Each step is "take" (its pick is written "run" with a "*" when
// the worker is to load the template) or "loaded T" (the worker that
// claimed template T finished loading it).
func TestSchedule(t *testing.T) {
	sizes := map[string]int64{"small": 10, "big": 1000, "mid": 100, "mid2": 100, "missing": -1}
	for _, tc := range []struct {
		name      string
		templates []string // of runs 0, 1, ... in the space's order
		steps     []string
		want      []string // the picks of the takes, then "none"
	}{
		{
			name:      "larger templates first; ties and runs in the space's order",
			templates: []string{"small", "mid2", "big", "mid", "big", "small"},
			steps:     []string{"take", "loaded big", "take", "take", "loaded mid2", "take", "loaded mid", "take", "take", "loaded small", "take"},
			want:      []string{"2*", "4", "1*", "3*", "0*", "5", "none"},
		},
		{
			name:      "a worker takes another template rather than wait for a loading",
			templates: []string{"big", "big", "big", "small", "small"},
			steps:     []string{"take", "take", "loaded small", "take", "take", "loaded big", "take"},
			want:      []string{"0*", "3*", "4", "1", "2"},
		},
		{
			name:      "when every template left is being loaded, the first one's run waits",
			templates: []string{"small", "big", "big", "small"},
			steps:     []string{"take", "take", "take", "take", "take"},
			want:      []string{"1*", "0*", "2", "3", "none"},
		},
		{
			name:      "a template that cannot be read counts as empty and goes last",
			templates: []string{"missing", "small"},
			steps:     []string{"take", "take", "take"},
			want:      []string{"1*", "0*", "none"},
		},
		{
			name:      "a group whose last run was taken while it loaded leaves the list",
			templates: []string{"big", "mid", "mid"},
			steps:     []string{"take", "take", "take", "take", "loaded big"},
			want:      []string{"0*", "1*", "2", "none"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Space{}
			for i, tpl := range tc.templates {
				s.Runs = append(s.Runs, &Run{ID: fmt.Sprint(i), Input: resolve.Input{TemplatePath: tpl}})
			}
			sch := newSchedule(s, func(p string) int64 { return max(sizes[p], 0) })
			claimed := map[string]*runGroup{}
			var got []string
			for _, step := range tc.steps {
				if tpl, ok := strings.CutPrefix(step, "loaded "); ok {
					require.NotNil(t, claimed[tpl], "no worker claimed %s", tpl)
					sch.loaded(claimed[tpl])
					continue
				}
				i, load, ok := sch.take()
				switch {
				case !ok:
					got = append(got, "none")
				case load != nil:
					require.Equal(t, tc.templates[i], load.path)
					claimed[load.path] = load
					got = append(got, fmt.Sprint(i, "*"))
				default:
					got = append(got, fmt.Sprint(i))
				}
			}
			require.Equal(t, tc.want, got)
		})
	}
}
