package resolve

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// Spec variability.md §6 (variability inputs and presets).

const (
	envPresets     = "OPENTOSCA_VINTNER_VARIABILITY_PRESETS"
	envInputPrefix = "OPENTOSCA_VINTNER_VARIABILITY_INPUT_"
)

// assignments merges presets, the inputs file and single assignments into
// the assignment map.
// Names that no variability input declares are reported to names (names.go).
func assignments(doc *yamlsrc.Value, in Input, opts Options, names *nameCheck) (*yamlsrc.Value, error) {
	assigned := yamlsrc.NewMap()
	presets := in.Presets
	source := "--preset"
	if len(presets) == 0 && opts.LookupEnv != nil {
		if raw, ok := opts.LookupEnv(envPresets); ok {
			source = envPresets
			v := looseParse(raw)
			switch {
			case v.IsList():
				for _, p := range v.List() {
					presets = append(presets, yamlsrc.String(p))
				}
			default:
				presets = []string{yamlsrc.String(v)}
			}
		}
	}
	defs := doc.Get("topology_template").Get("variability").Get("presets")
	for _, name := range presets {
		set := defs.Get(name)
		if set.IsNull() {
			return nil, unknownPreset(in.TemplatePath, defs, name, source)
		}
		names.presetInputs(name, set.Get("inputs"))
		mergeAny(assigned, set.Get("inputs"), doc.Get("topology_template").Get("variability").Get("inputs"))
	}
	if in.InputsPath != "" {
		file := yamlsrc.NewMap()
		if opts.LookupEnv != nil {
			for _, kv := range environ(opts) {
				names.input(kv[0], kv[2], diag.Pos{})
				merge(file, yamlsrc.MapOf(kv[0], looseParse(kv[1])))
			}
		}
		var data *yamlsrc.Value
		var err error
		xml := in.InputsData == nil && strings.HasSuffix(in.InputsPath, ".xml")
		if xml {
			data, err = loadFeatureIDE(in.InputsPath)
		} else {
			data, err = loadGiven(in.InputsPath, in.InputsData)
		}
		if err != nil {
			return nil, err
		}
		if !data.IsNull() && !data.IsMap() {
			return nil, diag.At(diag.Pos{File: in.InputsPath, Line: int(data.Line), Col: int(data.Col)}, diag.StageInputs,
				"expected variability inputs as a map, found "+kindName(data))
		}
		if data.IsMap() {
			if !xml {
				names.fileInputs(data)
			}
			merge(file, data)
		}
		merge(assigned, file)
	}
	for _, a := range in.Inputs {
		names.input(a.Name, a.Origin, diag.Pos{})
		merge(assigned, yamlsrc.MapOf(a.Name, a.Value))
	}
	return assigned, nil
}

// unknownPreset is the reference's error for a preset that the template
// does not declare (or declares null), at the template's presets (a map,
// or whatever stands there) where it has them. The message stays the
// reference's, verbatim (conformance compares it); the related note, at
// the same place, completes it for a reader: where the name came from
// (source: --preset for the caller's list, which the conformance runner
// fills from a test's presets, or the environment variable) and a declared
// preset it may be a typo of, e.g. `from --preset; did you mean "large"?`.
func unknownPreset(file string, defs *yamlsrc.Value, name, source string) error {
	pos := diag.Pos{File: file}
	if defs != nil && defs.Line > 0 {
		pos.Line, pos.Col = int(defs.Line), int(defs.Col)
	}
	d := diag.At(pos, diag.StageInputs, msgPresetNotFound(name))
	d.Code = "unknown-preset"
	note := "from " + source
	if !defs.IsMap() || defs.Map().Len() == 0 {
		note += "; the template declares no presets"
	} else {
		var declared []string
		for i, k := range defs.Map().Keys() {
			if !defs.Map().Val(i).IsNull() {
				declared = append(declared, k)
			}
		}
		switch hint := diag.DidYouMean(name, slices.Values(declared)); {
		case hint != "":
			note += "; " + strings.TrimSuffix(strings.TrimPrefix(hint, " ("), ")")
		case len(declared) == 0:
			note += "; the template declares no presets"
		default:
			note += "; the template declares " + quotedList(declared, "preset", "presets")
		}
	}
	d.Related = []diag.Related{{Pos: pos, Message: note}}
	return d
}

// maxListed bounds the names a message lists.
const maxListed = 10

