package complete

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// unitA is a template body of one node, a, whose host must have the
// software sw, e.g. "{node: 6.x}".
func unitA(sw string) string {
	return testkit.HostFilterNode("a", "tosker.nodes.Software", "supported_sw: ["+sw+"]")
}

// smallCatalog serves the tests of this file.
const smallCatalog = `{"software": ["node", "npm", "ruby", "wget", "python", "pip"], "images": [
 {"name": "node:6-alpine", "size": 50000000, "pulls": 1000, "stars": 50, "distro": "Alpine Linux v3.6",
  "softwares": [{"software": "node", "ver": "6.11.1"}, {"software": "npm", "ver": "3.10.10"}, {"software": "wget", "ver": "1.16"}]},
 {"name": "node:6", "size": 600000000, "pulls": 9000, "stars": 40, "distro": "Debian GNU/Linux 8 (jessie)",
  "softwares": [{"software": "node", "ver": "6.11.2"}, {"software": "npm", "ver": "3.10.10"}, {"software": "ruby", "ver": "2.3.1"}]},
 {"name": "python:3", "size": 700000000, "pulls": 8000, "stars": 30, "distro": "Debian GNU/Linux 9 (stretch)",
  "softwares": [{"software": "python", "ver": "3.6.4"}, {"software": "pip", "ver": "9.0.1"}]}
]}`

// completeYAML runs a completion of a template body (node templates, and
// optionally groups after a "  groups:" line) against smallCatalog.
func completeYAML(t *testing.T, body string, opts Options) (*Result, []string) {
	t.Helper()
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(t, err)
	opts.Source = c
	res, err := Complete(context.Background(), Input{Name: "t.yaml", Data: []byte(testkit.ToskerHeader + body)}, opts)
	var msgs []string
	for _, d := range diag.ListOf(err) {
		msgs = append(msgs, d.Message)
	}
	return res, msgs
}

// nodeTemplates parses an output document's node templates.
func nodeTemplates(t *testing.T, out []byte) *value {
	t.Helper()
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal(out, &n))
	v, err := convert(&n, yaml12, false)
	require.NoError(t, err)
	return v.get("topology_template").get("node_templates")
}

func keys(v *value) []string {
	var out []string
	for _, e := range v.m {
		out = append(out, pyStr(e.k))
	}
	return out
}

// TestFilterValidation covers completion.md §5.2, including the
// improvements for entries that are not maps.
func TestFilterValidation(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"not a list", `
    a:
      type: tosker.nodes.Software
      requirements:
      - host:
          node_filter:
            properties:
              os_distribution: alpine
`, []string{`Node "a": "node_filter" requires a list of properties`}},
		{"entry not a map", testkit.HostFilterNode("a", "tosker.nodes.Software", "alpine"), []string{`Node "a": "node_filter" requires a list of properties`}},
		{"software entries", testkit.HostFilterNode("a", "tosker.nodes.Software",
			"supported_sw: [{node: 6.10}, {Node: 6.x}, {ruby: true}, npm, {wget: '6.'}]", "os_distribution: 3"), []string{
			`Node "a": software version "node:6.1" must be a string with this pattern ([0-9].)*[0-9]+ or ([0-9].)*x (i.e. 1.2.2, 1.2.x).`,
			`Node "a": software "Node" is not supported`,
			`Node "a": software version "ruby:True" must be a string with this pattern ([0-9].)*[0-9]+ or ([0-9].)*x (i.e. 1.2.2, 1.2.x).`,
			`Node "a": "supported_sw" must be a list of software`,
			`Node "a": property "os_distribution" must be a string.`,
		}},
		{"every node, selected or not", testkit.HostFilterNode("a", "tosker.nodes.Container", "supported_sw: {node: 6.x}"), []string{`Node "a": "supported_sw" must be a list of software`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, msgs := completeYAML(t, tc.body, Options{})
			require.Nil(t, res)
			require.Equal(t, tc.want, msgs)
		})
	}
}

