package complete

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"v4t/model/validate"
)

// Spec completion.md §9.3 (catalog file) and §9.1 (query semantics).

// Number is a numeric image field as JSON wrote it: Python prints an
// integer as an integer and a float as a float, so the text decides.
type Number struct {
	Float float64
	// Int is set when the JSON text was an integer.
	Int bool
}

// pyText renders the number as Python's str() would, "None" for nil.
func (n *Number) pyText() string {
	if n == nil {
		return "None"
	}
	if n.Int && math.Abs(n.Float) < 1<<53 {
		return strconv.FormatInt(int64(n.Float), 10)
	}
	return pyFloat(n.Float)
}

// Software is one entry of an image's softwares list.
type Software struct {
	Name string
	// Ver is the version; VerOK is false when it was not a string, which
	// no version query matches.
	Ver   string
	VerOK bool
}

// Image is a DockerFinder image document. Fields other than these are
// passed through in Raw and otherwise ignored.
type Image struct {
	Name string
	// Size (bytes), Pulls and Stars are nil when null or missing.
	Size, Pulls, Stars *Number
	// Distro is nil when null, missing or not a string.
	Distro    *string
	Softwares []Software
	// Raw is the image document as read.
	Raw json.RawMessage
}

// Catalog is an offline image catalog (completion.md §9.3).
type Catalog struct {
	// Software is the supported software list, as /api/software returns it.
	Software []string
	Images   []*Image
}

// CatalogError is a missing, unreadable or malformed catalog. Line and Col
// place a JSON syntax error (0 when there is no place).
type CatalogError struct {
	File      string
	Reason    string
	Line, Col int
}

func (e *CatalogError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: cannot load catalog: %s", e.File, e.Line, e.Col, e.Reason)
	}
	return fmt.Sprintf("cannot load catalog %q: %s", e.File, e.Reason)
}

// syntaxError is a JSON syntax error at a byte offset of the catalog.
type syntaxError struct {
	offset int64
	msg    string
}

func (e *syntaxError) Error() string { return "invalid JSON: " + e.msg }

// LoadCatalog reads a catalog file. Every failure is a *CatalogError with a
// one-line reason.
func LoadCatalog(path string) (*Catalog, error) {
	data, err := validate.ReadFile(path) // bounded: a device never ends
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &CatalogError{File: path, Reason: err.Error()}
	}
	c, err := ParseCatalog(data)
	if err != nil {
		ce := &CatalogError{File: path, Reason: err.Error()}
		var se *syntaxError
		if errors.As(err, &se) {
			ce.Line, ce.Col = lineCol(data, se.offset)
		}
		return nil, ce
	}
	return c, nil
}

// lineCol is the 1-based line and column (in bytes) of the error that
// encoding/json reports at offset: the offset counts the bytes read,
// including the offending one.
func lineCol(data []byte, offset int64) (int, int) {
	offset = max(0, min(offset-1, int64(len(data))))
	before := data[:offset]
	line := 1 + bytes.Count(before, []byte{'\n'})
	return line, int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// ParseCatalog reads a catalog from JSON: an object with "software" and
// "images", or a bare array of images.
func ParseCatalog(data []byte) (*Catalog, error) {
	bom := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		data, bom = data[3:], 3
	}
	trimmed := bytes.TrimSpace(data)
	// Offsets of syntax errors count from the start of the file.
	lead := int64(bom + len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
	if len(trimmed) == 0 {
		return nil, errors.New("empty file")
	}
	var rawImages []json.RawMessage
	var software []json.RawMessage
	haveSoftware := false
	if trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &rawImages); err != nil {
			return nil, jsonError(err, lead)
		}
	} else {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &top); err != nil {
			return nil, jsonError(err, lead)
		}
		if top == nil {
			return nil, errors.New("expected an object with \"images\", or an array of images")
		}
		if raw, ok := top["images"]; ok && !isJSONNull(raw) {
			if err := json.Unmarshal(raw, &rawImages); err != nil {
				return nil, errors.New("\"images\" must be an array of image objects")
			}
		}
		if raw, ok := top["software"]; ok && !isJSONNull(raw) {
			haveSoftware = true
			if err := json.Unmarshal(raw, &software); err != nil {
				return nil, errors.New("\"software\" must be an array")
			}
		}
	}
	c := &Catalog{Images: make([]*Image, 0, len(rawImages))}
	for i, raw := range rawImages {
		img, err := ParseImage(raw)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", i+1, err)
		}
		c.Images = append(c.Images, img)
	}
	if haveSoftware {
		for i, raw := range software {
			name, err := softwareName(raw)
			if err != nil {
				return nil, fmt.Errorf("software entry %d: %w", i+1, err)
			}
			c.Software = append(c.Software, name)
		}
	} else {
		c.Software = softwareOfImages(c.Images)
	}
	return c, nil
}

