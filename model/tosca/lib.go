package tosca

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LibFiles lists the YAML files under dir (a template's lib/ folder) in the
// order the reference merges them (variability.md §2.5): breadth-first, a
// directory's files after queueing its subdirectories, names in order.
// Unreadable directories are skipped.
func LibFiles(dir string) []string {
	var files []string
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if e.IsDir() {
				queue = append(queue, filepath.Join(d, e.Name()))
			}
		}
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
				files = append(files, filepath.Join(d, name))
			}
		}
	}
	return files
}
