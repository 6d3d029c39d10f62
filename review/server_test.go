package review

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/session"
	"github.com/planq-dev/planq/team"
)

func decode[T any](t *testing.T, res *http.Response) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", res.Request.URL, err)
	}
	return v
}

func TestEveryRouteNeedsTheToken(t *testing.T) {
	f := newFixture(t)
	for _, path := range []string{"/", "/assets/app.js", "/api/learnings/demo/proposals", "/api/learnings/demo/entries", "/nowhere"} {
		res, err := http.Get(f.base + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %d, want 401", path, res.StatusCode)
		}
		res, err = http.Get(f.base + path + "?token=" + strings.Repeat("0", len(f.token)))
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong token: %d, want 401", path, res.StatusCode)
		}
	}
	res, err := http.Post(f.base+"/api/learnings/demo/proposals/"+f.claude+"/apply", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("apply without the token: %d, want 401", res.StatusCode)
	}
	// The token in the URL sets the cookie that authorises what follows.
	res, err = http.Get(f.url)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == cookieName {
			cookie = c
		}
	}
	if res.StatusCode != http.StatusOK || cookie == nil || cookie.Value != f.token || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("GET with the token: %d, cookie %+v", res.StatusCode, cookie)
	}
	if res := f.request(t, "GET", "/assets/app.js", "", nil); res.StatusCode != http.StatusOK {
		t.Errorf("GET an asset with the cookie: %d", res.StatusCode)
	}
}

func TestOtherOriginsAreRefused(t *testing.T) {
	f := newFixture(t)
	apply := "/api/learnings/demo/proposals/" + f.claude + "/apply"
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Origin": "http://127.0.0.1:1"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Host": "evil.example:80"},
	} {
		if res := f.request(t, "POST", apply, "", h); res.StatusCode != http.StatusForbidden {
			t.Errorf("apply with %v: %d, want 403", h, res.StatusCode)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(f.code, "CLAUDE.md")); string(data) != claudeMD {
		t.Fatalf("a refused apply changed CLAUDE.md:\n%s", data)
	}
	// The page's own origin is welcome.
	if res := f.request(t, "GET", "/api/learnings/demo/proposals", "", map[string]string{"Origin": f.base, "Sec-Fetch-Site": "same-origin"}); res.StatusCode != http.StatusOK {
		t.Errorf("GET from the page's own origin: %d", res.StatusCode)
	}
}