// quotedList lists names for a message, quoted, in their order: `the
// preset "a"`, `the presets "a" and "b"`, `the presets "a", "b" and "c"`;
// beyond maxListed names, the first ones and how many more there are.
func quotedList(names []string, one, many string) string {
	if len(names) == 1 {
		return "the " + one + " " + strconv.Quote(names[0])
	}
	q := make([]string, 0, min(len(names), maxListed))
	for _, n := range names[:min(len(names), maxListed)] {
		q = append(q, strconv.Quote(n))
	}
	if len(names) > maxListed {
		return "the " + many + " " + strings.Join(q, ", ") + " and " + strconv.Itoa(len(names)-maxListed) + " more"
	}
	return "the " + many + " " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// featureConfig is a FeatureIDE extended configuration.
type featureConfig struct {
	XMLName  xml.Name `xml:"extendedConfiguration"`
	Features []struct {
		Name       string `xml:"name,attr"`
		Automatic  string `xml:"automatic,attr"`
		Manual     string `xml:"manual,attr"`
		Attributes []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"attribute"`
	} `xml:"feature"`
}

// loadFeatureIDE reads a FeatureIDE extended configuration as variability
// inputs (§6): a boolean per feature, and <feature>_<attribute> values.
func loadFeatureIDE(path string) (*yamlsrc.Value, error) {
	raw, err := yamlsrc.ReadFile(path)
	if err != nil {
		d := diag.New(diag.StageInputs, path+": cannot read: "+unwrapPathError(err).Error())
		d.Code = yamlsrc.CodeRead
		return nil, d
	}
	var cfg featureConfig
	dec := xml.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&cfg); err != nil {
		// Where the decoder stopped: the offending token, or the end.
		line, col := dec.InputPos()
		msg := err.Error()
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			msg = "XML syntax error: " + se.Msg
		}
		return nil, diag.At(diag.Pos{File: path, Line: line, Col: col}, diag.StageInputs, "invalid FeatureIDE configuration: "+msg)
	}
	normalize := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "_") }
	out := yamlsrc.NewMap()
	for _, f := range cfg.Features {
		name := normalize(f.Name)
		attr := func(n string) (string, bool) {
			for _, a := range f.Attributes {
				if a.Name == n {
					return a.Value, true
				}
			}
			return "", false
		}
		if v, ok := attr("__name"); ok {
			name = v
		}
		out.Map().Set(name, yamlsrc.NewBool(f.Automatic == "selected" || f.Manual == "selected"))
		for _, a := range f.Attributes {
			if strings.HasPrefix(a.Name, "__") {
				continue
			}
			an := normalize(a.Name)
			key := name + "_" + an
			if v, ok := attr("__name_" + an); ok {
				key = name + "_" + v
			}
			if v, ok := attr("__full_name_" + an); ok {
				key = v
			}
			out.Map().Set(normalize(key), looseParse(a.Value))
		}
	}
	return out, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// environ lists the prefixed input variables as the input name, the value
// and the variable's name, sorted for determinism.
func environ(opts Options) [][3]string {
	var out [][3]string
	if opts.Environ == nil {
		return nil
	}
	for _, kv := range opts.Environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, envInputPrefix) {
			continue
		}
		out = append(out, [3]string{strings.ToLower(k[len(envInputPrefix):]), v, k})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][2] < out[j][2] })
	return out
}

// mergeAny is lodash's merge of any source value into a map, as the
// reference applies a preset's inputs: a map merges, a list merges its
// entries under the keys "0", "1", ..., and so does a string its UTF-16
// code units (a for-in loop over a string); anything else adds nothing.
// Only declared variability inputs are ever read from the assignments
// (expr.Evaluator.input, the validator, open inputs), so of a list or a
// string only the entries whose index names a declared input are merged:
// the same result for every lookup, without a key per character of a long
// string.
func mergeAny(dst, src, declared *yamlsrc.Value) {
	var n int
	var at func(i int) *yamlsrc.Value
	switch {
	case src.IsMap():
		merge(dst, src)
		return
	case src.IsList():
		n, at = len(src.List()), func(i int) *yamlsrc.Value { return src.List()[i] }
	case src.IsString():
		units := utf16.Encode([]rune(src.Str()))
		n, at = len(units), func(i int) *yamlsrc.Value {
			return yamlsrc.NewString(string(utf16.Decode(units[i : i+1])))
		}
	default:
		return
	}
	if !declared.IsMap() {
		return
	}
	m := yamlsrc.NewMap()
	for _, k := range declared.Map().Keys() {
		if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < n && strconv.Itoa(i) == k {
			m.Map().Set(k, at(i))
		}
	}
	merge(dst, m)
}

// merge is lodash's merge: maps merge recursively, lists index-wise, a
// null source value overwrites, other values replace (deep-copied).
func merge(dst, src *yamlsrc.Value) {
	for i, k := range src.Map().Keys() {
		sv := src.Map().Val(i)
		if !mergeInto(dst.Map().Get(k), sv) {
			dst.Map().Set(k, yamlsrc.Clone(sv))
		}
	}
}

func mergeList(dst, src *yamlsrc.Value) {
	for i, sv := range src.List() {
		switch {
		case i >= len(dst.List()):
			dst.SetList(append(dst.List(), yamlsrc.Clone(sv)))
		case !mergeInto(dst.List()[i], sv):
			dst.List()[i] = yamlsrc.Clone(sv)
		}
	}
}

// mergeInto merges src into dst and returns true where both are maps or
// both are lists; else it returns false, and the caller replaces dst.
func mergeInto(dst, src *yamlsrc.Value) bool {
	switch {
	case src.IsMap() && dst.IsMap():
		merge(dst, src)
	case src.IsList() && dst.IsList():
		mergeList(dst, src)
	default:
		return false
	}
	return true
}

// looseParse is the reference's JSON.parse with the raw string as fallback.
func looseParse(s string) *yamlsrc.Value {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return yamlsrc.NewString(s)
	}
	if _, err := dec.Token(); err != io.EOF {
		return yamlsrc.NewString(s)
	}
	return v
}

func jsonValue(dec *json.Decoder) (*yamlsrc.Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := yamlsrc.NewMap()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				m.Map().Set(kt.(string), v)
			}
			_, err := dec.Token()
			return m, err
		case '[':
			l := yamlsrc.NewList()
			for dec.More() {
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				l.SetList(append(l.List(), v))
			}
			_, err := dec.Token()
			return l, err
		}
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewNumber(f), nil
	case string:
		return yamlsrc.NewString(t), nil
	case bool:
		return yamlsrc.NewBool(t), nil
	case nil:
		return yamlsrc.NewNull(), nil
	}
	return nil, io.ErrUnexpectedEOF
}