// TestSelection covers completion.md §6.
func TestSelection(t *testing.T) {
	base := `
    c:
      type: tosker.nodes.Container
    a:
      type: tosker.nodes.Software
      requirements:
      - host:
          node_filter:
            properties:
            - supported_sw:
              - node: 6.x
    b:
      type: tosker.nodes.Software
      requirements:
      - host: c
    d:
      type: tosker.nodes.Software
      requirements:
      - host: b
    e:
      type: tosker.nodes.Software
`
	tests := []struct {
		name       string
		components []string
		force      bool
		units      []string
		msgs       []string
	}{
		{"abstract only", nil, false, []string{"a"}, nil},
		{"force re-completes bottom components", nil, true, []string{"a", "b"}, nil},
		{"selection", []string{"b"}, true, []string{"b"}, nil},
		{"not bottom", []string{"d"}, true, nil, []string{"no abstract node founded"}},
		{"no host requirement is not completed", []string{"e"}, true, nil, []string{"no abstract node founded"}},
		{"unknown component", []string{"a", "ghost", "zz"}, false, nil, []string{`component "ghost" not founded`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, msgs := completeYAML(t, base, Options{Components: tc.components, Force: tc.force})
			require.Equal(t, tc.msgs, msgs)
			if tc.units == nil {
				require.Nil(t, res)
				return
			}
			require.NotNil(t, res)
			var units []string
			for _, u := range res.Units {
				units = append(units, u.Name)
			}
			require.Equal(t, tc.units, units)
		})
	}
}

// TestGroupValidation covers completion.md §5.3 on small templates.
func TestGroupValidation(t *testing.T) {
	body := `
    c1:
      type: tosker.nodes.Container
    c2:
      type: tosker.nodes.Container
    a:
      type: tosker.nodes.Software
      requirements:
      - host: c1
    b:
      type: tosker.nodes.Software
      requirements:
      - host: c2
    s:
      type: tosker.nodes.Software
      requirements:
      - host:
    x:
      type: tosker.nodes.Software
      requirements:
      - host: s
  groups:
    g:
      type: tosker.groups.DeploymentUnit
      members: [a, b, s]
`
	_, msgs := completeYAML(t, body, Options{})
	require.Equal(t, []string{
		`Group "g", not all members are hosted on the "c1" container (use -f to exclude this check)`,
		`Group "g", not all members are hosted on the "c1" container (use -f to exclude this check)`,
		`Node "x" requires a host to a node member of another group "g"`,
	}, msgs)
	_, msgs = completeYAML(t, body, Options{Force: true})
	require.Equal(t, []string{`Node "x" requires a host to a node member of another group "g"`}, msgs)
}

// TestMerge covers completion.md §7.
func TestMergeVersion(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"6.2.x", "6.2.0", "6.2.0"}, {"6.x", "6.2.x", "6.2.x"}, {"x", "1.x", "1.x"},
		{"1.8.3", "1.8.3", "1.8.3"}, {"6.2.x", "6.3.x", ""}, {"2", "1", ""}, {"6.2", "6.2.1", ""},
		{"6.2.0", "6.x", "6.2.0"}, {"x", "x", "x"},
	}
	for _, tc := range tests {
		got, ok := mergeVersion(newStr(tc.a), newStr(tc.b))
		require.Equal(t, tc.want != "", ok, "merge(%s, %s) succeeds", tc.a, tc.b)
		require.Equal(t, tc.want, got, "merge(%s, %s)", tc.a, tc.b)
	}
}

