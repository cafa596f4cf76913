package sd

import (
	"fmt"
	"path/filepath"
	"strings"

	"v4t/model/diag"
)

// Param is one parameter of the sd subcommand (sd-merge.md §2): an
// environment variable of the pipeline and the flag that replaces it.
type Param struct {
	// Var is the environment variable, e.g. "SD_MERGE_MODE"; empty for
	// --env-dir, which has none.
	Var string
	// Flag is the flag's name without dashes, e.g. "merge-mode".
	Flag string
	// Usage is the flag's help text.
	Usage string
}

// The parameters, in the order of sd-merge.md §2.
var params = []Param{
	{"SD_SOURCE_TYPE", "source-type", "the `TYPE` of the incoming SDs: artifact or json"},
	{"SD_VERSION", "sd-version", "artifact references `NAME:VERSION`, one or several"},
	{"SD_VERSION_MULTIPLE", "sd-version-multiple", "same as --sd-version (the design's name for several `NAME:VERSION`s)"},
	{"SD_DATA", "sd-data", "SD content as `JSON`: one SD object or a list of SD objects"},
	{"SD_DATA_MULTIPLE", "sd-data-multiple", "same as --sd-data (the design's name for several SDs in `JSON`)"},
	{"SD_DELTA", "sd-delta", "`BOOL`: true (default) merges into the Full SD and writes the Delta SD, false overwrites the Full SD"},
	{"SD_MERGE_MODE", "merge-mode", "the merge `MODE`: basic-merge (default), basic-exclusion-merge, extended-merge or replace"},
	{"SD_REPO_MERGE_MODE", "repo-merge-mode", "the merge `MODE` under its current EnvGene name"},
	{"SD_ARTIFACT_DIR", "artifact-dir", "read artifacts from `DIR`, a local directory or a file:// URL"},
	{"", "env-dir", "the environment directory `DIR`, .../environments/<cluster>/<env>"},
}

// Params returns the parameters of sd-merge.md §2, for the command line.
func Params() []Param { return append([]Param(nil), params...) }

// Variables that locate the environment directory (sd-merge.md §2).
const (
	varProjectDir  = "CI_PROJECT_DIR"
	varFullEnvName = "FULL_ENV_NAME"
	varCluster     = "CLUSTER_NAME"
	varEnvironment = "ENVIRONMENT_NAME"
)

// EnvVars lists every environment variable the subcommand reads.
func EnvVars() []string {
	out := []string{varProjectDir, varFullEnvName, varCluster, varEnvironment}
	for _, p := range params {
		if p.Var != "" {
			out = append(out, p.Var)
		}
	}
	return out
}

// Input is what a run is given: the environment and the flags of the
// command line (sd-merge.md §2).
type Input struct {
	// Getenv looks up an environment variable; nil means an empty
	// environment.
	Getenv func(name string) (string, bool)
	// Flags holds the flags given on the command line, by name without
	// dashes ("merge-mode"). A flag replaces its variable, even when its
	// value is empty.
	Flags map[string]string
}

// value is one parameter's effective text and where it came from.
type value struct {
	text string
	// from names the source for positions: "$SD_DATA" or "--sd-data".
	from string
}

// given reports whether the value counts as given: empty or blank values
// do not (§2).
func (v value) given() bool { return strings.TrimSpace(v.text) != "" }

func (v value) pos() diag.Pos { return diag.Pos{File: v.from} }

// get returns the effective value of the parameter with variable (or, for
// --env-dir, flag) name.
func (in Input) get(name string) value {
	for _, p := range params {
		if p.Var != name && !(p.Var == "" && p.Flag == name) {
			continue
		}
		if s, ok := in.Flags[p.Flag]; ok {
			return value{text: s, from: "--" + p.Flag}
		}
		if p.Var == "" {
			return value{from: "--" + p.Flag}
		}
		return in.env(p.Var)
	}
	return in.env(name)
}

// env returns an environment variable.
func (in Input) env(name string) value {
	v := value{from: "$" + name}
	if in.Getenv != nil {
		v.text, _ = in.Getenv(name)
	}
	return v
}

// ParseFlags reads the flags of the sd subcommand from args, as `--flag
// value` or `--flag=value`, into Input.Flags. The CLI parses its command
// line with pflag; this is for callers without one, such as the case runner.
func ParseFlags(args []string) (map[string]string, error) {
	flags := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || !knownFlag(name) {
			return nil, fmt.Errorf("unknown argument %q", a)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag needs an argument: --%s", name)
			}
			i++
			val = args[i]
		}
		flags[name] = val
	}
	return flags, nil
}

func knownFlag(name string) bool {
	for _, p := range params {
		if p.Flag == name {
			return true
		}
	}
	return false
}

