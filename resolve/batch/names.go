package batch

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"v4t/resolve"
)

// maxLabel bounds the descriptive part of a result file name (after the
// run id), so that long preset lists stay under the file name limits of
// common file systems (255 bytes).
const maxLabel = 100

// FileName is the name of the run's result file (v4t batch --out):
// RUN-ID-TEMPLATE-PRESETS.yaml, where TEMPLATE is the template's base name
// without .yaml or .yml and PRESETS the preset set joined by "+", or
// "defaults" for the empty set; e.g. run-007-shop-static+kubernetes.yaml.
// Both parts are sanitised (safeName) and together cut to maxLabel
// characters. The run id stays the prefix, so the names sort in run order
// and stay unique, and the same run always gets the same name.
func (r *Run) FileName() string {
	base := filepath.Base(filepath.FromSlash(r.Template))
	for _, ext := range []string{".yaml", ".yml", ".YAML", ".YML"} {
		if t := strings.TrimSuffix(base, ext); t != base && t != "" {
			base = t
			break
		}
	}
	presets := "defaults"
	if len(r.Presets) > 0 {
		parts := make([]string, len(r.Presets))
		for i, p := range r.Presets {
			parts[i] = safeName(p, "")
		}
		presets = strings.Join(parts, "+")
	}
	label := safeName(base, "") + "-" + presets
	if len(label) > maxLabel {
		label = label[:maxLabel]
	}
	return r.ID + "-" + label + ".yaml"
}

// runFile matches the names of result files v4t batch writes: the run id
// (run- and digits), then optionally "-" and a sanitised label, and
// .yaml. The label is optional so that result files of earlier versions
// (run-007.yaml) count as v4t's own too.
var runFile = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(run-[0-9]+)(-[A-Za-z0-9._+-]*)?\.yaml$`)
})

// RunFileID reports whether name is the name of a result file of v4t batch
// (Run.FileName, or the RUN-ID.yaml of earlier versions) and returns its
// run id.
func RunFileID(name string) (id string, ok bool) {
	m := runFile().FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// ModeFileName is the name of the result file of a compare mode (v4t
// compare --out): the mode's option overrides as NAME=VALUE joined by ",",
// values in YAML flow style, sanitised (safeName, keeping "=" and ","),
// and .yaml; e.g. mode=manual,optimization_topology=max.yaml. A mode
// without options (the template's own) is defaults.yaml.
func ModeFileName(options []resolve.Assignment) string {
	if len(options) == 0 {
		return "defaults.yaml"
	}
	parts := make([]string, len(options))
	for i, a := range options {
		parts[i] = safeName(a.Name+"="+resolve.Flow(a.Value), "=")
	}
	return strings.Join(parts, ",") + ".yaml"
}

// safeName replaces every character of s but ASCII letters, digits, ".",
// "_", "-" and those in keep by "_", so that the result is a file name on
// any common file system that needs no quoting in a shell. An empty s is
// "_".
func safeName(s, keep string) string {
	if s == "" {
		return "_"
	}
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-', strings.ContainsRune(keep, c):
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