func TestAPIListsShowsAppliesAndDismisses(t *testing.T) {
	f := newFixture(t)
	api := "/api/learnings/demo"
	list := decode[struct {
		Pending   int             `json:"pending"`
		Proposals []curation.View `json:"proposals"`
	}](t, f.request(t, "GET", api+"/proposals", "", nil))
	if list.Pending != 2 || len(list.Proposals) != 2 {
		t.Fatalf("proposals: %+v", list)
	}
	show := decode[curation.View](t, f.request(t, "GET", api+"/proposals/"+f.claude, "", nil))
	if len(show.Files) != 1 || !strings.Contains(show.Files[0].Diff, "+Build the dashboard with `go run ./cmd/build-dashboard`.") {
		t.Fatalf("show: %+v", show)
	}
	if res := f.request(t, "GET", api+"/proposals/pq-0000000000", "", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown proposal: %d, want 404", res.StatusCode)
	}
	if res := f.request(t, "GET", "/api/learnings/other/proposals", "", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another project: %d, want 404", res.StatusCode)
	}

	// Entries, filtered.
	raw := decode[curation.NoteList](t, f.request(t, "GET", api+"/entries?state=raw", "", nil))
	if raw.Total != 1 || raw.Notes[0].ID != f.rawNoteIDs[0] {
		t.Errorf("raw entries: %+v", raw)
	}
	proposed := decode[curation.NoteList](t, f.request(t, "GET", api+"/entries?state=proposed&agent=auth&type=operational&limit=1", "", nil))
	if proposed.Total != 2 || len(proposed.Notes) != 1 {
		t.Errorf("proposed entries, limit 1: total %d, %d notes", proposed.Total, len(proposed.Notes))
	}
	if none := decode[curation.NoteList](t, f.request(t, "GET", api+"/entries?until=2000-01-01", "", nil)); none.Total != 0 {
		t.Errorf("entries until 2000: %d", none.Total)
	}
	if res := f.request(t, "GET", api+"/entries?state=lost", "", nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("entries in an unknown state: %d, want 400", res.StatusCode)
	}

	// Apply with edited content: one commit of CLAUDE.md, as edited.
	edited := claudeMD + "Dashboard: `go run ./cmd/build-dashboard`.\n"
	body, _ := json.Marshal(applyRequest{Files: map[string]string{"CLAUDE.md": edited}})
	res := f.request(t, "POST", api+"/proposals/"+f.claude+"/apply", string(body), map[string]string{"Origin": f.base})
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		t.Fatalf("apply: %d %s", res.StatusCode, data)
	}
	done := decode[curation.Applied](t, res)
	if head := testgit.Run(t, f.code, "rev-parse", "HEAD"); head != done.Commit {
		t.Errorf("apply says %s, HEAD is %s", done.Commit, head)
	}
	if files := testgit.Run(t, f.code, "show", "--name-only", "--format=", "HEAD"); files != "CLAUDE.md" {
		t.Errorf("the commit holds %q, want CLAUDE.md alone", files)
	}
	if data, _ := os.ReadFile(filepath.Join(f.code, "CLAUDE.md")); string(data) != edited {
		t.Errorf("CLAUDE.md is %q, want the edited content", data)
	}
	if res := f.request(t, "POST", api+"/proposals/"+f.claude+"/apply", "", nil); res.StatusCode != http.StatusConflict {
		t.Errorf("apply twice: %d, want 409", res.StatusCode)
	}
	if res := f.request(t, "POST", api+"/proposals/"+f.agents+"/apply", `{"files": {"../x": "y"}}`, nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("apply with a file not in the proposal: %d, want 400", res.StatusCode)
	}

	// Dismiss: the code repository is not touched.
	res = f.request(t, "POST", api+"/proposals/"+f.agents+"/dismiss", "", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("dismiss: %d", res.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(f.code, "AGENTS.md")); err == nil {
		t.Error("dismiss wrote AGENTS.md")
	}
	list = decode[struct {
		Pending   int             `json:"pending"`
		Proposals []curation.View `json:"proposals"`
	}](t, f.request(t, "GET", api+"/proposals", "", nil))
	states := map[string]string{}
	for _, v := range list.Proposals {
		states[v.ID] = v.State
	}
	if list.Pending != 0 || states[f.claude] != curation.StateApplied || states[f.agents] != curation.StateDismissed {
		t.Errorf("after apply and dismiss: pending %d, states %v", list.Pending, states)
	}
}

