package review

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 320
	chartHeight = 120
	chartPad    = 18
)

// convergenceChart draws one domain's last weeks as SVG: the learnings
// written each week as bars, and the disputed ones of each week as a line
// on the same scale. A domain converges when the bars shrink and the line
// stays at zero.
func convergenceChart(d session.DomainStatus) template.HTML {
	weeks := len(d.Weekly)
	if weeks == 0 {
		return ""
	}
	top := 1
	for i, n := range d.Weekly {
		top = max(top, n)
		if i < len(d.DisputedWeekly) {
			top = max(top, d.DisputedWeekly[i])
		}
	}
	plotW, plotH := float64(chartWidth-2*chartPad), float64(chartHeight-2*chartPad)
	slot := plotW / float64(weeks)
	y := func(n int) float64 { return chartPad + plotH - plotH*float64(n)/float64(top) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s: learnings written per week, and disputed, over the last %d weeks">`,
		chartWidth, chartHeight, template.HTMLEscapeString(d.Domain), weeks)
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, chartPad, y(0), chartWidth-chartPad, y(0))
	fmt.Fprintf(&b, `<text class="label" x="%d" y="%d">%d</text>`, 2, chartPad+4, top)
	for i, n := range d.Weekly {
		x := chartPad + slot*float64(i)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%d written, %s ago</title></rect>`,
			x+slot*0.15, y(n), slot*0.7, y(0)-y(n), n, plural.Of(weeks-1-i, "week"))
	}
	if len(d.DisputedWeekly) == weeks {
		points := make([]string, weeks)
		for i, n := range d.DisputedWeekly {
			points[i] = fmt.Sprintf("%.1f,%.1f", chartPad+slot*(float64(i)+0.5), y(n))
		}
		fmt.Fprintf(&b, `<polyline class="disputed" points="%s"/>`, strings.Join(points, " "))
	}
	fmt.Fprintf(&b, `<text class="label" x="%d" y="%d">%s ago</text><text class="label" x="%d" y="%d" text-anchor="end">this week</text>`,
		chartPad, chartHeight-3, plural.Of(weeks-1, "week"), chartWidth-chartPad, chartHeight-3)
	b.WriteString(`</svg>`)
	// Built here from numbers and the escaped domain name alone.
	return template.HTML(b.String())
}
