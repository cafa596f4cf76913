package enrich

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
	"v4t/model/yamlsrc"
)

// hostingCase is a small random hosting graph and a hosting pattern for the
// search of a technology rule (variability.md §5.3).
type hostingCase struct {
	// types[i] is the type of node i, an index into hostingTypes.
	types []int
	// reqs[i] are the requirements of node i in order.
	reqs    [][]hostingReq
	pattern []string
}

type hostingReq struct {
	host   bool
	target int
}

// hostingTypes are the node types of a hosting case: t1 and t2 derive from
// t0, t3 from t1.
var hostingTypes = []struct{ name, parent string }{
	{"t0", "tosca.nodes.Root"}, {"t1", "t0"}, {"t2", "t0"}, {"t3", "t1"},
}

// hostingTokens are the pattern entries a case draws from; tx is no type.
var hostingTokens = []string{"*", "*", "t0", "t1", "t2", "t3", "tx"}

// decodeHostingCase turns fuzz bytes into a case: at most 4 nodes with at
// most 3 requirements each (two in three hosting), a pattern of 1 to 4
// entries. Missing bytes read as 0.
func decodeHostingCase(data []byte) hostingCase {
	next := func(n int) int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b % n
	}
	var c hostingCase
	nodes := 1 + next(4)
	for range nodes {
		c.types = append(c.types, next(len(hostingTypes)))
		var reqs []hostingReq
		for k := next(4); k > 0; k-- {
			reqs = append(reqs, hostingReq{host: next(3) < 2, target: next(nodes)})
		}
		c.reqs = append(c.reqs, reqs)
	}
	for k := 1 + next(4); k > 0; k-- {
		c.pattern = append(c.pattern, hostingTokens[next(len(hostingTokens))])
	}
	return c
}

// yaml renders the case as a template; node 0 is the node searched from.
func (c hostingCase) yaml() string {
	var b strings.Builder
	b.WriteString("tosca_definitions_version: tosca_variability_1_0_rc_3\nnode_types:\n")
	b.WriteString("    tosca.nodes.Root: {derived_from: tosca.entity.Root}\n")
	for _, t := range hostingTypes {
		fmt.Fprintf(&b, "    %s: {derived_from: %s}\n", t.name, t.parent)
	}
	b.WriteString("topology_template:\n    node_templates:\n")
	for i, t := range c.types {
		fmt.Fprintf(&b, "        n%d:\n            type: %s\n", i, hostingTypes[t].name)
		if len(c.reqs[i]) > 0 {
			b.WriteString("            requirements:\n")
		}
		for _, r := range c.reqs[i] {
			name := "connect"
			if r.host {
				name = "host"
			}
			fmt.Fprintf(&b, "                - %s: n%d\n", name, r.target)
		}
	}
	return b.String()
}

// oracleHost is one hosting edge: the index of the relation used (the first
// hosting relation to the target) and the target.
type oracleHost struct{ rel, target int }

// oracleStep is one step of a walk: the i-th host of the current node, and
// whether the host matches the next pattern entry or is passed by a `*`.
type oracleStep struct {
	host int
	skip bool
}