func TestMergeConstraints(t *testing.T) {
	lists := parseValue(t, `
- - supported_sw: [{node: 6.x}, {npm: x}]
  - ports: [{80: 8080}, {443: {get_input: p}}]
  - command: start
- null
- - supported_sw: [{node: 6.2.x}, {ruby: 2.x}]
  - ports: [{80: 8081}, {443: {get_input: p}}]
  - command: start
  - os_distribution: alpine
- - os_distribution: Alpine
  - env_variable: {get_property: [SELF, env]}
`, yaml11)
	merged, errs := mergeConstraints(lists.l)
	require.Equal(t, []string{
		`Cannot merge value "8080" with "8081" of property "ports.80"`,
		`Cannot merge value "alpine" with "Alpine" of property "os_distribution"`,
	}, errs)
	got := &value{kind: kMap, m: merged}
	require.Equal(t, "{'supported_sw': [{'node': '6.2.x'}, {'npm': 'x'}, {'ruby': '2.x'}], "+
		"'ports': [{80: 8080}, {443: {'get_input': 'p'}}], 'command': 'start', 'os_distribution': 'alpine', "+
		"'env_variable': {'get_property': ['SELF', 'env']}}", pyStr(got))
}

// TestRewrite covers completion.md §11 on the host requirement forms.
func TestRewrite(t *testing.T) {
	body := `
    # the shared old host stays while a requirement still names it
    old:
      type: tosker.nodes.Container
    single:
      type: tosker.nodes.Software
      requirements:
      - host:
    mapped:
      type: tosker.nodes.Software
      requirements:
      - host:
          node: old
          node_filter:
            properties:
            - supported_sw: [{node: 6.x}]
            - ports: [{8080: 80}, {8080: 81}]
            - ports: [{9000: 90}]
    other:
      type: tosker.nodes.Software
      requirements:
      - host: old
      - connection: old
    mapped_container:
      type: tosker.nodes.Container
`
	res, msgs := completeYAML(t, body, Options{Force: true, Components: []string{"single", "mapped"}})
	require.Nil(t, msgs)
	nts := nodeTemplates(t, res.Output)
	require.Equal(t, []string{"old", "single", "mapped", "other", "mapped_container", "single_container"}, keys(nts),
		"the existing container is replaced in place, the new one appended, the still-used host kept")
	require.Equal(t, "{'node': 'single_container'}", pyStr(nts.get("single").get("requirements").l[0].get("host")))
	mapped := nts.get("mapped").get("requirements").l[0].get("host")
	require.Equal(t, []string{"node", "node_filter"}, keys(mapped), "node keeps its place")
	require.Equal(t, "mapped_container", pyStr(mapped.get("node")))
	c := nts.get("mapped_container")
	require.Equal(t, "{9000: 90}", pyStr(c.get("properties").get("ports")), "the later ports property wins")
	require.Equal(t, "node:6-alpine", pyStr(c.get("artifacts").get("my_image").get("file")))
	require.Equal(t, "1.16", c.get("properties").get("supported_sw").get("wget").s)
	require.Equal(t, kStr, c.get("properties").get("supported_sw").get("wget").kind, "versions stay strings")
	require.Contains(t, string(res.Output), "# the shared old host stays", "comments are kept")

	// Once "other" is rewritten too, nothing names "old" any more.
	res, msgs = completeYAML(t, strings.Replace(body, "      - connection: old\n", "", 1), Options{Force: true})
	require.Nil(t, msgs)
	nts = nodeTemplates(t, res.Output)
	require.NotContains(t, keys(nts), "old")
	require.Equal(t, "other_container", pyStr(nts.get("other").get("requirements").l[0].get("host")))
}

// TestGroupNullHost checks the group member's string form (§11.1) and the
// merged constraints of the container.
func TestGroupUnit(t *testing.T) {
	body := `
    a:
      type: tosker.nodes.Software
      requirements:
      - host:
    b:
      type: tosker.nodes.Software
      requirements:
      - host:
          node_filter:
            properties:
            - supported_sw: [{node: 6.x}]
            - env_variable: [{A: 1}]
  groups:
    g:
      type: anything.at.All
      members: [a, b]
`
	var progress []string
	res, msgs := completeYAML(t, body, Options{Policy: MostUsed, Progress: func(l string) { progress = append(progress, l) }})
	require.Nil(t, msgs)
	require.Equal(t, []string{
		`founded 2 images for "g" node`,
		`complete group "g" with image "node:6" (600.00 MB, 9000 pulls, 40 stars)`,
	}, progress)
	nts := nodeTemplates(t, res.Output)
	require.Equal(t, "g_container", pyStr(nts.get("a").get("requirements").l[0].get("host")))
	require.Equal(t, "{'A': 1}", pyStr(nts.get("g_container").get("properties").get("env_variable")))
	require.Equal(t, "t.completed.yaml", res.OutputName)
}

