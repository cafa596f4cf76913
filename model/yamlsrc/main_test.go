package yamlsrc

import (
	"os"
	"testing"

	"v4t/model/testkit"
)

// TestMain reports the corpus tests that did not run.
func TestMain(m *testing.M) { os.Exit(testkit.CorporaMain(m)) }