// hostingOracle enumerates the reference's search results by brute force,
// straight from the wording of §5.3 and independently of search: it visits
// every sequence of steps in depth-first order (host by host; for each host
// the match before the `*` pass; a walk before its extensions), replays each
// from the start, and records the completed walks. It returns the paths as
// JSON condition lists, or the reference's error. ok is false when the
// enumeration exceeds its budget.
func hostingOracle(c hostingCase) (paths []string, errMsg string, ok bool) {
	hosts := make([][]oracleHost, len(c.types))
	for i, reqs := range c.reqs {
		for _, r := range reqs {
			if !r.host {
				continue
			}
			first := slices.IndexFunc(reqs, func(x hostingReq) bool { return x.host && x.target == r.target })
			hosts[i] = append(hosts[i], oracleHost{rel: first, target: r.target})
		}
	}
	isA := func(node int, question string) bool {
		for t := hostingTypes[c.types[node]].name; ; {
			if t == question {
				return true
			}
			if t == "tosca.nodes.Root" {
				return false
			}
			for _, x := range hostingTypes {
				if x.name == t {
					t = x.parent
				}
			}
		}
	}
	type replayed struct {
		valid, done bool
		// nodes[k] and rest[k] are the node and the pattern left before
		// step k (k = len(walk): after the walk).
		nodes, rest []int
	}
	replay := func(walk []oracleStep) replayed {
		r := replayed{nodes: []int{0}, rest: []int{len(c.pattern)}}
		node, pat := 0, c.pattern
		for k, s := range walk {
			if len(pat) == 0 || s.host >= len(hosts[node]) {
				return r
			}
			star := pat[0] == "*"
			drop := 1
			if star {
				drop = 2
			}
			if len(pat) < drop {
				return r
			}
			host := hosts[node][s.host].target
			matches := isA(host, pat[drop-1])
			completes := matches && len(pat) == drop
			switch {
			case !s.skip && matches:
				pat = pat[drop:]
			case s.skip && star && !completes:
			default:
				return r
			}
			if len(pat) == 0 && k < len(walk)-1 {
				return r
			}
			node = host
			r.nodes = append(r.nodes, node)
			r.rest = append(r.rest, len(pat))
		}
		r.valid = true
		r.done = len(pat) == 0
		return r
	}
	// choices is the number of steps possible after a walk.
	choices := func(walk []oracleStep) int {
		r := replay(walk)
		return 2 * len(hosts[r.nodes[len(r.nodes)-1]])
	}
	var walk []oracleStep
	// advance moves to the next walk in depth-first order that is not an
	// extension of the current one; it reports false at the end.
	advance := func() bool {
		for len(walk) > 0 {
			last := len(walk) - 1
			i := 2*walk[last].host + 1
			if walk[last].skip {
				i++
			}
			if i < choices(walk[:last]) {
				walk[last] = oracleStep{host: i / 2, skip: i%2 == 1}
				return true
			}
			walk = walk[:last]
		}
		return false
	}
	for budget := 0; ; budget++ {
		if budget > 200000 {
			return nil, "", false
		}
		r := replay(walk)
		switch {
		case !r.valid:
			if !advance() {
				return paths, "", true
			}
			continue
		case r.done:
			var conds []string
			for k, s := range walk {
				h := hosts[r.nodes[k]][s.host]
				conds = append(conds, fmt.Sprintf(`{"relation_presence":["n%d",%d]}`, r.nodes[k], h.rel),
					fmt.Sprintf(`{"node_presence":"n%d"}`, h.target))
			}
			paths = append(paths, "["+strings.Join(conds, ",")+"]")
			if !advance() {
				return paths, "", true
			}
			continue
		}
		// The reference calls search for this walk.
		k := len(walk)
		if rest := c.pattern[len(c.pattern)-r.rest[k]:]; rest[0] == "*" && len(rest) < 2 {
			return nil, "Unexpected error", true
		}
		for j := range k {
			if r.nodes[j] == r.nodes[k] && r.rest[j] == r.rest[k] {
				return nil, "Maximum call stack size exceeded", true
			}
		}
		if choices(walk) > 0 {
			walk = append(walk, oracleStep{})
			continue
		}
		if !advance() {
			return paths, "", true
		}
	}
}

