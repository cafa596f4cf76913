package main

// The picture of v4t bench --plot is drawn by hand, as SVG text written
// with the standard library only. It used to be drawn with gonum.org/v1/plot,
// but gonum's plot packages register their twelve Liberation fonts (and pull
// in image codecs) at program start, in every v4t process and not only in the
// one that plots: the binary grew from 14.9 to 22.4 MB, and a small v4t
// resolve took 4 MiB more peak memory (11 to 15 MiB) and 1.7 ms more to
// start, a 20% regression where our performance targets allow 5%. The
// picture needs little of a plotting library: two panels, log10 axes with
// decade ticks, lines, markers, error bars and a legend, all of which fit in
// this file. Text is left to the viewer's sans-serif font (Liberation Sans
// where it is installed), so nothing is embedded and nothing is loaded; its
// widths, needed only to size the legend box, are estimated.
//
// The picture: one SVG document with two panels side by side, wall time
// (left) and peak memory (right) against the number of templates, both
// axes logarithmic with labelled decades and a shared template axis. Each
// family is one colour and marker; v4t is a solid line, the reference a
// dashed one of the same colour; a point is the median and its bar the
// spread (min–max) over the runs. The same report gives the same bytes:
// no time stamps, series in report order, every coordinate rounded to two
// decimals and written in one fixed format, text escaped for XML.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The layout of the picture, in SVG user units (pixels at 100%).
const (
	plotWidth    = 1000 // the whole picture
	plotHeight   = 450
	plotPanelW   = plotWidth / 2 // one panel with its labels
	plotMarginL  = 92            // left of a data area: y tick labels and the y axis label
	plotMarginR  = 30
	plotMarginT  = 70 // above a data area: the heading and the panel's title
	plotMarginB  = 60 // below: x tick labels and the x axis label
	plotFont     = "Liberation Sans, Arial, Helvetica, sans-serif"
	plotTickFont = 11 // tick labels and the legend
	plotTextFont = 12 // axis labels
	plotMarkerR  = 3.5
)

// plotColors are the families' colours, in the order in which the report
// first names the families (Tableau 10).
var plotColors = [...]string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// plotMarkers is the number of marker shapes (see writeMarker); family i
// has shape i modulo it.
const plotMarkers = 7

// plotSeries is one line of a panel: one tool on one family.
type plotSeries struct {
	name      string
	family    int // index of the family, for its colour and marker
	reference bool
	points    []plotPoint
}

// plotPoint is one template count with a measurement's median and spread.
type plotPoint struct {
	x        float64
	y        stat
	hasRange bool
}

// plotAxes are the log10 ranges of a panel's data area; hasY is false for
// a panel without points, which gets no y ticks.
type plotAxes struct {
	xmin, xmax, ymin, ymax float64
	hasY                   bool
}

// writeSVG draws the report as described at the top of this file. It
// cannot fail; the error is there for the caller's sake.
func (r *benchReport) writeSVG() ([]byte, error) {
	wall := r.series(func(t *toolResult) stat { return t.Wall })
	mem := r.series(func(t *toolResult) stat { return t.PeakMemory })
	wallAx, wallOK := dataRange(wall)
	memAx, memOK := dataRange(mem)
	// The panels share the template axis.
	switch {
	case wallOK && memOK:
		lo, hi := math.Min(wallAx.xmin, memAx.xmin), math.Max(wallAx.xmax, memAx.xmax)
		wallAx.xmin, wallAx.xmax, memAx.xmin, memAx.xmax = lo, hi, lo, hi
	case wallOK:
		memAx.xmin, memAx.xmax = wallAx.xmin, wallAx.xmax
	case memOK:
		wallAx.xmin, wallAx.xmax = memAx.xmin, memAx.xmax
	}

	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\">\n",
		plotWidth, plotHeight, plotWidth, plotHeight, xmlEscape(plotFont))
	fmt.Fprintf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", plotWidth, plotHeight)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n", plotWidth/2, xmlEscape(r.plotHeading()))
	writePanel(&b, 0, "wall time", "wall time (median, bars min–max)", msLabel, wall, wallAx, wallOK)
	writePanel(&b, plotPanelW, "peak memory", "peak memory (median, bars min–max)", mibLabel, mem, memAx, memOK)
	b.WriteString("</svg>\n")
	return []byte(b.String()), nil
}