// envDirectory finds the environment directory (§2) and checks that it
// exists.
func envDirectory(in Input, isDir func(string) bool) (string, error) {
	var dir string
	if v := in.get("env-dir"); v.given() {
		dir = v.text
	} else {
		root := "."
		if v := in.env(varProjectDir); v.given() {
			root = v.text
		}
		cluster, env := in.env(varCluster), in.env(varEnvironment)
		switch full := in.env(varFullEnvName); {
		case full.given():
			dir = filepath.Join(root, "environments", full.text)
		case cluster.given() && env.given():
			dir = filepath.Join(root, "environments", cluster.text, env.text)
		default:
			return "", errEnvDirUnset()
		}
	}
	if !isDir(dir) {
		return "", errEnvDirMissing(dir)
	}
	return dir, nil
}

// Mode is a merge mode (sd-merge.md §3.2).
type Mode string

// The merge modes.
const (
	BasicMerge          Mode = "basic-merge"
	BasicExclusionMerge Mode = "basic-exclusion-merge"
	ExtendedMerge       Mode = "extended-merge"
	Replace             Mode = "replace"
)

// ParseMode normalises a mode value (trimmed, case-insensitive).
func ParseMode(s string) (Mode, bool) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case BasicMerge, BasicExclusionMerge, ExtendedMerge, Replace:
		return m, true
	}
	return "", false
}

// extended reports whether the mode uses the extended model rules (§6.1).
func (m Mode) extended() bool { return m == ExtendedMerge }

// mergeFunc is the merge function that combines SDs in mode m (§6.1).
func (m Mode) mergeFunc() Mode {
	if m == Replace {
		return BasicMerge
	}
	return m
}

// settings are the normalised parameters of steps 2 and 3 of §5.
type settings struct {
	mode      Mode
	overwrite bool
	artifact  bool
	// input is the parameter holding the incoming SDs: SD_VERSION or
	// SD_VERSION_MULTIPLE, SD_DATA or SD_DATA_MULTIPLE.
	input     string
	inputVal  value
	artifacts value
	// deltaDefaultMode is SD_DELTA when it was given as true without a
	// merge mode, which then is the default (noteDeltaDefaultMode).
	deltaDefaultMode *value
}

// readSettings checks the merge mode, SD_DELTA and the source type with its
// input parameters, in the order of §5 steps 2 and 3.
func readSettings(in Input) (settings, error) {
	var s settings
	// §3.2.
	s.mode = BasicMerge
	var modes [2]Mode
	for i, name := range []string{"SD_MERGE_MODE", "SD_REPO_MERGE_MODE"} {
		v := in.get(name)
		if !v.given() {
			continue
		}
		m, ok := ParseMode(v.text)
		if !ok {
			return s, errInvalidMode(v.pos(), name, strings.TrimSpace(v.text))
		}
		modes[i] = m
	}
	switch {
	case modes[0] != "" && modes[1] != "" && modes[0] != modes[1]:
		return s, errModesDiffer(string(modes[0]), string(modes[1]))
	case modes[0] != "":
		s.mode = modes[0]
	case modes[1] != "":
		s.mode = modes[1]
	}
	// §3.3.
	if v := in.get("SD_DELTA"); v.given() {
		switch strings.ToLower(strings.TrimSpace(v.text)) {
		case "true":
			if s.mode == Replace {
				return s, errDeltaConflictsReplace(v.pos())
			}
			if modes[0] == "" && modes[1] == "" {
				s.deltaDefaultMode = &v
			}
		case "false":
			s.overwrite = true
		default:
			return s, errInvalidDelta(v.pos(), strings.TrimSpace(v.text))
		}
	}
	if s.mode == Replace {
		s.overwrite = true
	}
	// §3.1, and the presence of the input parameters (§3.4, §3.5).
	st := in.get("SD_SOURCE_TYPE")
	switch strings.ToLower(strings.TrimSpace(st.text)) {
	case "artifact":
		s.artifact = true
		if err := s.pickInput(in, "SD_VERSION", errBothVersions, errNoVersion); err != nil {
			return s, err
		}
		s.artifacts = in.get("SD_ARTIFACT_DIR")
	case "json":
		if err := s.pickInput(in, "SD_DATA", errBothData, errNoData); err != nil {
			return s, err
		}
	default:
		return s, errSourceType(st.pos())
	}
	return s, nil
}

// pickInput sets the input parameter to name or to name_MULTIPLE, the one
// of them that is given; both is the error errBoth, neither errNone.
func (s *settings) pickInput(in Input, name string, errBoth, errNone func() error) error {
	one, many := in.get(name), in.get(name+"_MULTIPLE")
	switch {
	case one.given() && many.given():
		return errBoth()
	case one.given():
		s.input, s.inputVal = name, one
	case many.given():
		s.input, s.inputVal = name+"_MULTIPLE", many
	default:
		return errNone()
	}
	return nil
}
