// Package yamlv3 times yaml.v3 parsing a file into a yaml.Node tree, the
// floor of spec/benchmarks.md ("at most 2 times the yaml.v3 parse-only time
// for the same file"). Give the files in V4T_YAML_FILES (comma-separated),
// for example those written by v4t bench --write:
//
//	v4t bench --family ring --seeds 10000,100000 --runs 1 --write /tmp/v4t-bench
//	cd benchmarks/yamlv3
//	V4T_YAML_FILES=/tmp/v4t-bench/ring-10000.yaml,/tmp/v4t-bench/ring-100000.yaml \
//	    go test -run '^$' -bench . -benchtime 5x
package yamlv3

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// BenchmarkParseNode decodes each file into a yaml.Node tree, as v4t's
// yaml.v3 path does before converting the tree; reading the file is not
// timed.
func BenchmarkParseNode(b *testing.B) {
	files := os.Getenv("V4T_YAML_FILES")
	if files == "" {
		b.Skip("set V4T_YAML_FILES to the files to parse (comma-separated)")
	}
	for _, file := range strings.Split(files, ",") {
		b.Run(filepath.Base(file), func(b *testing.B) {
			data, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var doc yaml.Node
				if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
