package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// kbActions are what planq_kb does: read the knowledge base (list, show,
// disputed), and the curating agent's work on it (curate, write, resolve),
// as 'planq kb' does them. Search finds articles with planq_search (kinds
// [article]); planq_get reads their lines. One tool with an action costs
// an agent's context less than one tool each.
var kbActions = []string{"list", "show", "disputed", "curate", "write", "resolve"}

type kbIn struct {
	Action  string `json:"action"`
	Slug    string `json:"slug,omitempty"`
	Article string `json:"article,omitempty" jsonschema:"write: the file"`
	Keep    string `json:"keep,omitempty" jsonschema:"resolve: side to keep"`
	Force   bool   `json:"force,omitempty" jsonschema:"write: over a deletion/edit"`
	Limit   *int   `json:"limit,omitempty" jsonschema:"curate: candidates (0: all)"`
	Topic   string `json:"topic,omitempty" jsonschema:"list: one topic"`
}

// registerKB adds planq_kb: the knowledge base's articles, read and
// written as 'planq kb list|show|disputed|curate|write|resolve' read and
// write them.
func (s *Server) registerKB(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_kb", Annotations: annotate("Knowledge base", overwrites),
		Description: "Knowledge base articles, by action.",
		InputSchema: schemaFor[kbIn](enums{"action": values(kbActions)})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in kbIn) (*mcp.CallToolResult, any, error) {
			return s.call(func() (string, error) { return s.kb(ctx, in) })
		})
}

func (s *Server) kb(ctx context.Context, in kbIn) (string, error) {
	needs := func(field, value string) error {
		if value == "" {
			return planqerr.New(planqerr.Invalid, "planq_kb", "action %s needs %s", in.Action, field).
				WithHint("send %s too", field)
		}
		return nil
	}
	switch in.Action {
	case "list":
		return s.kbList(ctx, in.Topic)
	case "show":
		if err := needs("slug", in.Slug); err != nil {
			return "", err
		}
		return s.kbShow(ctx, in.Slug)
	case "disputed":
		return s.kbDisputed(ctx)
	case "curate":
		limit := kbPacketSize
		if in.Limit != nil {
			limit = *in.Limit
		}
		p, err := s.svc.KBCurate(ctx, session.KBCurateInput{Limit: limit})
		if err != nil {
			return "", err
		}
		return p.Markdown(), nil
	case "write":
		if err := needs("article", in.Article); err != nil {
			return "", err
		}
		return s.kbWrite(ctx, in)
	case "resolve":
		if err := needs("slug", in.Slug); err != nil {
			return "", err
		}
		if err := needs("keep", in.Keep); err != nil {
			return "", err
		}
		res, err := s.svc.KBResolve(ctx, session.KBResolveInput{Slug: in.Slug, Keep: in.Keep})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("resolved %s: kept %s over %s; it is %s (commit %s)", res.Path, res.Kept, strings.Join(res.SetAside, ", "),
			res.Status, res.Commit[:min(12, len(res.Commit))]) + next(kbCall("show", "slug", in.Slug)), nil
	}
	return "", planqerr.New(planqerr.Invalid, "action", "%q is not one of %s", in.Action, strings.Join(kbActions, ", ")).
		WithHint("send action list to see the articles")
}

func kbCall(action string, args ...any) string {
	return call("planq_kb", append([]any{"action", action}, args...)...)
}

func (s *Server) kbList(ctx context.Context, topic string) (string, error) {
	entries, problems, err := s.svc.KBList(ctx, session.KBListInput{Topic: topic})
	if err != nil {
		return "", err
	}
	if len(entries) == 0 && topic != "" {
		return "No articles of topic " + topic + "." + next(kbCall("list")), nil
	}
	if len(entries) == 0 {
		return "No articles yet." + next(kbCall("curate")), nil
	}
	var b strings.Builder
	heading := ""
	for _, e := range entries {
		if e.Topic != heading {
			heading = e.Topic
			fmt.Fprintf(&b, "%s## %s\n", map[bool]string{true: "", false: "\n"}[b.Len() == 0], heading)
		}
		edited := ""
		if e.EditedByPerson {
			edited = ", edited by a person"
		}
		fmt.Fprintf(&b, "- %s: %s (%s, %s confidence%s): %s\n", e.Slug, e.Title, e.Status, e.Confidence, edited, e.Description)
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "\n(skipped %s: %s)", p.Path, p.Problem)
	}
	return strings.TrimRight(b.String(), "\n") + next(kbCall("show", "slug", entries[0].Slug), call("planq_search", "query", "<words>", "kinds", []string{"article"})), nil
}

func (s *Server) kbShow(ctx context.Context, slug string) (string, error) {
	a, err := s.svc.KBShow(ctx, slug)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\ntopic %s; %s, %s confidence; curated_by %s", a.Title, a.Path, a.Description, a.Topic, a.Status, a.Confidence, a.CuratedBy)
	if a.EditedByPerson {
		b.WriteString(", edited by a person")
	}
	fmt.Fprintf(&b, "; updated %s\n", a.Updated.UTC().Format("2006-01-02"))
	if len(a.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(a.Tags, ", "))
	}
	b.WriteString("\nSources:\n")
	for _, c := range a.Sources {
		b.WriteString("- " + citedLine(c) + "\n")
	}
	b.WriteString("\n" + a.Body)
	return b.String(), nil
}

// citedLine is a source as an agent reads it: the source, what it is now
// on global, and its record's one-line form.
func citedLine(c session.ArticleSource) string {
	state := "cited"
	switch {
	case c.Current:
		state = "current"
	case c.Record:
		state = c.Ended
	}
	line := c.Source + " (" + state + ")"
	if c.Line != "" {
		line += ": " + c.Line
	}
	return line
}

func (s *Server) kbDisputed(ctx context.Context) (string, error) {
	list, err := s.svc.KBDisputed(ctx)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "No article is disputed.", nil
	}
	var b strings.Builder
	var calls []string
	for i, d := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s)\nConflict:\n", d.Title, d.Path)
		for _, c := range d.Conflict {
			b.WriteString("- " + c + "\n")
		}
		b.WriteString("Sides:\n")
		for _, side := range d.Sides {
			b.WriteString("- " + citedLine(side.Cited) + "\n")
			if len(calls) < 2 && i == 0 {
				calls = append(calls, kbCall("resolve", "slug", d.Slug, "keep", side.Source))
			}
		}
	}
	return strings.TrimRight(b.String(), "\n") + next(calls...), nil
}

func (s *Server) kbWrite(ctx context.Context, in kbIn) (string, error) {
	res, err := s.svc.KBWrite(ctx, session.KBWriteInput{Text: []byte(in.Article), Slug: in.Slug, Name: "article", Force: in.Force})
	if err != nil {
		return "", err
	}
	if res.Action == "unchanged" {
		return fmt.Sprintf("%s is as it was: nothing committed", res.Path) + next(kbCall("curate")), nil
	}
	text := fmt.Sprintf("%s %s on global (curated_by %s, commit %s)", res.Action, res.Path, res.CuratedBy, res.Commit[:min(12, len(res.Commit))])
	if res.Moved != "" {
		text += "; moved from " + res.Moved
	}
	return text + next(kbCall("curate")), nil
}

// kbPacketSize is how many candidates one planq_kb curate packet holds,
// as 'planq kb curate' does by default.
const kbPacketSize = 10
