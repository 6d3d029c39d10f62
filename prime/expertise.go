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
	var groups []*expertGroup
	at := map[string]*expertGroup{}
	for _, r := range recs {
		g := at[r.Domain]
		if g == nil {
			g = &expertGroup{Domain: r.Domain}
			at[r.Domain] = g
			groups = append(groups, g)
		}
		g.Learnings = append(g.Learnings, expertLearning{r, stale.Notes[r.ID]})
	}
	switch format {
	case "", "markdown":
		return expertiseMarkdown(project, groups, stale), nil
	case "plain":
		return expertisePlain(project, groups, stale), nil
	case "xml":
		return expertiseXML(project, groups, stale), nil
	case "json":
		return expertiseJSON(project, groups)
	}
	return "", CheckFormat(format)
}

// expertLearning is a learning of Expertise, and what it cites that moved
// on.
type expertLearning struct {
	*changelog.Record
	Stale []string `json:"stale,omitempty"`
}

// expertGroup is one domain's learnings.
type expertGroup struct {
	Domain    string           `json:"domain"`
	Learnings []expertLearning `json:"learnings"`
}

// expertLine is a learning as Expertise lists it, marked when stale.
func expertLine(r expertLearning, stale readmodel.Staleness) string {
	if mark := stale.Mark(r.ID); mark != "" {
		return indexLine(r.Record, " "+mark)
	}
	return indexLine(r.Record, "")
}

func expertiseMarkdown(project string, groups []*expertGroup, stale readmodel.Staleness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# planq: %s, expertise\n", project)
	for _, g := range groups {
		fmt.Fprintf(&b, "\n## %s (%d)\n", g.Domain, len(g.Learnings))
		for _, r := range g.Learnings {
			fmt.Fprintf(&b, "- %s\n", indent(expertLine(r, stale), "  "))
		}
	}
	return b.String()
}

func expertisePlain(project string, groups []*expertGroup, stale readmodel.Staleness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "planq: %s, expertise\n", project)
	for _, g := range groups {
		fmt.Fprintf(&b, "\n%s (%d):\n", strings.ToUpper(g.Domain), len(g.Learnings))
		for _, r := range g.Learnings {
			fmt.Fprintf(&b, "  %s\n", indent(expertLine(r, stale), "  "))
		}
	}
	return b.String()
}

func expertiseXML(project string, groups []*expertGroup, stale readmodel.Staleness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<planq-expertise project=%q>\n", xmlText(project))
	for _, g := range groups {
		fmt.Fprintf(&b, "<domain name=%q count=\"%d\">\n", xmlText(g.Domain), len(g.Learnings))
		for _, r := range g.Learnings {
			fmt.Fprintf(&b, "<learning id=%q path=%q>%s</learning>\n", r.ID, xmlText(r.Path), xmlText(expertLine(r, stale)))
		}
		b.WriteString("</domain>\n")
	}
	b.WriteString("</planq-expertise>\n")
	return b.String()
}

func expertiseJSON(project string, groups []*expertGroup) (string, error) {
	out := struct {
		Project string         `json:"project"`
		Domains []*expertGroup `json:"domains"`
	}{project, groups}
	if out.Domains == nil {
		out.Domains = []*expertGroup{}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return "", fmt.Errorf("failed to encode expertise: %w", err)
	}
	return string(data) + "\n", nil
}
