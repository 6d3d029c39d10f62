package prime

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// Expertise renders learnings, grouped by domain in the order of their
// first learning, in one of prime's formats: what an agent reads of one
// domain's expertise before it starts (planq query). Each learning reads as
// in prime, with where to read it whole, and is marked when the code it
// cites moved on (stale).
func Expertise(project string, recs []*changelog.Record, format string, stale readmodel.Staleness) (string, error) {
	type learning struct {
		*changelog.Record
		Stale []string `json:"stale,omitempty"`
	}
	type group struct {
		Domain    string     `json:"domain"`
		Learnings []learning `json:"learnings"`
	}
	line := func(r learning) string {
		if mark := stale.Mark(r.ID); mark != "" {
			return indexLine(r.Record, " "+mark)
		}
		return indexLine(r.Record, "")
	}
	var groups []*group
	at := map[string]*group{}
	for _, r := range recs {
		g := at[r.Domain]
		if g == nil {
			g = &group{Domain: r.Domain}
			at[r.Domain] = g
			groups = append(groups, g)
		}
		g.Learnings = append(g.Learnings, learning{r, stale.Notes[r.ID]})
	}
	var b strings.Builder
	switch format {
	case "", "markdown":
		fmt.Fprintf(&b, "# planq: %s, expertise\n", project)
		for _, g := range groups {
			fmt.Fprintf(&b, "\n## %s (%d)\n", g.Domain, len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "- %s\n", indent(line(r), "  "))
			}
		}
	case "plain":
		fmt.Fprintf(&b, "planq: %s, expertise\n", project)
		for _, g := range groups {
			fmt.Fprintf(&b, "\n%s (%d):\n", strings.ToUpper(g.Domain), len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "  %s\n", indent(line(r), "  "))
			}
		}
	case "xml":
		fmt.Fprintf(&b, "<planq-expertise project=%q>\n", xmlText(project))
		for _, g := range groups {
			fmt.Fprintf(&b, "<domain name=%q count=\"%d\">\n", xmlText(g.Domain), len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "<learning id=%q path=%q>%s</learning>\n", r.ID, xmlText(r.Path), xmlText(line(r)))
			}
			b.WriteString("</domain>\n")
		}
		b.WriteString("</planq-expertise>\n")
	case "json":
		out := struct {
			Project string   `json:"project"`
			Domains []*group `json:"domains"`
		}{project, groups}
		if out.Domains == nil {
			out.Domains = []*group{}
		}
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return "", fmt.Errorf("failed to encode expertise: %w", err)
		}
		b.Write(data)
		b.WriteString("\n")
	default:
		return "", CheckFormat(format)
	}
	return b.String(), nil
}