// plotHeading says what the picture shows, from the report alone.
func (r *benchReport) plotHeading() string {
	s := fmt.Sprintf("v4t bench, whole process: %s per template", plural(r.Runs, "run"))
	if r.ReferenceRuns > 0 {
		s += fmt.Sprintf(" (reference: %s)", plural(r.ReferenceRuns, "run"))
	}
	return s + fmt.Sprintf("; %s/%s, %s", r.GOOS, r.GOARCH, plural(r.CPUs, "CPU"))
}

// series collects, in report order, v4t's series of every family and then
// the reference's of every family where it was measured. Points without a
// positive template count or median cannot sit on a log axis and are left
// out (a peak memory the system did not report is 0), and so are failed
// and not comparable reference runs.
func (r *benchReport) series(pick func(*toolResult) stat) []*plotSeries {
	var families []string
	var out []*plotSeries
	find := func(name string, family int, ref bool) *plotSeries {
		for _, s := range out {
			if s.name == name {
				return s
			}
		}
		s := &plotSeries{name: name, family: family, reference: ref}
		out = append(out, s)
		return s
	}
	for _, ref := range []bool{false, true} {
		for _, res := range r.Results {
			i := slices.Index(families, res.Family)
			if i < 0 {
				families = append(families, res.Family)
				i = len(families) - 1
			}
			t := &res.V4T
			name := "v4t " + res.Family
			if res.Measures != "" && res.Measures != "resolve" {
				name += " (" + res.Measures + ")"
			}
			if ref {
				if res.Reference == nil || res.Reference.Error != "" || res.Reference.Runs == 0 {
					continue
				}
				t, name = res.Reference, "reference "+res.Family
			}
			st := pick(t)
			if res.Templates <= 0 || !plottable(st.Median) {
				continue
			}
			s := find(name, i, ref)
			hasRange := plottable(st.Min) && plottable(st.Max) && st.Min <= st.Median && st.Median <= st.Max && st.Min < st.Max
			s.points = append(s.points, plotPoint{x: float64(res.Templates), y: st, hasRange: hasRange})
		}
	}
	for _, s := range out {
		slices.SortStableFunc(s.points, func(a, b plotPoint) int {
			switch {
			case a.x < b.x:
				return -1
			case a.x > b.x:
				return 1
			}
			return 0
		})
	}
	return out
}

// plottable reports whether v can sit on a log axis.
func plottable(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// dataRange returns the decade ranges (log10) that hold every point and
// bar of series, and whether there is any point at all.
func dataRange(series []*plotSeries) (plotAxes, bool) {
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, pt := range s.points {
			x, y := math.Log10(pt.x), math.Log10(pt.y.Median)
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
			if pt.hasRange {
				ymin, ymax = math.Min(ymin, math.Log10(pt.y.Min)), math.Max(ymax, math.Log10(pt.y.Max))
			}
		}
	}
	if math.IsInf(xmin, 1) {
		return plotAxes{xmin: 0, xmax: 1, ymin: 0, ymax: 1}, false
	}
	var ax plotAxes
	ax.xmin, ax.xmax = decadeRange(xmin, xmax)
	ax.ymin, ax.ymax = decadeRange(ymin, ymax)
	ax.hasY = true
	return ax, true
}