// TestPartial checks a unit without images: a warning, a partial output
// with that unit untouched.
func TestPartial(t *testing.T) {
	body := unitA("{ruby: 9.x}")
	var progress []string
	res, msgs := completeYAML(t, body, Options{Progress: func(l string) { progress = append(progress, l) }})
	require.Nil(t, msgs)
	require.True(t, res.Partial)
	require.Equal(t, "t.partial.yaml", res.OutputName)
	require.Equal(t, []string{`founded 0 images for "a" node`, `[WARNING] node "a" will not be completed`}, progress)
	eq, err := ParsedEqual(res.Output, []byte(testkit.ToskerHeader+body))
	require.NoError(t, err)
	require.True(t, eq, "the output equals the input")
}

// TestQueryErrors checks that every unit's query errors are reported, in
// order, and that nothing is produced.
func TestQueryErrors(t *testing.T) {
	body := unitA("{node: '6.'}, {npm: x}") + `    b:
      type: tosker.nodes.Software
      requirements:
      - host:
`
	res, msgs := completeYAML(t, body, Options{Constraints: "size=5MB pulls=2"})
	require.Nil(t, res)
	require.Equal(t, []string{
		"in parsing 6.: version format is not correct",
		"in parsing =5MB: operator not recognise",
		"in parsing =2: operator not recognise",
		"in parsing =5MB: operator not recognise",
		"in parsing =2: operator not recognise",
	}, msgs)
}

// TestTemplateValidation covers completion.md §3.
func TestTemplateValidation(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "types.yaml"), []byte("node_types:\n  my.App:\n    derived_from: tosker.nodes.Software\n"), 0o644))
	tests := []struct {
		name string
		src  string
		want string // a substring of the single message; "" for success
	}{
		{"relative import", "tosca_definitions_version: tosca_simple_yaml_1_0\nimports: [types.yaml, " + ToskerTypesURL + "]\ntopology_template:\n  node_templates:\n    a: {type: my.App}\n    b: {type: tosker.nodes.Software, requirements: [{host: }]}\n", ""},
		{"remote import", "tosca_definitions_version: tosca_simple_yaml_1_0\nimports: [http://example.com/x.yaml]\n", `Validation error:cannot import "http://example.com/x.yaml": remote imports are not available offline`},
		{"missing import", "tosca_definitions_version: tosca_simple_yaml_1_0\nimports: [nope.yaml]\n", `Validation error:cannot import "nope.yaml"`},
		{"unknown type", "tosca_definitions_version: tosca_simple_yaml_1_0\ntopology_template:\n  node_templates:\n    a: {type: tosker.nodes.Software}\n", `Validation error:node template "a" has the unknown type "tosker.nodes.Software"`},
		{"unknown target", testkit.ToskerHeader + "    a:\n      type: tosker.nodes.Software\n      requirements: [{host: nowhere}]\n", `Validation error:node template "a": requirement "host" names "nowhere", which is not a node template`},
		{"unknown member", testkit.ToskerHeader + "    a: {type: tosker.nodes.Software}\n  groups:\n    g: {members: [a, b]}\n", `Validation error:group "g": member "b" is not a node template`},
		{"no version", "topology_template: {}\n", "Validation error:missing tosca_definitions_version"},
		{"duplicate key", testkit.ToskerHeader + "    a: {type: tosker.nodes.Software}\n    a: {type: tosker.nodes.Software}\n", "Validation error:duplicate mapping key 'a'"},
		{"bad YAML", "a: [\n", "Validation error:invalid YAML"},
	}
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Complete(context.Background(), Input{Name: filepath.Join(dir, "t.yaml"), Data: []byte(tc.src)}, Options{Source: c, Force: true})
			diags := diag.ListOf(err)
			if tc.want == "" {
				require.Empty(t, diags)
				require.NotNil(t, res)
				return
			}
			require.Len(t, diags, 1, "diagnostics %v", diags)
			require.Contains(t, diags[0].Message, tc.want)
			require.True(t, diags[0].Pos.Known(), "the diagnostic has a position")
		})
	}
}

