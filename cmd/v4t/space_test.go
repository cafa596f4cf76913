package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpenInputsAgainstBatch checks --open-inputs against v4t batch over
// the cartesian product of the domains, on templates whose inputs decide
// every node: each variant is the result of resolving its input values,
// and every combination that resolves is a variant.
func TestOpenInputsAgainstBatch(t *testing.T) {
	tests := []struct {
		template, product string
	}{
		{"testdata/examples/motivation/variable-service-template.yaml", "{env: [static, elastic, kubernetes], premium: [false, true]}"},
		{"testdata/examples/webshop/template.yaml", "{size: [small, large], backup: [false, true]}"},
	}
	withTestdata(t)
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		require.Equal(t, exitOK, run([]string{"enumerate", "--template", tc.template, "--open-inputs", "--format", "json"}, strings.NewReader(""), &stdout, &stderr), stderr.String())
		var en struct {
			Variants []struct {
				Present []string       `json:"present"`
				Inputs  map[string]any `json:"inputs"`
			} `json:"variants"`
		}
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &en), tc.template)
		variants := map[string]string{}
		for _, v := range en.Variants {
			var nodes []string
			for _, id := range v.Present {
				if name, ok := strings.CutPrefix(id, "node."); ok {
					nodes = append(nodes, name)
				}
			}
			var parts []string
			for name, value := range v.Inputs {
				parts = append(parts, fmt.Sprintf("%s=%v", name, value))
			}
			sort.Strings(parts)
			key := strings.Join(parts, " ")
			_, dup := variants[key]
			require.False(t, dup, "%s: the inputs decide the nodes: %s has two variants", tc.template, key)
			variants[key] = strings.Join(nodes, " ")
		}
		space := "templates: [" + tc.template + "]\ninputs: [" + tc.product + "]\n"
		require.NoError(t, os.WriteFile("space.yaml", []byte(space), 0o644))
		stdout.Reset()
		stderr.Reset()
		require.Equal(t, exitOK, run([]string{"batch", "space.yaml", "--no-timings", "--format", "csv"}, strings.NewReader(""), &stdout, &stderr), stderr.String())
		rows, err := csv.NewReader(&stdout).ReadAll()
		require.NoError(t, err)
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		ok := 0
		for _, r := range rows[1:] {
			if r[col["status"]] != "ok" {
				continue
			}
			ok++
			parts := strings.Fields(r[col["inputs"]])
			sort.Strings(parts)
			key := strings.Join(parts, " ")
			want, found := variants[key]
			require.True(t, found, "%s: batch resolves %s, enumerate has no such variant", tc.template, key)
			require.Equal(t, want, r[col["nodes"]], "%s: %s", tc.template, key)
		}
		require.Equal(t, len(variants), ok, "%s: every variant is a run that resolves", tc.template)
	}
}