// decadeRange widens [lo, hi], in log10, to whole decades, at least one
// apart, so that both ends carry a labelled tick.
func decadeRange(lo, hi float64) (float64, float64) {
	a, b := math.Floor(lo+1e-9), math.Ceil(hi-1e-9)
	if b <= a {
		b = a + 1
	}
	return a, b
}

// writePanel draws one panel whose left edge is at x0: title, grid, axes
// with ticks and labels, the series and their legend. A panel without a
// point (peak memory where the system does not report it) says so in its
// title.
func writePanel(b *strings.Builder, x0 int, title, ylabel string, ylab func(float64) string, series []*plotSeries, ax plotAxes, hasPoints bool) {
	left := float64(x0 + plotMarginL)
	right := float64(x0 + plotPanelW - plotMarginR)
	top := float64(plotMarginT)
	bottom := float64(plotHeight - plotMarginB)
	px := func(lx float64) float64 { return left + (lx-ax.xmin)/(ax.xmax-ax.xmin)*(right-left) }
	py := func(ly float64) float64 { return bottom - (ly-ax.ymin)/(ax.ymax-ax.ymin)*(bottom-top) }
	if !hasPoints {
		title += " (not measured)"
	}
	mid := (left + right) / 2

	fmt.Fprintf(b, "<g class=\"panel\">\n")
	fmt.Fprintf(b, "<text x=\"%s\" y=\"58\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", num(mid), xmlEscape(title))

	// Grid and ticks: decades labelled, 2–9 times them as minor ticks.
	xt := decadeTicks(ax.xmin, ax.xmax)
	var yt []plotTick
	if ax.hasY {
		yt = decadeTicks(ax.ymin, ax.ymax)
	}
	var minorGrid, majorGrid, ticks strings.Builder
	for _, t := range xt {
		x := num(px(t.value))
		grid, l := &minorGrid, 3
		if t.major {
			grid, l = &majorGrid, 6
		}
		fmt.Fprintf(grid, "M%s %sV%s", x, num(bottom), num(top))
		fmt.Fprintf(&ticks, "M%s %sv%d", x, num(bottom), l)
	}
	for _, t := range yt {
		y := num(py(t.value))
		grid, l := &minorGrid, 3
		if t.major {
			grid, l = &majorGrid, 6
		}
		fmt.Fprintf(grid, "M%s %sH%s", num(left), y, num(right))
		fmt.Fprintf(&ticks, "M%s %sh-%d", num(left), y, l)
	}
	for _, g := range []struct {
		d      *strings.Builder
		colour string
	}{{&minorGrid, "#f0f0f0"}, {&majorGrid, "#dddddd"}} {
		if g.d.Len() > 0 {
			fmt.Fprintf(b, "<path d=\"%s\" stroke=\"%s\" stroke-width=\"1\" fill=\"none\"/>\n", g.d.String(), g.colour)
		}
	}
	fmt.Fprintf(b, "<path d=\"M%s %sV%sH%s\" stroke=\"#000000\" stroke-width=\"1\" fill=\"none\"/>\n", num(left), num(top), num(bottom), num(right))
	if ticks.Len() > 0 {
		fmt.Fprintf(b, "<path d=\"%s\" stroke=\"#000000\" stroke-width=\"1\" fill=\"none\"/>\n", ticks.String())
	}
	for _, t := range xt {
		if t.label {
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n",
				num(px(t.value)), num(bottom+20), plotTickFont, xmlEscape(countLabel(math.Pow10(int(math.Round(t.value))))))
		}
	}
	for _, t := range yt {
		if t.label {
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"end\" font-size=\"%d\">%s</text>\n",
				num(left-9), num(py(t.value)+4), plotTickFont, xmlEscape(ylab(math.Pow10(int(math.Round(t.value))))))
		}
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n",
		num(mid), num(bottom+46), plotTextFont, xmlEscape("templates (node and relationship templates)"))
	ly, lx := num((top+bottom)/2), num(float64(x0+18))
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" transform=\"rotate(-90 %s %s)\" text-anchor=\"middle\" font-size=\"%d\">%s</text>\n",
		lx, ly, lx, ly, plotTextFont, xmlEscape(ylabel))

	// The series: bars, then the line, then the markers on top.
	var shown []*plotSeries
	for _, s := range series {
		if len(s.points) == 0 {
			continue
		}
		shown = append(shown, s)
		colour := plotColors[s.family%len(plotColors)]
		fmt.Fprintf(b, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", colour, colour)
		var bars strings.Builder
		for _, pt := range s.points {
			if !pt.hasRange {
				continue
			}
			x := px(math.Log10(pt.x))
			lo, hi := num(py(math.Log10(pt.y.Min))), num(py(math.Log10(pt.y.Max)))
			fmt.Fprintf(&bars, "M%s %sV%sM%s %sH%sM%s %sH%s", num(x), lo, hi, num(x-4), lo, num(x+4), num(x-4), hi, num(x+4))
		}
		if bars.Len() > 0 {
			fmt.Fprintf(b, "<path d=\"%s\" stroke-width=\"0.8\" fill=\"none\"/>\n", bars.String())
		}
		pts := make([]string, len(s.points))
		for i, pt := range s.points {
			pts[i] = num(px(math.Log10(pt.x))) + "," + num(py(math.Log10(pt.y.Median)))
		}
		fmt.Fprintf(b, "<polyline points=\"%s\" %s fill=\"none\"/>\n", strings.Join(pts, " "), lineStyle(s.reference))
		for _, pt := range s.points {
			writeMarker(b, s.family, px(math.Log10(pt.x)), py(math.Log10(pt.y.Median)))
		}
		b.WriteString("</g>\n")
	}
	writeLegend(b, shown, right, bottom)
	b.WriteString("</g>\n")
}

