module v4t

go 1.24

require (
	github.com/crillab/gophersat v1.4.0
	github.com/spf13/pflag v1.0.10
	github.com/stretchr/testify v1.12.1
	gopkg.in/yaml.v3 v3.0.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
