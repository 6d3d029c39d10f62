package mcpserver

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// maxSnippet bounds one search result's text.
const maxSnippet = 700

type searchIn struct {
	agentArg
	Query string `json:"query" jsonschema:"words to look for in every agent's and the team's records"`
	Kind  string `json:"kind,omitempty" jsonschema:"only this kind: log, learning, decision, handoff or checkpoint"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 8, at most 50)"`
}

type getIn struct {
	agentArg
	Path string `json:"path" jsonschema:"a record's path as planq_search or planq_log gave it, like learnings/auth/pq-3f9a1c2e4b.md"`
	From int    `json:"from,omitempty" jsonschema:"first line (default 1)"`
	To   int    `json:"to,omitempty" jsonschema:"last line (default: 200 lines on)"`
}

func (s *Server) registerSearch(srv *mcp.Server, readOnly *mcp.ToolAnnotations) {
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_search", Annotations: readOnly,
		Description: "Search every agent's and the team's records (learnings, decisions, log, handoffs). Before answering about prior work, decisions or conventions, search. Results are snippets with file path and line range."},
		func(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(*agent.Agent) (string, error) { return s.search(in) })
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "planq_get", Annotations: readOnly,
		Description: "Read lines of one record file from the state repository."},
		func(_ context.Context, _ *mcp.CallToolRequest, in getIn) (*mcp.CallToolResult, any, error) {
			return s.withAgent(in.Agent, func(a *agent.Agent) (string, error) { return s.get(a, in) })
		})
}

func (s *Server) search(in searchIn) (string, error) {
	terms := strings.Fields(strings.ToLower(in.Query))
	if len(terms) == 0 || len(in.Query) > 1000 {
		return "", fmt.Errorf("query must hold 1 to 1000 characters of words to look for")
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 8
	}
	limit = min(limit, 50)
	var dirs []string
	if in.Kind != "" {
		dir := changelog.Kind(in.Kind).Dir()
		if dir == "" {
			return "", fmt.Errorf("unknown kind %q (log, learning, decision, handoff or checkpoint)", in.Kind)
		}
		dirs = []string{dir}
	}
	recs, err := s.store.AllRecords(dirs...)
	if err != nil && len(recs) == 0 {
		return "", err
	}
	type hit struct {
		r     *changelog.Record
		score int
	}
	var hits []hit
	for _, r := range changelog.Current(recs) {
		title := strings.ToLower(r.Title() + " " + r.Decision)
		text := strings.ToLower(strings.Join([]string{r.Body, r.Domain, r.Rationale, r.Resolution, r.Subject, r.Type}, " "))
		score := 0
		for _, t := range terms {
			score += 3*strings.Count(title, t) + min(strings.Count(text, t), 5)
		}
		if score > 0 {
			hits = append(hits, hit{r, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].r.Timestamp.After(hits[j].r.Timestamp)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d records match %q", len(hits), in.Query)
	if len(hits) > limit {
		fmt.Fprintf(&b, "; the best %d", limit)
	}
	b.WriteString(":\n")
	for _, h := range hits[:min(limit, len(hits))] {
		data, err := s.readRecord(h.r.Path, "")
		if err != nil {
			continue
		}
		from, to, snippet := snippetOf(string(data), terms)
		fmt.Fprintf(&b, "\n%s:%d-%d (%s by %s, %s)\n%s\n", h.r.Path, from, to, h.r.Kind, h.r.Agent, h.r.Timestamp.Format("2006-01-02"), snippet)
	}
	if len(hits) == 0 {
		return b.String() + next(call("planq_search", "query", "<other words>"), call("planq_log", "all", true)), nil
	}
	return b.String() + next(call("planq_get", "path", hits[0].r.Path), call("planq_search", "query", in.Query, "limit", 50)), nil
}

// snippetOf picks the lines around the best-matching line, at most
// maxSnippet characters, and says which lines they are (1-based).
func snippetOf(text string, terms []string) (int, int, string) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	best, bestScore := 0, -1
	for i, l := range lines {
		ll := strings.ToLower(l)
		score := 0
		for _, t := range terms {
			score += strings.Count(ll, t)
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	from, to := max(0, best-2), min(len(lines)-1, best+3)
	snippet := strings.Join(lines[from:to+1], "\n")
	for len(snippet) > maxSnippet && to > best {
		to--
		snippet = strings.Join(lines[from:to+1], "\n")
	}
	if len(snippet) > maxSnippet {
		snippet = snippet[:maxSnippet-3] + "..."
	}
	return from + 1, to + 1, snippet
}

func (s *Server) get(a *agent.Agent, in getIn) (string, error) {
	p := in.Path
	if !allowedPath(p) {
		return "", fmt.Errorf("path %q is not a record of the state repository (like learnings/auth/pq-3f9a1c2e4b.md)", p)
	}
	data, err := s.readRecord(p, a.Branch)
	if err != nil {
		return "", fmt.Errorf("no file %s in the state repository", p)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	from := max(1, in.From)
	to := in.To
	if to <= 0 {
		to = from + 199
	}
	to = min(to, len(lines))
	if from > to {
		return "", fmt.Errorf("%s has %d lines; from %d is past the end", p, len(lines), from)
	}
	out := fmt.Sprintf("%s:%d-%d of %d lines\n%s", p, from, to, len(lines), strings.Join(lines[from-1:to], "\n"))
	if to < len(lines) {
		return out + next(call("planq_get", "path", p, "from", to+1)), nil
	}
	return out + next(call("planq_search", "query", "<topic>")), nil
}

// allowedPath admits only clean relative paths to planq's own files: never
// anything outside the state repository, never a git internal.
func allowedPath(p string) bool {
	if p == "" || len(p) > 300 || path.IsAbs(p) || path.Clean(p) != p || strings.Contains(p, "..") || strings.Contains(p, "\\") {
		return false
	}
	return changelog.IsRecordPath(p) || p == agent.ScratchFile || p == agent.FocusFile ||
		(strings.HasPrefix(p, "branches/") && strings.Count(p, "/") == 1 && strings.HasSuffix(p, ".md"))
}

// readRecord reads path from the agent's branch first, then global, then
// every other agent's: records are read from git, never from the disk.
func (s *Server) readRecord(p, first string) ([]byte, error) {
	branches, err := s.store.Repo.Branches("")
	if err != nil {
		return nil, err
	}
	order := []string{first, staterepo.GlobalBranch}
	names := make([]string, 0, len(branches))
	for b := range branches {
		names = append(names, b)
	}
	sort.Strings(names)
	order = append(order, names...)
	for _, b := range order {
		tip, ok := branches[b]
		if !ok {
			continue
		}
		if data, err := s.store.Repo.ReadFile(tip, p); err == nil {
			return data, nil
		}
	}
	return nil, fmt.Errorf("no file %s", p)
}