// lineStyle is the stroke of a series' line: solid for v4t, dashed for the
// reference.
func lineStyle(reference bool) string {
	if reference {
		return "stroke-width=\"1.2\" stroke-dasharray=\"6 3\""
	}
	return "stroke-width=\"1.5\""
}

// writeLegend draws the legend of the series shown in the lower right
// corner of the data area that ends at (right, bottom): growth goes up and
// to the right, so that corner is the free one.
func writeLegend(b *strings.Builder, shown []*plotSeries, right, bottom float64) {
	if len(shown) == 0 {
		return
	}
	const rowH, sample, pad = 16.0, 28.0, 6.0
	textW := 0.0
	for _, s := range shown {
		textW = math.Max(textW, textWidth(s.name, plotTickFont))
	}
	w := pad + sample + 6 + textW + pad
	h := pad + rowH*float64(len(shown)) + pad - 4
	x, y := right-6-w, bottom-6-h
	fmt.Fprintf(b, "<g class=\"legend\">\n")
	fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#bbbbbb\" stroke-width=\"0.8\"/>\n",
		num(x), num(y), num(w), num(h))
	for i, s := range shown {
		cy := y + pad + rowH*float64(i) + 6
		colour := plotColors[s.family%len(plotColors)]
		fmt.Fprintf(b, "<g stroke=\"%s\" fill=\"%s\">\n", colour, colour)
		fmt.Fprintf(b, "<polyline points=\"%s,%s %s,%s\" %s fill=\"none\"/>\n", num(x+pad), num(cy), num(x+pad+sample), num(cy), lineStyle(s.reference))
		writeMarker(b, s.family, x+pad+sample/2, cy)
		b.WriteString("</g>\n")
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"%d\">%s</text>\n", num(x+pad+sample+6), num(cy+4), plotTickFont, xmlEscape(s.name))
	}
	b.WriteString("</g>\n")
}

