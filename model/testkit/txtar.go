package testkit

import (
	"bytes"
	"strings"
)

// Archive is a txtar archive: a free-form comment followed by named files,
// each introduced by a marker line "-- NAME --".
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one file of an archive.
type File struct {
	Name string
	Data []byte
}

// ParseTxtar parses a txtar archive. CRLF line endings are read as LF. It
// never fails: text before the first marker is the comment, and a marker line
// is any line of the form "-- NAME --" with a non-empty NAME.
func ParseTxtar(data []byte) *Archive {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	a := &Archive{}
	var cur *File
	var buf []byte
	flush := func() {
		if cur == nil {
			a.Comment = buf
		} else {
			cur.Data = buf
			a.Files = append(a.Files, *cur)
		}
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			flush()
			cur = &File{Name: name}
			buf = []byte{}
			continue
		}
		buf = append(buf, line...)
	}
	flush()
	if a.Comment == nil {
		a.Comment = []byte{}
	}
	return a
}

// marker reports whether line is a file marker and returns the file name.
func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

// FormatTxtar renders an archive. The comment and every non-empty file end
// with a newline.
func FormatTxtar(a *Archive) []byte {
	var b bytes.Buffer
	b.Write(withNewline(a.Comment))
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(withNewline(f.Data))
	}
	return b.Bytes()
}

func withNewline(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(append([]byte{}, b...), '\n')
}

// Get returns the data of the named file.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the data of the named file, or appends the file.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}

// Delete removes the named file.
func (a *Archive) Delete(name string) {
	out := a.Files[:0]
	for _, f := range a.Files {
		if f.Name != name {
			out = append(out, f)
		}
	}
	a.Files = out
}