// TestCompleteInteractive checks that a Chooser picks from the page in
// policy order, and that its error stops the run.
func TestCompleteInteractive(t *testing.T) {
	body := unitA("{node: 6.x}")
	var shown []string
	choose := func(_ context.Context, unit string, page []*Image) (int, error) {
		for _, img := range page {
			shown = append(shown, img.Name)
		}
		return 1, nil
	}
	res, msgs := completeYAML(t, body, Options{Choose: choose})
	require.Nil(t, msgs)
	require.Equal(t, []string{"node:6-alpine", "node:6"}, shown, "the page in top_rated order")
	require.Equal(t, "node:6", pyStr(nodeTemplates(t, res.Output).get("a_container").get("artifacts").get("my_image").get("file")))

	_, msgs = completeYAML(t, body, Options{Choose: Interactive(strings.NewReader(""), &strings.Builder{})})
	require.Equal(t, []string{ErrNoChoice.Error()}, msgs)
}

// TestImportsStayInTree checks that a YAML template's imports, links
// resolved, stay in its directory tree (README, "Limits") unless
// Options.AllowOutside lets them out.
func TestImportsStayInTree(t *testing.T) {
	const types = "node_types:\n  my.App:\n    derived_from: tosker.nodes.Software\n"
	const src = "tosca_definitions_version: tosca_simple_yaml_1_0\nimports: [%s, " + ToskerTypesURL + "]\ntopology_template:\n  node_templates:\n    a: {type: my.App}\n    b: {type: tosker.nodes.Software, requirements: [{host: }]}\n"
	tests := []struct {
		name  string
		imp   string
		links map[string]string // link name (in t/) → target
		allow bool              // Options.AllowOutside
		want  string            // the message; "" for success
	}{
		{"inside", "types.yaml", nil, false, ""},
		{"through a link that stays inside", "alias.yaml", map[string]string{"alias.yaml": "types.yaml"}, false, ""},
		{"up and out", "../out/types.yaml", nil, false, `Validation error:cannot import "../out/types.yaml": it leaves the directory tree of the template (--allow-outside permits it)`},
		{"through a link to a file outside", "linked.yaml", map[string]string{"linked.yaml": "../out/types.yaml"}, false, `Validation error:cannot import "linked.yaml": it leaves the directory tree of the template through a symbolic link (--allow-outside permits it)`},
		{"up and out, allowed", "../out/types.yaml", nil, true, ""},
		{"through a link to a file outside, allowed", "linked.yaml", map[string]string{"linked.yaml": "../out/types.yaml"}, true, ""},
	}
	c, err := ParseCatalog([]byte(smallCatalog))
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"t", "out"} {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, d, "types.yaml"), []byte(types), 0o644))
			}
			for name, target := range tc.links {
				if err := os.Symlink(filepath.FromSlash(target), filepath.Join(dir, "t", name)); err != nil {
					t.Skipf("cannot make symbolic links here: %v", err)
				}
			}
			in := Input{Name: filepath.Join(dir, "t", "t.yaml"), Data: []byte(strings.Replace(src, "%s", tc.imp, 1))}
			res, err := Complete(context.Background(), in, Options{Source: c, Force: true, AllowOutside: tc.allow})
			diags := diag.ListOf(err)
			if tc.want == "" {
				require.Empty(t, diags, "import %s", tc.imp)
				require.NotNil(t, res)
				return
			}
			require.NotEmpty(t, diags, "import %s", tc.imp)
			require.Equal(t, tc.want, diags[0].Message, "import %s", tc.imp)
			require.Equal(t, 2, diags[0].Pos.Line, "the diagnostic points at the import")
		})
	}
}
