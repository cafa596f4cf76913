package suite

import "context"

// Unsupported stands in for a case format that v4t cannot run yet: it
// detects the format's cases by a marker file and reports each one as
// failing, until the format's runner lands in DefaultRunners.
type Unsupported struct {
	// Name is the format's name, e.g. "toskeriser".
	Name string
	// Marker is the file that marks a case directory, e.g. "args.yaml".
	Marker string
}

var _ Runner = Unsupported{}

// Format implements Runner.
func (u Unsupported) Format() string { return u.Name }

// Detect implements Runner.
func (u Unsupported) Detect(d DirInfo) bool { return d.Has(u.Marker) }

// Run implements Runner.
func (u Unsupported) Run(context.Context, Case) Outcome {
	return Outcome{Reason: "not supported yet (" + u.Name + " case)"}
}
