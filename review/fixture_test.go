package review

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/session"
)

const claudeMD = "# Project\n\n## Build\n\nRun `make`.\n"

// fixture is a project "demo" whose code repository has a committed
// CLAUDE.md, agent "auth" with raw notes, two pending proposals (one for
// CLAUDE.md, one for AGENTS.md), and its review page serving.
type fixture struct {
	store      *agent.Store
	agent      *agent.Agent
	code       string
	url        string // with the token
	base       string // http://127.0.0.1:<port>
	token      string
	claude     string // the CLAUDE.md proposal
	agents     string // the AGENTS.md proposal
	rawNoteIDs []string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := testproject.New(t, map[string]string{"CLAUDE.md": claudeMD})
	store, code, a := p.Store, p.Code, p.Agent
	f := &fixture{store: store, agent: a, code: code}
	var ids []string
	for _, text := range []string{"build the dashboard with go run ./cmd/build-dashboard", "run make lint before pushing", "the linter wants gofumpt"} {
		ids = append(ids, f.note(t, text))
	}
	f.rawNoteIDs = ids[2:]
	f.claude = f.propose(t, "auth", "CLAUDE.md", claudeMD+"Build the dashboard with `go run ./cmd/build-dashboard`.\n", ids[0])
	f.agents = f.propose(t, "auth", "AGENTS.md", "# Agents\n\nRun `make lint` before pushing.\n", ids[1])

	svc := session.Open(code)
	t.Cleanup(func() { _ = svc.Close() })
	srv, err := New(ctx, svc, "lead")
	if err != nil {
		t.Fatal(err)
	}
	ln, url, err := srv.Listen("0")
	if err != nil {
		t.Fatal(err)
	}
	f.url, f.base, f.token = url, strings.SplitN(url, "/?", 2)[0], srv.token
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return f
}

// note writes a raw note as agent auth and returns its ID.
func (f *fixture) note(t *testing.T, text string) string {
	t.Helper()
	w, err := f.agent.Note(context.Background(), text, "", "claude", agent.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return w.Written[len(w.Written)-1].ID
}

// propose keeps a proposal of content for path, made by who from note.
func (f *fixture) propose(t *testing.T, who, path, content, note string) string {
	t.Helper()
	rec, err := curation.Propose(context.Background(), f.store, f.code, who, curation.Proposal{ProposedFiles: map[string]string{path: content},
		DiffSummary: path + ": " + note, EntriesUsed: []string{note}})
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// request does a request with the token's cookie.
func (f *fixture) request(t *testing.T, method, path string, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, f.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: cookieName, Value: f.token})
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}
