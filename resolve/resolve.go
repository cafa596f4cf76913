// Package resolve owns the Variability4TOSCA pipeline (variability.md §1):
// loading, enrichment, inputs and presets, validation, solving, checks and the
// output transformation to tosca_simple_yaml_1_3.
package resolve

import (
	"context"
	"errors"

	"v4t/model/yamlsrc"
)

// Input names what to resolve.
type Input struct {
	// TemplatePath is the variable service template.
	TemplatePath string
	// InputsPath is an optional variability inputs file (YAML).
	InputsPath string
	// Presets are applied in order before the inputs file.
	Presets []string
	// Inputs are single assignments applied after presets and the inputs
	// file (the CLI's --input NAME=VALUE).
	Inputs []Assignment
}

// Assignment is one variability input value.
type Assignment struct {
	Name  string
	Value *yamlsrc.Value
}

// Options tune a run.
type Options struct {
	// LookupEnv reads the reference's environment variables
	// (OPENTOSCA_VINTNER_VARIABILITY_PRESETS and
	// OPENTOSCA_VINTNER_VARIABILITY_INPUT_*); nil means no environment, as in
	// the conformance runner.
	LookupEnv func(string) (string, bool)
}

// Resolve runs the pipeline and returns the resolved document. A failure is
// returned as a *diag.Diagnostic whose Message is the reference's message.
func Resolve(ctx context.Context, in Input, opts Options) (*yamlsrc.Value, error) {
	return nil, errors.New("not implemented")
}
