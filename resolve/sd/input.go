package sd

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"v4t/model/diag"
	"v4t/model/yamlsrc"
)

// incoming obtains the incoming SDs SD[0], SD[1], ... (§3.4, §3.5, §5 step
// 5).
func incoming(s settings) ([]*doc, error) {
	var docs []*doc
	var err error
	if s.artifact {
		docs, err = fromArtifacts(s)
	} else {
		docs, err = fromJSON(s.input, s.inputVal)
	}
	if err != nil {
		return nil, err
	}
	for i, d := range docs {
		d.label = fmt.Sprintf("SD[%d]", i)
	}
	return docs, nil
}

// fromJSON reads SD_DATA or SD_DATA_MULTIPLE (§3.5): one non-empty SD
// object, or a non-empty list of SD objects.
func fromJSON(param string, v value) ([]*doc, error) {
	root, err := yamlsrc.ParseJSON([]byte(v.text), v.from)
	if err != nil {
		return nil, jsonError(err, func(pos diag.Pos, detail string) error { return errDataJSON(pos, param, detail) })
	}
	shape := errDataShape(v.pos(), param)
	switch {
	case root.IsMap() && root.Map().Len() > 0:
		return []*doc{{v: root, file: v.from}}, nil
	case root.IsList() && len(root.List()) > 0:
		docs := make([]*doc, len(root.List()))
		for i, x := range root.List() {
			if !x.IsMap() {
				return nil, shape
			}
			docs[i] = &doc{v: x, file: v.from}
		}
		return docs, nil
	}
	return nil, shape
}

// jsonError turns a parse diagnostic into the message of the caller, with
// the parser's text as the detail and its position kept.
func jsonError(err error, build func(pos diag.Pos, detail string) error) error {
	d, ok := diag.As(err)
	if !ok {
		return build(diag.Pos{}, err.Error())
	}
	return build(d.Pos, d.Message)
}

// entry is one artifact reference name:version.
type entry struct {
	text, name, version string
}

// parseVersions reads SD_VERSION or SD_VERSION_MULTIPLE (§3.4 steps 1-6).
func parseVersions(param string, v value) ([]entry, error) {
	s := strings.TrimSpace(strings.ReplaceAll(v.text, `\n`, "\n"))
	kinds, delim := 0, ""
	for _, d := range []string{",", ";", " ", "\n"} {
		if strings.Contains(s, d) {
			kinds++
			delim = d
		}
	}
	if kinds > 1 {
		return nil, errDelimiters(v.pos(), param)
	}
	parts := []string{s}
	if delim != "" {
		parts = strings.Split(s, delim)
	}
	var entries []entry
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			entries = append(entries, entry{text: p})
		}
	}
	if len(entries) == 0 {
		return nil, errNoVersions(v.pos(), param)
	}
	for i := range entries {
		e := &entries[i]
		name, version, found := strings.Cut(e.text, ":")
		if !found || !validPart(name) || !validPart(version) {
			return nil, errVersionFormat(v.pos(), param, e.text)
		}
		if strings.Contains(version, "SNAPSHOT") {
			return nil, errSnapshot(v.pos(), e.text)
		}
		e.name, e.version = name, version
	}
	return entries, nil
}

// validPart reports whether a name or version may be used in a path.
func validPart(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`)
}

// artifactDir reads the artifact location: a directory, or a file URL with
// an empty host or localhost (§3.4).
func artifactDir(v value) (string, error) {
	if !v.given() {
		return "", errNoArtifactLocation()
	}
	raw := strings.TrimSpace(v.text)
	scheme, rest, isURL := strings.Cut(raw, "://")
	if !isURL {
		return raw, nil
	}
	unsupported := errUnsupportedArtifactDir(v.pos(), raw)
	if !strings.EqualFold(scheme, "file") {
		return "", unsupported
	}
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	if (host != "" && !strings.EqualFold(host, "localhost")) || path == "" {
		return "", unsupported
	}
	p, err := url.PathUnescape(path)
	if err != nil {
		return "", unsupported
	}
	return filepath.FromSlash(p), nil
}

// fromArtifacts reads the SDs named by SD_VERSION or SD_VERSION_MULTIPLE:
// first every entry is checked, then the location, then each file in order.
func fromArtifacts(s settings) ([]*doc, error) {
	entries, err := parseVersions(s.input, s.inputVal)
	if err != nil {
		return nil, err
	}
	dir, err := artifactDir(s.artifacts)
	if err != nil {
		return nil, err
	}
	docs := make([]*doc, len(entries))
	for i, e := range entries {
		if docs[i], err = readArtifact(dir, e); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// readArtifact reads one artifact from the Maven-like or the flat layout.
func readArtifact(dir string, e entry) (*doc, error) {
	file := e.name + "-" + e.version + ".json"
	for _, p := range []string{filepath.Join(dir, e.name, e.version, file), filepath.Join(dir, file)} {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && st.IsDir()) {
			continue
		}
		data, err := yamlsrc.ReadNamedFile(p)
		if err != nil {
			return nil, errNotReceived(e.name, e.version, fmt.Sprintf("%s: cannot read: %v", p, unwrapPath(err)))
		}
		root, err := yamlsrc.ParseJSON(data, p)
		if err != nil {
			return nil, jsonError(err, func(pos diag.Pos, detail string) error {
				return errArtifactJSON(pos, e.name, e.version, detail)
			})
		}
		if !root.IsMap() || root.Map().Len() == 0 {
			return nil, errArtifactNotObject(diag.Pos{File: p, Line: int(root.Line), Col: int(root.Col)}, e.name, e.version)
		}
		return &doc{v: root, file: p}, nil
	}
	return nil, errNotReceived(e.name, e.version, "")
}