func jsonError(err error, lead int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &syntaxError{offset: lead + se.Offset, msg: se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("expected an object with \"images\", or an array of images, found a JSON %s", te.Value)
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

func isJSONNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// softwareName reads a software list entry: a name, or an object with a
// "name" field as /api/software returns it.
func softwareName(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var obj struct {
		Name *string `json:"name"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.Name == nil {
		return "", errors.New(`expected a name or an object with a "name" string`)
	}
	return *obj.Name, nil
}

// softwareOfImages is the sorted set of software names in the images.
func softwareOfImages(images []*Image) []string {
	seen := map[string]bool{}
	var names []string
	for _, img := range images {
		for _, sw := range img.Softwares {
			if !seen[sw.Name] {
				seen[sw.Name] = true
				names = append(names, sw.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// ParseImage reads one DockerFinder image document.
func ParseImage(raw json.RawMessage) (*Image, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return nil, errors.New("expected an image object")
	}
	img := &Image{Raw: append(json.RawMessage(nil), raw...)}
	if err := json.Unmarshal(doc["name"], &img.Name); err != nil || doc["name"] == nil || isJSONNull(doc["name"]) {
		return nil, errors.New(`"name" must be a string`)
	}
	var err error
	for _, f := range []struct {
		key string
		dst **Number
	}{{"size", &img.Size}, {"pulls", &img.Pulls}, {"stars", &img.Stars}} {
		if *f.dst, err = parseNumber(doc[f.key]); err != nil {
			return nil, fmt.Errorf("%s: %q must be a number or null", img.Name, f.key)
		}
	}
	if raw, ok := doc["distro"]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			img.Distro = &s
		}
	}
	if raw, ok := doc["softwares"]; ok && !isJSONNull(raw) {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("%s: \"softwares\" must be a list of {software, ver} objects", img.Name)
		}
		for _, e := range list {
			var sw Software
			if err := json.Unmarshal(e["software"], &sw.Name); err != nil || e["software"] == nil {
				return nil, fmt.Errorf("%s: a softwares entry needs a \"software\" string", img.Name)
			}
			if e["ver"] != nil && json.Unmarshal(e["ver"], &sw.Ver) == nil {
				sw.VerOK = !isJSONNull(e["ver"])
			}
			img.Softwares = append(img.Softwares, sw)
		}
	}
	return img, nil
}

// parseNumber reads a numeric field; missing and null give nil.
func parseNumber(raw json.RawMessage) (*Number, error) {
	if raw == nil || isJSONNull(raw) {
		return nil, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, err
	}
	f, err := n.Float64()
	if err != nil && !isRangeErr(err) {
		return nil, err
	}
	return &Number{Float: f, Int: !strings.ContainsAny(n.String(), ".eE")}, nil
}

// SupportedSoftware implements Source.
func (c *Catalog) SupportedSoftware(context.Context) ([]string, error) {
	return append([]string(nil), c.Software...), nil
}

// Search implements Source: the catalog answers as DockerFinder's /search
// would (completion.md §9.1), and offers every catalog image to the choice.
func (c *Catalog) Search(_ context.Context, q *Query) (*SearchResult, error) {
	res := &SearchResult{Pool: c.Images, Match: make([]bool, len(c.Images))}
	var matches []*Image
	for i, img := range c.Images {
		if q.Matches(img) {
			res.Match[i] = true
			matches = append(matches, img)
		}
	}
	res.Count = len(matches)
	sortImages(matches, q.Sort)
	if len(matches) > PageSize {
		matches = matches[:PageSize]
	}
	res.Page = matches
	return res, nil
}

// PageSize is the number of images DockerFinder returns.
const PageSize = 20

// sortImages orders images by the sort keys, stably: ties keep their
// order. A null field sorts below every number (so last when descending).
func sortImages(images []*Image, keys []SortKey) {
	sort.SliceStable(images, func(i, j int) bool {
		for _, k := range keys {
			c := compareField(k.Field.of(images[i]), k.Field.of(images[j]))
			if c == 0 {
				continue
			}
			if k.Desc {
				return c > 0
			}
			return c < 0
		}
		return false
	})
}

// compareField compares two field values; nil is below every number.
func compareField(a, b *Number) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	case a.Float < b.Float:
		return -1
	case a.Float > b.Float:
		return 1
	}
	return 0
}
