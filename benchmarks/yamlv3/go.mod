// Module yamlv3 times raw yaml.v3 on the files v4t bench --write generates,
// for the floor that spec/benchmarks.md compares v4t with. It is a module of
// its own so that the main module's packages keep yaml.v3 behind
// model/yamlsrc and resolve (style.md §2).
module v4t/benchmarks/yamlv3

go 1.24

require gopkg.in/yaml.v3 v3.0.1
