package resolve

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/graph"
)

// relationsOf builds the relations of a node "n": one per spec entry,
// "name" present or "-name" absent, then present fillers up to n in all.
func relationsOf(n int, spec ...string) []*graph.Element {
	node := &graph.Element{Kind: graph.KindNode, Name: "n", Index: -1}
	g := &graph.Graph{File: "t.yaml"}
	var list []*graph.Element
	for i := 0; len(list) < n || i < len(spec); i++ {
		name, present := fmt.Sprintf("f%d", i), true
		if i < len(spec) {
			name = spec[i]
			if name[0] == '-' {
				name, present = name[1:], false
			}
		}
		list = append(list, &graph.Element{Kind: graph.KindRelation, Name: name, Index: int32(len(list)), Container: node, Present: present, Graph: g})
	}
	return list
}

// TestAmbiguousPresent: the first present element whose name an earlier
// present one has, absent ones passed over, on both sides of the length
// where the check switches from comparing to a map; the same answer as
// ambiguousName over the present elements.
func TestAmbiguousPresent(t *testing.T) {
	tests := []struct {
		spec []string
		want int // the index of the reported element, -1 for none
	}{
		{nil, -1},
		{[]string{"a", "b"}, -1},
		{[]string{"a", "a"}, 1},
		{[]string{"a", "-a"}, -1},
		{[]string{"-a", "a"}, -1},
		{[]string{"-a", "a", "b", "a"}, 3},
		{[]string{"a", "b", "b", "a"}, 2},
	}
	for _, n := range []int{0, 3, 8, 9, 20} {
		for _, tc := range tests {
			list := relationsOf(n, tc.spec...)
			err := ambiguousPresent(list)
			require.Equal(t, ambiguousName(present(list)), err, "n %d, %v", n, tc.spec)
			if tc.want < 0 {
				require.NoError(t, err, "n %d, %v", n, tc.spec)
				continue
			}
			require.ErrorContains(t, err, fmt.Sprintf(`Relation "%s@%d" of node "n" is ambiguous`, tc.spec[tc.want], tc.want), "n %d, %v", n, tc.spec)
		}
	}
}
