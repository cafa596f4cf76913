package complete

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"v4t/model/diag"
)

// Input is the input of a completion: a YAML template or a CSAR archive.
type Input struct {
	// Name is the input's path as the user gave it: it names the input in
	// positions, chooses its kind by suffix, anchors relative imports, and
	// gives the default output name.
	Name string
	// Data is the content of the file.
	Data []byte
}

// Source answers the queries: an offline *Catalog or a *DockerFinder.
type Source interface {
	// SupportedSoftware returns the supported software names (§9.2).
	SupportedSoftware(ctx context.Context) ([]string, error)
	// Search runs a query (§9.1).
	Search(ctx context.Context, q *Query) (*SearchResult, error)
}

var (
	_ Source = (*Catalog)(nil)
	_ Source = (*DockerFinder)(nil)
)

// SearchResult is the answer to a query.
type SearchResult struct {
	// Count is the total number of matching images.
	Count int
	// Page holds the first PageSize matches in policy order, as
	// DockerFinder returns them; only these can be picked interactively.
	Page []*Image
	// Pool is what the automatic choice is posed over, in source order
	// (ties go to the earliest), and Match says which of them satisfy the
	// query: the whole catalog for a catalog, the page for a service.
	Pool  []*Image
	Match []bool
}

// Chooser picks one image of a unit's page interactively and returns its
// index in page.
type Chooser func(ctx context.Context, unit string, page []*Image) (int, error)

// Options control a completion.
type Options struct {
	// Source answers the queries; required.
	Source Source
	// Components restricts completion to these node templates.
	Components []string
	// Force also re-completes components whose host names a node (-f).
	Force bool
	// Policy orders the images.
	Policy Policy
	// Constraints is the --constraints value, or "".
	Constraints string
	// Progress, if set, receives the progress lines of §2.2.
	Progress func(line string)
	// Choose, if set, picks the images instead of the policy (-i).
	Choose Chooser
	// AllowOutside lets the imports of a YAML template leave its
	// directory tree (README, "Limits").
	AllowOutside bool
	// Warn, if set, receives a warning for each part of Constraints that
	// is ignored (GlobalConstraints.Ignored), before anything else.
	Warn func(message string)
}

// UnitResult tells what happened to one unit.
type UnitResult struct {
	Name  string
	Group bool
	// Query is the wire form of the unit's query (§8.5).
	Query string
	// Count is the number of matching images.
	Count int
	// Image is the chosen image, or nil when none matched.
	Image *Image
}

// Result is a completed (or partially completed) template.
type Result struct {
	// Output is the completed YAML document, or the completed archive for
	// a CSAR input.
	Output []byte
	// OutputName is the default output path: the input path with
	// "completed" or "partial" inserted before its suffix (§12).
	OutputName string
	// Partial is set when at least one unit got no image.
	Partial bool
	Units   []UnitResult
}

// OutputName returns the default output path of an input: its name split
// at the last ".", with "completed" or "partial" inserted (§12).
func OutputName(input string, partial bool) string {
	what := "completed"
	if partial {
		what = "partial"
	}
	ext := filepath.Ext(input)
	return strings.TrimSuffix(input, ext) + "." + what + ext
}

// Complete runs the completion pipeline of completion.md §1 on one input.
// It returns the result, or as the error the diagnostics (a diag.List) of
// the first stage that failed, each message in the reference's words and
// order; it never writes files. Units that get no image are not an error:
// the result is then partial (Result.Partial, Result.Units), and ignored
// constraints go to Options.Warn.
func Complete(ctx context.Context, in Input, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = diag.List{&diag.Diagnostic{Pos: diag.Pos{File: in.Name}, Stage: StageWrite, Code: "internal",
				Message: fmt.Sprintf("internal error: %v (a bug in v4t: please report it)", r),
				Related: []diag.Related{{Message: string(debug.Stack())}}}}
		}
	}()
	res, diags := run(ctx, in, opts)
	if len(diags) > 0 {
		return nil, diags
	}
	return res, nil
}