func TestPageShowsEverySection(t *testing.T) {
	f := newFixture(t)
	res := f.request(t, "GET", "/?state=raw", "", nil)
	data, _ := io.ReadAll(res.Body)
	page := string(data)
	for _, want := range []string{
		`<span id="badge" class="badge">2</span>`,
		`data-id="` + f.claude + `"`,
		`<span class="add">&#43;Build the dashboard with `,
		`class="edit-apply"`,
		`the linter wants gofumpt`,
		`<h2>Awaiting promotion</h2>`,
		`<h2>Convergence</h2>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The notes log is filtered: only the raw note.
	if strings.Contains(page, "<td>run make lint before pushing</td>") {
		t.Error("the notes log, filtered to raw, shows a proposed note")
	}
}

// TestAPIPromotes: what an agent learned awaits promotion, and
// the API's promote puts it on global.
func TestAPIPromotes(t *testing.T) {
	f := newFixture(t)
	a, err := f.store.Agent("auth")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Tokens expire after 15 minutes", Type: changelog.TypePattern, Domain: "auth"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write(context.Background(), rec, agent.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	api := "/api/learnings/demo"
	before := decode[session.Promotion](t, f.request(t, "GET", api+"/promotion", "", nil))
	if len(before.Agents) != 1 || before.Agents[0].Agent != "auth" || !slices.ContainsFunc(before.Agents[0].Candidates,
		func(c team.Candidate) bool { return c.ID == rec.ID }) {
		t.Fatalf("awaiting promotion: %+v", before)
	}
	if res := f.request(t, "POST", api+"/agents/auth/promote", "", map[string]string{"Origin": f.base}); res.StatusCode != http.StatusOK {
		t.Fatalf("promote: %d", res.StatusCode)
	}
	if after := decode[session.Promotion](t, f.request(t, "GET", api+"/promotion", "", nil)); len(after.Agents) != 0 {
		t.Errorf("after promote, still awaiting: %+v", after.Agents)
	}
	set, err := f.store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil || len(set.Records) != 1 || set.Records[0].ID != rec.ID {
		t.Errorf("global's learnings after promote: %v (%v)", set.Records, err)
	}
	if res := f.request(t, "POST", api+"/agents/nobody/promote", "", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("promote an unknown agent: %d, want 404", res.StatusCode)
	}
}

func TestAPIStatusAndBadFilters(t *testing.T) {
	f := newFixture(t)
	api := "/api/learnings/demo"
	status := decode[struct {
		Domains []map[string]any `json:"domains"`
	}](t, f.request(t, "GET", api+"/status", "", nil))
	if status.Domains == nil {
		t.Errorf("status: %+v", status)
	}
	for _, q := range []string{"since=yesterday", "until=2026-13-01", "limit=-1", "limit=many", "state=raw,lost"} {
		res := f.request(t, "GET", api+"/entries?"+q, "", nil)
		e := decode[apiError](t, res)
		if res.StatusCode != http.StatusBadRequest || e.Error == "" {
			t.Errorf("entries?%s: %d %+v, want 400 saying why", q, res.StatusCode, e)
		}
	}
	// The page says what was wrong with its filter and shows every note.
	res := f.request(t, "GET", "/?since=yesterday", "", nil)
	page, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), "is not a date") || !strings.Contains(string(page), "the linter wants gofumpt") {
		t.Errorf("the page with a bad filter: %d\n%s", res.StatusCode, page)
	}
	if res := f.request(t, "POST", api+"/proposals/"+f.claude+"/apply", "not json", nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("apply with a body that is not JSON: %d, want 400", res.StatusCode)
	}
	// A chart is SVG drawn from the numbers.
	svg := string(convergenceChart(readmodel.DomainStatus{Domain: "a<b", Weekly: []int{3, 1, 0, 2}, DisputedWeekly: []int{0, 1, 0, 0}}))
	if !strings.HasPrefix(svg, "<svg") || strings.Count(svg, `class="bar"`) != 4 || !strings.Contains(svg, "a&lt;b") || !strings.Contains(svg, "<polyline") {
		t.Errorf("chart:\n%s", svg)
	}
	if convergenceChart(readmodel.DomainStatus{Domain: "empty"}) != "" {
		t.Error("a domain without weeks drew a chart")
	}
}

// TestPageShowsWhichProjectsOptedOut: the page lists the state
// repositories on this machine, and says which project is private (never
// searched from another, never promoted from) and which is searchable.
func TestPageShowsWhichProjectsOptedOut(t *testing.T) {
	f := newFixture(t)
	home := f.store.Project.Home
	for _, other := range []struct {
		name    string
		private bool
	}{{"vault", true}, {"shared", false}} {
		p := &project.Project{Home: home, Root: t.TempDir(), Config: project.Config{Project: other.name, Private: other.private}}
		if _, err := team.InitGlobal(context.Background(), p.StateRepo(), other.name); err != nil {
			t.Fatal(err)
		}
		if err := p.Register(); err != nil {
			t.Fatal(err)
		}
	}
	res := f.request(t, "GET", "/", "", nil)
	data, _ := io.ReadAll(res.Body)
	page := string(data)
	for _, want := range []string{
		`<h2>Projects on this machine</h2>`,
		`<tr data-project="vault"><td>vault</td><td class="sharing">private: opted out</td>`,
		`<tr data-project="shared"><td>shared</td><td class="sharing">searchable with --all-projects</td>`,
		`<tr data-project="` + f.store.Project.Config.Project + `"><td>` + f.store.Project.Config.Project + ` (this project)</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
