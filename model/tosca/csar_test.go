package tosca

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"v4t/model/diag"
	"v4t/model/testkit"
)

// zipEntry is one entry of a test archive.
type zipEntry struct {
	name string
	data string
	mode fs.FileMode
}

// makeZip builds an archive; names are stored verbatim, unsafe or not.
func makeZip(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		require.NoError(t, err)
		_, err = w.Write([]byte(e.data))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return b.Bytes()
}

const meta = "TOSCA-Meta-File-Version: 1.0\nEntry-Definitions: app.yaml\n"

func TestReadCSAR(t *testing.T) {
	c, err := ReadCSAR(makeZip(t,
		zipEntry{name: "scripts/"},
		zipEntry{name: "scripts/start.sh", data: "echo hi\n"},
		zipEntry{name: MetaFile, data: meta},
		zipEntry{name: "app.yaml", data: "tosca_definitions_version: tosca_simple_yaml_1_0\n"},
	), "in.csar", DefaultCSARLimits())
	require.NoError(t, err)
	require.Equal(t, "app.yaml", c.Entry)
	require.Len(t, c.Files, 4)
	require.True(t, c.Files[0].Dir)
	require.Equal(t, "echo hi\n", string(c.File("scripts/start.sh").Data))
	require.Nil(t, c.File("scripts"), "directories are not files")

	// Written back, every member keeps its content; replaced ones change.
	var out bytes.Buffer
	require.NoError(t, c.Write(&out, map[string][]byte{"app.yaml": []byte("new\n")}))
	back, err := ReadCSAR(out.Bytes(), "out.csar", DefaultCSARLimits())
	require.NoError(t, err)
	require.Len(t, back.Files, 4)
	for i, f := range back.Files {
		require.Equal(t, c.Files[i].Name, f.Name, "member %d", i)
		if f.Name == "app.yaml" {
			require.Equal(t, "new\n", string(f.Data))
		} else {
			require.Equal(t, c.Files[i].Data, f.Data, "member %s", f.Name)
		}
	}
}

func TestReadCSARWithoutMeta(t *testing.T) {
	c, err := ReadCSAR(makeZip(t, zipEntry{name: "only.yml", data: "x: 1\n"}, zipEntry{name: "lib/other.yaml", data: "y: 2\n"}), "in.csar", DefaultCSARLimits())
	require.NoError(t, err)
	require.Equal(t, "only.yml", c.Entry)
	_, err = ReadCSAR(makeZip(t, zipEntry{name: "a.yaml"}, zipEntry{name: "b.yaml"}), "in.csar", DefaultCSARLimits())
	require.Error(t, err)
	require.Contains(t, err.Error(), "expected exactly one")
}

// TestReadCSARRejects covers the safety rules: names that escape, links,
// sizes, and a broken metadata file. Each is one clear diagnostic.
func TestReadCSARRejects(t *testing.T) {
	small := CSARLimits{MaxEntries: 3, MaxFileSize: 10, MaxTotalSize: 15}
	tests := []struct {
		name    string
		entries []zipEntry
		limits  CSARLimits
		want    string
	}{
		{"parent", []zipEntry{{name: "../evil.sh", data: "x"}}, DefaultCSARLimits(), `archive entry "../evil.sh" has a ".." component, which escapes the archive`},
		{"nested parent", []zipEntry{{name: "a/../../evil.sh", data: "x"}}, DefaultCSARLimits(), `has a ".." component`},
		{"absolute", []zipEntry{{name: "/etc/evil", data: "x"}}, DefaultCSARLimits(), `archive entry "/etc/evil" is an absolute path, which escapes the archive`},
		{"drive letter", []zipEntry{{name: "C:/evil", data: "x"}}, DefaultCSARLimits(), "drive letter"},
		{"backslash", []zipEntry{{name: `..\evil`, data: "x"}}, DefaultCSARLimits(), "backslash"},
		{"symlink", []zipEntry{{name: "link", data: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, DefaultCSARLimits(), "symbolic link"},
		{"duplicate", []zipEntry{{name: "a.yaml"}, {name: "./a.yaml"}}, DefaultCSARLimits(), "appears twice"},
		{"too many entries", []zipEntry{{name: "a"}, {name: "b"}, {name: "c"}, {name: "d"}}, small, "more than the limit of 3"},
		{"large file", []zipEntry{{name: "a", data: strings.Repeat("x", 11)}}, small, "larger than the limit of 10 bytes"},
		{"large total", []zipEntry{{name: "a", data: "0123456789"}, {name: "b", data: "0123456789"}}, small, "larger than the limit of 15 bytes in total"},
		{"no entry definitions", []zipEntry{{name: MetaFile, data: "CSAR-Version: 1.1\n"}}, DefaultCSARLimits(), "has no Entry-Definitions"},
		{"entry escapes", []zipEntry{{name: MetaFile, data: "Entry-Definitions: ../app.yaml\n"}}, DefaultCSARLimits(), `Entry-Definitions "../app.yaml" has a ".." component`},
		{"entry missing", []zipEntry{{name: MetaFile, data: meta}}, DefaultCSARLimits(), `the entry template "app.yaml" named by TOSCA-Metadata/TOSCA.meta is not in the archive`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSAR(makeZip(t, tc.entries...), "in.csar", tc.limits)
			d := testkit.Diagnostic(t, err, "a diagnostic")
			require.Equal(t, "in.csar", d.Pos.File)
			require.Contains(t, d.Message, tc.want)
			require.NotContains(t, d.Message, "\n")
		})
	}
	_, err := ReadCSAR([]byte("not a zip"), "in.csar", DefaultCSARLimits())
	require.Error(t, err)
	require.Contains(t, err.Error(), "not a valid CSAR (zip) archive")
}

// FuzzReadCSAR reads arbitrary bytes as a CSAR: never a panic; a rejected
// archive gives a diagnostic naming the file; an accepted one has safe
// names, sizes within the limits and an entry template among its files.
func FuzzReadCSAR(f *testing.F) {
	f.Add(makeZip(f, zipEntry{name: MetaFile, data: meta}, zipEntry{name: "app.yaml", data: "a: 1\n"}))
	f.Add(makeZip(f, zipEntry{name: "../evil", data: "x"}))
	f.Add(makeZip(f, zipEntry{name: "only.yaml", data: "a"}))
	f.Add([]byte("PK\x03\x04"))
	lim := CSARLimits{MaxEntries: 50, MaxFileSize: 1 << 16, MaxTotalSize: 1 << 18}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadCSAR(data, "fuzz.csar", lim)
		if err != nil {
			d, ok := diag.As(err)
			if !ok || d.Pos.File != "fuzz.csar" || d.Message == "" {
				t.Fatalf("not a positioned diagnostic: %v", err)
			}
			return
		}
		var total int64
		for _, file := range c.Files {
			if err := CheckEntryName(file.Name); err != nil {
				t.Fatalf("accepted unsafe name %q", file.Name)
			}
			if int64(len(file.Data)) > lim.MaxFileSize {
				t.Fatalf("file %q over the limit", file.Name)
			}
			total += int64(len(file.Data))
		}
		if total > lim.MaxTotalSize {
			t.Fatal("total over the limit")
		}
		if c.File(c.Entry) == nil {
			t.Fatalf("entry %q is not a file of the archive", c.Entry)
		}
	})
}
