package complete

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func pageOf(n int) []*Image {
	var page []*Image
	for i := 1; i <= n; i++ {
		page = append(page, &Image{Name: fmt.Sprintf("img%d:latest", i),
			Size: &Number{Float: 291484761, Int: true}, Pulls: &Number{Float: float64(1000 * i), Int: true}, Stars: &Number{Float: float64(i), Int: true}})
	}
	return page
}

// TestTable pins the reference's table (Python's
// '{:<3}{:<30}{:>15}{:>15}{:>15}'.format(...) gives these lines).
func TestTable(t *testing.T) {
	want := "" +
		"#  NAME                                     SIZE          PULLS          STARS\n" +
		"1  img1:latest                      291.484761MB           1000              1\n" +
		"2  img2:latest                      291.484761MB           2000              2\n"
	require.Equal(t, want, Table(pageOf(2)))
	require.Equal(t, 11, strings.Count(Table(pageOf(20)), "\n"), "a header and ten rows")
}

func TestInteractive(t *testing.T) {
	tests := []struct {
		name  string
		input string
		page  int
		want  int
		err   error
		out   string // expected text after the table
	}{
		{"first", "1\n", 3, 0, nil, "select an image number "},
		{"retry", "x\n0\n4\n 2 \n", 3, 1, nil, strings.Repeat("select an image number must be a number between 1 and 3\n", 3) + "select an image number "},
		{"beyond the ten shown", "15\n", 20, 14, nil, "select an image number "},
		{"no final newline", "2", 3, 1, nil, "select an image number "},
		{"end of input", "9\n", 3, -1, ErrNoChoice, "select an image number must be a number between 1 and 3\nselect an image number \n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			page := pageOf(tc.page)
			got, err := Interactive(strings.NewReader(tc.input), &out)(context.Background(), "u", page)
			require.Equal(t, tc.want, got)
			require.ErrorIs(t, err, tc.err)
			table := Table(page)
			require.True(t, strings.HasPrefix(out.String(), table), "the table comes first")
			require.Equal(t, tc.out, strings.TrimPrefix(out.String(), table))
		})
	}
}