// run is Complete, with the diagnostics as a list.
func run(ctx context.Context, in Input, opts Options) (*Result, diag.List) {
	global := ParseConstraints(opts.Constraints)
	if opts.Warn != nil {
		for _, w := range global.Ignored {
			opts.Warn(w)
		}
	}
	if opts.Source == nil {
		return nil, diag.List{newDiag(StageSource, "source", diag.Pos{}, "no image source: give a catalog or a DockerFinder service")}
	}
	t, diags := loadTemplate(in, opts.AllowOutside)
	if len(diags) > 0 {
		return nil, diags
	}
	if diags := t.checkComponents(opts.Components); len(diags) > 0 {
		return nil, diags
	}
	software, err := opts.Source.SupportedSoftware(ctx)
	if err != nil {
		return nil, sourceDiag(err)
	}
	if diags := t.checkFilters(software); len(diags) > 0 {
		return nil, diags
	}
	if diags := t.checkGroups(opts.Force); len(diags) > 0 {
		return nil, diags
	}
	units, diags := t.selectUnits(opts.Components, opts.Force)
	if len(diags) > 0 {
		return nil, diags
	}
	res := &Result{}
	var queryDiags diag.List
	progress := func(line string) {
		if opts.Progress != nil {
			opts.Progress(line)
		}
	}
	for _, u := range units {
		if err := ctx.Err(); err != nil {
			return nil, diag.List{newDiag(StageQuery, "canceled", diag.Pos{File: in.Name}, err.Error())}
		}
		q, msgs := buildQuery(u.constraints, opts.Policy, global)
		if len(msgs) > 0 {
			at := t.unitPos(u)
			for _, m := range msgs {
				queryDiags.Add(newDiag(StageQuery, "query", at, m))
			}
			continue
		}
		ur := UnitResult{Name: u.name, Group: u.group != nil, Query: q.Wire()}
		found, err := opts.Source.Search(ctx, q)
		if err != nil {
			return nil, sourceDiag(err)
		}
		ur.Count = found.Count
		progress(progressFound(found.Count, u.name))
		if found.Count == 0 || len(found.Page) == 0 {
			progress(progressWarning(u.name))
			res.Partial = true
			res.Units = append(res.Units, ur)
			continue
		}
		img, err := pick(ctx, u, found, q, opts.Choose)
		if err != nil {
			return nil, diag.List{newDiag(StageQuery, "choice", t.unitPos(u), err.Error())}
		}
		ur.Image = img
		progress(progressComplete(u.group != nil, u.name, img))
		if err := t.rewrite(u, img); err != nil {
			panic(err) // the template was checked: a broken invariant
		}
		res.Units = append(res.Units, ur)
	}
	if len(queryDiags) > 0 {
		return nil, queryDiags
	}
	out, err := t.encode(in)
	if err != nil {
		return nil, diag.List{newDiag(StageWrite, "write", diag.Pos{File: in.Name}, err.Error())}
	}
	res.Output = out
	res.OutputName = OutputName(in.Name, res.Partial)
	return res, nil
}

// pick chooses the unit's image: interactively, or by the policy through
// the solver (§10.1).
func pick(ctx context.Context, u *unit, found *SearchResult, q *Query, choose Chooser) (*Image, error) {
	if choose != nil {
		i, err := choose(ctx, u.name, found.Page)
		if err != nil {
			return nil, err
		}
		if i < 0 || i >= len(found.Page) {
			return nil, fmt.Errorf("image number %d out of range", i+1)
		}
		return found.Page[i], nil
	}
	i, err := chooseImage(ctx, found.Pool, found.Match, q.Sort)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return nil, errors.New("no image satisfies the query")
	}
	return found.Pool[i], nil
}

// unitPos is where a unit's diagnostics point: its group, or its node.
func (t *template) unitPos(u *unit) diag.Pos {
	if u.group != nil {
		return t.at(u.group.val)
	}
	return t.at(u.nodes[0].val)
}

// sourceDiag turns a source failure into a diagnostic.
func sourceDiag(err error) diag.List {
	d := newDiag(StageSource, "source", diag.Pos{}, err.Error())
	var se *ServiceError
	if errors.As(err, &se) {
		d.Related = []diag.Related{{Message: se.Reason}}
	}
	return diag.List{d}
}

// encode writes the completed template, or the completed archive.
func (t *template) encode(in Input) ([]byte, error) {
	doc, err := encodeYAML(t.root)
	if err != nil {
		return nil, fmt.Errorf("cannot write the completed template: %w", err)
	}
	if t.csar == nil {
		return doc, nil
	}
	var b bytes.Buffer
	if err := t.csar.Write(&b, map[string][]byte{t.csar.Entry: doc}); err != nil {
		return nil, fmt.Errorf("cannot write the completed archive: %w", err)
	}
	return b.Bytes(), nil
}

// buildQuery builds a unit's query from its constraint list and the global
// constraints (§8.2–§8.4), with the unit's messages in order.
func buildQuery(constraints []entry, p Policy, g GlobalConstraints) (*Query, []string) {
	q := newQuery(p)
	var msgs []string
	for _, e := range collapse(constraints) {
		if !e.k.isStr() {
			continue
		}
		switch e.k.s {
		case "supported_sw":
			if !e.v.isList() {
				continue
			}
			for _, item := range e.v.l {
				for _, kv := range item.m {
					v := kv.v
					if !v.isStr() || !versionQuery().MatchString(v.s) {
						msgs = append(msgs, msgVersionFormat(pyStr(v)))
						continue
					}
					q.setSoftware(strings.ToLower(pyStr(kv.k)), versionPrefix(v.s))
				}
			}
		case "os_distribution":
			v := e.v
			if eq := v.get("equal"); eq != nil {
				v = eq
			}
			if v.isStr() {
				q.Distro, q.HasDistro = v.s, true
			}
		}
	}
	msgs = append(msgs, g.apply(q)...)
	return q, msgs
}
