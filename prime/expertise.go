package prime

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// Expertise renders learnings, grouped by domain in the order of their
// first learning, in one of prime's formats: what an agent reads of one
// domain's expertise before it starts (planq query). Each learning reads as
// in prime, with where to read it whole.
func Expertise(project string, recs []*changelog.Record, format string) (string, error) {
	type group struct {
		Domain    string              `json:"domain"`
		Learnings []*changelog.Record `json:"learnings"`
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
		g.Learnings = append(g.Learnings, r)
	}
	var b strings.Builder
	switch format {
	case "", "markdown":
		fmt.Fprintf(&b, "# planq: %s, expertise\n", project)
		for _, g := range groups {
			fmt.Fprintf(&b, "\n## %s (%d)\n", g.Domain, len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "- %s\n", indent(indexLine(r, ""), "  "))
			}
		}
	case "plain":
		fmt.Fprintf(&b, "planq: %s, expertise\n", project)
		for _, g := range groups {
			fmt.Fprintf(&b, "\n%s (%d):\n", strings.ToUpper(g.Domain), len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "  %s\n", indent(indexLine(r, ""), "  "))
			}
		}
	case "xml":
		fmt.Fprintf(&b, "<planq-expertise project=%q>\n", xmlText(project))
		for _, g := range groups {
			fmt.Fprintf(&b, "<domain name=%q count=\"%d\">\n", xmlText(g.Domain), len(g.Learnings))
			for _, r := range g.Learnings {
				fmt.Fprintf(&b, "<learning id=%q path=%q>%s</learning>\n", r.ID, xmlText(r.Path), xmlText(indexLine(r, "")))
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
