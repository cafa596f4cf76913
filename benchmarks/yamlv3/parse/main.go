// Command parse reads a file and parses it once into a yaml.Node with
// yaml.v3, and nothing else: the whole-process floor that issue 19's
// resolve target is measured against ("at most 0.4 times a process that
// reads the same file and parses it once into a yaml.Node"). Time it the
// way v4t resolve is timed:
//
//	cd benchmarks/yamlv3 && go build -o /tmp/yaml-parse ./parse
//	/usr/bin/time -f '%e s %M KB' /tmp/yaml-parse ring-10000.yaml
package main

import (
	"bytes"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: parse FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