// searchHosting runs the port's search on a case.
func searchHosting(t *testing.T, c hostingCase) ([]string, error) {
	doc, err := yamlsrc.Parse([]byte(c.yaml()), "fuzz.yaml")
	require.NoError(t, err)
	g, err := graph.Build(doc, "fuzz.yaml")
	require.NoError(t, err, c.yaml())
	found, err := hostingPaths(g.Nodes[0], c.pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range found {
		out = append(out, yamlsrc.JSON(yamlsrc.NewList(p...)))
	}
	return out, nil
}

// hostingSeeds are fuzz inputs worth keeping as seeds, as readable cases.
var hostingSeeds = []struct {
	name string
	c    hostingCase
	// want is the expected result: paths, or an error message.
	want []string
	err  string
}{
	{
		name: "star stops at a completing host",
		c: hostingCase{types: []int{0, 1, 1}, reqs: [][]hostingReq{{{true, 1}}, {{true, 2}}, nil},
			pattern: []string{"*", "t1"}},
		want: []string{`[{"relation_presence":["n0",0]},{"node_presence":"n1"}]`},
	},
	{
		name: "spec example",
		c: hostingCase{types: []int{0, 2, 1}, reqs: [][]hostingReq{{{true, 1}, {true, 2}}, {{true, 2}}, nil},
			pattern: []string{"*", "t1"}},
		want: []string{
			`[{"relation_presence":["n0",0]},{"node_presence":"n1"},{"relation_presence":["n1",0]},{"node_presence":"n2"}]`,
			`[{"relation_presence":["n0",1]},{"node_presence":"n2"}]`,
		},
	},
	{
		name: "cycle closed by a completing host",
		c: hostingCase{types: []int{0, 1}, reqs: [][]hostingReq{{{false, 1}, {true, 1}}, {{true, 0}}},
			pattern: []string{"*", "t1"}},
		want: []string{`[{"relation_presence":["n0",1]},{"node_presence":"n1"}]`},
	},
	{
		name: "cycle never completing",
		c: hostingCase{types: []int{0, 1}, reqs: [][]hostingReq{{{true, 1}}, {{true, 0}}},
			pattern: []string{"*", "t2"}},
		err: "Maximum call stack size exceeded",
	},
	{
		name: "self-hosting after a match",
		c: hostingCase{types: []int{0, 1}, reqs: [][]hostingReq{{{true, 1}}, {{true, 1}}},
			pattern: []string{"t1", "*", "t2"}},
		err: "Maximum call stack size exceeded",
	},
	{
		name: "duplicate hosts and a path found twice",
		c: hostingCase{types: []int{0, 1, 1, 1}, reqs: [][]hostingReq{{{true, 1}, {true, 1}}, {{true, 2}}, {{true, 3}}, nil},
			pattern: []string{"*", "t1", "*", "t1"}},
		want: []string{
			`[{"relation_presence":["n0",0]},{"node_presence":"n1"},{"relation_presence":["n1",0]},{"node_presence":"n2"}]`,
			`[{"relation_presence":["n0",0]},{"node_presence":"n1"},{"relation_presence":["n1",0]},{"node_presence":"n2"},{"relation_presence":["n2",0]},{"node_presence":"n3"}]`,
			`[{"relation_presence":["n0",0]},{"node_presence":"n1"},{"relation_presence":["n1",0]},{"node_presence":"n2"}]`,
			`[{"relation_presence":["n0",0]},{"node_presence":"n1"},{"relation_presence":["n1",0]},{"node_presence":"n2"},{"relation_presence":["n2",0]},{"node_presence":"n3"}]`,
		},
	},
	{
		name: "star at the end",
		c: hostingCase{types: []int{0, 1}, reqs: [][]hostingReq{{{true, 1}}, nil},
			pattern: []string{"t1", "*"}},
		err: "Unexpected error",
	},
}

// encodeHostingCase is the inverse of decodeHostingCase.
func encodeHostingCase(c hostingCase) []byte {
	b := []byte{byte(len(c.types) - 1)}
	for i, t := range c.types {
		b = append(b, byte(t), byte(len(c.reqs[i])))
		for _, r := range c.reqs[i] {
			kind := byte(2)
			if r.host {
				kind = 0
			}
			b = append(b, kind, byte(r.target))
		}
	}
	b = append(b, byte(len(c.pattern)-1))
	for _, p := range c.pattern {
		b = append(b, byte(slices.Index(hostingTokens, p)))
	}
	return b
}

func TestHostingSearch(t *testing.T) {
	for _, tc := range hostingSeeds {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.c, decodeHostingCase(encodeHostingCase(tc.c)), "seed encoding")
			got, err := searchHosting(t, tc.c)
			if tc.err != "" {
				require.EqualError(t, err, tc.err, tc.c.yaml())
			} else {
				require.NoError(t, err, tc.c.yaml())
				require.Equal(t, tc.want, got, tc.c.yaml())
			}
			paths, msg, ok := hostingOracle(tc.c)
			require.True(t, ok)
			require.Equal(t, tc.err, msg, "oracle")
			require.Equal(t, tc.want, paths, "oracle")
		})
	}
}

// FuzzHostingSearch compares the hosting search with the brute-force oracle
// on random small hosting graphs, cycles and duplicate hosts included.
func FuzzHostingSearch(f *testing.F) {
	for _, s := range hostingSeeds {
		f.Add(encodeHostingCase(s.c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := decodeHostingCase(data)
		want, wantErr, ok := hostingOracle(c)
		if !ok {
			t.Skip("oracle budget exceeded")
		}
		got, err := searchHosting(t, c)
		if wantErr != "" {
			require.EqualError(t, err, wantErr, c.yaml()+fmt.Sprint(c.pattern))
			return
		}
		require.NoError(t, err, c.yaml()+fmt.Sprint(c.pattern))
		require.Equal(t, want, got, c.yaml()+fmt.Sprint(c.pattern))
	})
}
