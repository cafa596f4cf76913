package testkit

import (
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
)

// ErrorLine requires err to be a diagnostic whose line is wantLine and whose
// reference message is wantRef; what names the case in the failure
// messages.
func ErrorLine(t testing.TB, err error, wantLine, wantRef, what string) {
	t.Helper()
	require.Error(t, err, "%s must be rejected", what)
	d, ok := diag.As(err)
	require.True(t, ok, "diagnostic of %s", what)
	require.Equal(t, wantLine, d.Line(), "line of %s", what)
	require.Equal(t, wantRef, d.ReferenceMessage(), "reference's message of %s", what)
}

// Diagnostic requires err to be a diagnostic and returns it; msgAndArgs
// name the case in the failure message, as in require's functions.
func Diagnostic(t testing.TB, err error, msgAndArgs ...any) *diag.Diagnostic {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	d, ok := diag.As(err)
	require.True(t, ok, "not a diagnostic: %v", err)
	return d
}
