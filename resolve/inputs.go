package resolve

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"sort"
	"strings"

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
func assignments(doc *yamlsrc.Value, in Input, opts Options) (*yamlsrc.Value, error) {
	assigned := yamlsrc.NewMap()
	presets := in.Presets
	if len(presets) == 0 && opts.LookupEnv != nil {
		if raw, ok := opts.LookupEnv(envPresets); ok {
			v := looseParse(raw)
			switch {
			case v.IsList():
				for _, p := range v.List {
					presets = append(presets, yamlsrc.KeyString(p))
				}
			default:
				presets = []string{yamlsrc.KeyString(v)}
			}
		}
	}
	defs := doc.Get("topology_template").Get("variability").Get("presets")
	for _, name := range presets {
		set := defs.Get(name)
		if set.IsNull() {
			return nil, diag.At(diag.Pos{File: in.TemplatePath}, diag.StageInputs,
				`Did not find variability preset "`+name+`"`)
		}
		if inputs := set.Get("inputs"); inputs.IsMap() {
			merge(assigned, inputs)
		}
	}
	if in.InputsPath != "" {
		file := yamlsrc.NewMap()
		if opts.LookupEnv != nil {
			for _, kv := range environ(opts) {
				merge(file, yamlsrc.MapOf(kv[0], looseParse(kv[1])))
			}
		}
		var data *yamlsrc.Value
		var err error
		if strings.HasSuffix(in.InputsPath, ".xml") {
			data, err = loadFeatureIDE(in.InputsPath)
		} else {
			data, err = yamlsrc.LoadFile(in.InputsPath)
		}
		if err != nil {
			return nil, err
		}
		if !data.IsNull() && !data.IsMap() {
			return nil, diag.At(diag.Pos{File: in.InputsPath, Line: int(data.Line), Col: int(data.Col)}, diag.StageInputs,
				"expected variability inputs as a map, found "+kindName(data))
		}
		if data.IsMap() {
			merge(file, data)
		}
		merge(assigned, file)
	}
	for _, a := range in.Inputs {
		merge(assigned, yamlsrc.MapOf(a.Name, a.Value))
	}
	return assigned, nil
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
	raw, err := os.ReadFile(path)
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
		out.Map.Set(name, yamlsrc.NewBool(f.Automatic == "selected" || f.Manual == "selected"))
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
			out.Map.Set(normalize(key), looseParse(a.Value))
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

// environ lists the prefixed input variables, sorted for determinism.
func environ(opts Options) [][2]string {
	var out [][2]string
	if opts.Environ == nil {
		return nil
	}
	for _, kv := range opts.Environ() {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, envInputPrefix) {
			continue
		}
		out = append(out, [2]string{strings.ToLower(k[len(envInputPrefix):]), v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// merge is lodash's merge: maps merge recursively, lists index-wise, a
// null source value overwrites, other values replace (deep-copied).
func merge(dst, src *yamlsrc.Value) {
	for i, k := range src.Map.Keys() {
		sv := src.Map.Val(i)
		dv := dst.Map.Get(k)
		switch {
		case sv.IsMap() && dv.IsMap():
			merge(dv, sv)
		case sv.IsList() && dv.IsList():
			mergeList(dv, sv)
		default:
			dst.Map.Set(k, yamlsrc.Clone(sv))
		}
	}
}

func mergeList(dst, src *yamlsrc.Value) {
	for i, sv := range src.List {
		if i >= len(dst.List) {
			dst.List = append(dst.List, yamlsrc.Clone(sv))
			continue
		}
		dv := dst.List[i]
		switch {
		case sv.IsMap() && dv.IsMap():
			merge(dv, sv)
		case sv.IsList() && dv.IsList():
			mergeList(dv, sv)
		default:
			dst.List[i] = yamlsrc.Clone(sv)
		}
	}
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
				m.Map.Set(kt.(string), v)
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
				l.List = append(l.List, v)
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
