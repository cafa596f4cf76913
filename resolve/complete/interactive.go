package complete

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Spec completion.md §10.1 (interactive choice).

// tableRows is the number of images the table shows.
const tableRows = 10

// Table renders the numbered table of a page: a header, then up to ten
// rows with the size in MB, pulls and stars, as the reference prints them
// (Python format {:<3}{:<30}{:>15}{:>15}{:>15}).
func Table(page []*Image) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-3s%-30s%15s%15s%15s\n", "#", "NAME", "SIZE", "PULLS", "STARS")
	for i, img := range page {
		if i == tableRows {
			break
		}
		size := "None"
		if img.Size != nil {
			size = pyFloat(img.Size.Float/1e6) + "MB"
		}
		fmt.Fprintf(&b, "%-3s%-30s%15s%15s%15s\n", strconv.Itoa(i+1), img.Name, size, img.Pulls.pyText(), img.Stars.pyText())
	}
	return b.String()
}

// prompt is the reference's prompt, printed without a newline.
const prompt = "select an image number "

// ErrNoChoice reports that the input ended before a valid image number.
var ErrNoChoice = errors.New("no image chosen: the input ended")

// Interactive returns a Chooser that prints each page's table on out and
// reads the image number from in. It accepts 1 to the number of returned
// images (up to 20, even beyond the ten shown) and asks again after
// anything else. End of input is an error (the reference loops forever).
func Interactive(in io.Reader, out io.Writer) Chooser {
	r := bufio.NewReader(in)
	return func(ctx context.Context, _ string, page []*Image) (int, error) {
		io.WriteString(out, Table(page))
		for {
			if err := ctx.Err(); err != nil {
				return -1, err
			}
			io.WriteString(out, prompt)
			line, err := r.ReadString('\n')
			if line == "" && err != nil {
				io.WriteString(out, "\n")
				return -1, ErrNoChoice
			}
			n, convErr := strconv.Atoi(strings.TrimSpace(line))
			if convErr == nil && n >= 1 && n <= len(page) {
				return n - 1, nil
			}
			fmt.Fprintf(out, "must be a number between 1 and %d\n", len(page))
			if err != nil {
				return -1, ErrNoChoice
			}
		}
	}
}
