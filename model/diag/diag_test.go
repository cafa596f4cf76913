package diag

import (
	"errors"
	"fmt"
	"github.com/stretchr/testify/require"
	"testing"
)

func TestReferenceMessage(t *testing.T) {
	pos := Pos{File: "t.yaml", Line: 5, Col: 7}
	tests := []struct {
		name               string
		d                  *Diagnostic
		wantLine, wantRef  string
		wantError, wantTxt string
	}{
		{
			name:      "the reference's own message",
			d:         At(pos, StageLoad, "Policies must be an array"),
			wantLine:  "t.yaml:5:7: Policies must be an array",
			wantRef:   "Policies must be an array",
			wantError: "Policies must be an array",
			wantTxt:   "Policies must be an array",
		},
		{
			name:      "a JavaScript error worded by v4t",
			d:         AtRef(pos, StageLoad, "expected a map, found null", "Cannot convert undefined or null to object"),
			wantLine:  "t.yaml:5:7: expected a map, found null (the reference fails with: Cannot convert undefined or null to object)",
			wantRef:   "Cannot convert undefined or null to object",
			wantError: "expected a map, found null",
			wantTxt:   "expected a map, found null (the reference fails with: Cannot convert undefined or null to object)",
		},
		{
			name:      "newlines stay on one line",
			d:         AtRef(Pos{}, StageLoad, "a\nb", "c\nd"),
			wantLine:  `a\nb (the reference fails with: c\nd)`,
			wantRef:   "c\nd",
			wantError: "a\nb",
			wantTxt:   "a\nb (the reference fails with: c\nd)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.wantLine, tc.d.Line(), "Line of %s", tc.name)
			require.Equal(t, tc.wantRef, tc.d.ReferenceMessage(), "ReferenceMessage of %s", tc.name)
			require.Equal(t, tc.wantError, tc.d.Error(), "Error of %s", tc.name)
			require.Equal(t, tc.wantTxt, tc.d.Text(), "Text of %s", tc.name)
			require.Equal(t, SeverityError, tc.d.Severity, "severity of %s", tc.name)
		})
	}
}

func TestWarning(t *testing.T) {
	w := Warning(Pos{File: "t.yaml", Line: 3, Col: 9}, StageLoad, "read as no outputs")
	require.Equal(t, SeverityWarning, w.Severity)
	require.Equal(t, "t.yaml:3:9: read as no outputs", w.Line())
}

func TestListAsError(t *testing.T) {
	first := At(Pos{File: "t.yaml", Line: 2}, StageLoad, "first")
	list := List{first, New(StageLoad, "second")}
	tests := []struct {
		name string
		err  error
		want List
	}{
		{"nil", nil, nil},
		{"a list", list.Err(), list},
		{"a wrapped list", fmt.Errorf("wrapped: %w", list.Err()), list},
		{"a diagnostic", first, List{first}},
		{"a wrapped diagnostic", fmt.Errorf("wrapped: %w", first), List{first}},
		{"a plain error", errors.New("plain"), List{{Message: "plain"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, ListOf(tc.err), tc.name)
		})
	}
	d, ok := As(list.Err())
	require.True(t, ok, "As finds a diagnostic in a list")
	require.Same(t, first, d, "As finds the list's first diagnostic")
}