// writeMarker draws the marker of family number family centred at (x, y),
// in the stroke and fill colour of the enclosing group.
func writeMarker(b *strings.Builder, family int, x, y float64) {
	const r = plotMarkerR
	switch family % plotMarkers {
	case 0: // circle
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\"/>\n", num(x), num(y), num(r))
	case 1: // square
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"/>\n", num(x-r), num(y-r), num(2*r), num(2*r))
	case 2: // triangle, point up
		fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %sZ\"/>\n", num(x), num(y-1.2*r), num(x+1.1*r), num(y+0.8*r), num(x-1.1*r), num(y+0.8*r))
	case 3: // diamond
		fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %sL%s %sZ\"/>\n", num(x), num(y-1.3*r), num(x+1.3*r), num(y), num(x), num(y+1.3*r), num(x-1.3*r), num(y))
	case 4: // triangle, point down
		fmt.Fprintf(b, "<path d=\"M%s %sL%s %sL%s %sZ\"/>\n", num(x), num(y+1.2*r), num(x+1.1*r), num(y-0.8*r), num(x-1.1*r), num(y-0.8*r))
	case 5: // plus
		fmt.Fprintf(b, "<path d=\"M%s %sH%sM%s %sV%s\" stroke-width=\"1.8\" fill=\"none\"/>\n", num(x-1.2*r), num(y), num(x+1.2*r), num(x), num(y-1.2*r), num(y+1.2*r))
	default: // cross
		fmt.Fprintf(b, "<path d=\"M%s %sL%s %sM%s %sL%s %s\" stroke-width=\"1.8\" fill=\"none\"/>\n", num(x-r), num(y-r), num(x+r), num(y+r), num(x-r), num(y+r), num(x+r), num(y-r))
	}
}

// plotTick is one tick of a log10 axis.
type plotTick struct {
	value        float64 // log10 of the figure
	major, label bool
}

// decadeTicks marks [lo, hi], both whole decades in log10: every decade a
// major tick, 2–9 times it minor ones while there are at most six decades.
// Decades are labelled, every one up to eight of them, else every second,
// third and so on, counting from the top.
func decadeTicks(lo, hi float64) []plotTick {
	decades := int(math.Round(hi - lo))
	step := (decades + 7) / 8
	var ticks []plotTick
	for d := 0; d <= decades; d++ {
		e := lo + float64(d)
		ticks = append(ticks, plotTick{value: e, major: true, label: (decades-d)%step == 0})
		if d == decades || decades > 6 {
			continue
		}
		for i := 2; i < 10; i++ {
			ticks = append(ticks, plotTick{value: e + math.Log10(float64(i))})
		}
	}
	return ticks
}

// num writes a coordinate with at most two decimals, in one fixed format:
// the same figure always gives the same text.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// textWidth estimates the width of s in the sans-serif font of size size;
// it only sizes the legend's box, so erring wide is fine.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * 0.56
}

// xmlEscape escapes s for XML text and attribute values; characters XML
// cannot hold become U+FFFD.
func xmlEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '"':
			b.WriteString("&quot;")
		case c == '\'':
			b.WriteString("&apos;")
		case c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF):
			b.WriteRune(c)
		default:
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

// countLabel writes a template count: 10, 1,000, 100,000, 10^7.
func countLabel(x float64) string {
	if x >= 1e7 || x < 1 {
		return fmt.Sprintf("10^%d", int(math.Round(math.Log10(x))))
	}
	return thousands(int(math.Round(x)))
}

// msLabel writes a power of ten of milliseconds: 100 µs, 1 ms, 10 s.
func msLabel(x float64) string { return inMSUnit(x, trimZeros) }

// mibLabel writes a power of ten of mebibytes: 1 MiB, 1,000 MiB.
func mibLabel(x float64) string {
	return trimZeros(x) + " MiB"
}

// trimZeros writes x with thousands separators when it is whole, else with
// at most six decimals.
func trimZeros(x float64) string {
	if x >= 1 && x == math.Round(x) && x < 1e15 {
		return thousands(int(x))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", x), "0"), ".")
}
