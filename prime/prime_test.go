package prime

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// The inputs here are built in the test: prime reads nothing, so no
// repository is needed to hold it to what it shows.

var t0 = time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)

func learning(id, domain string, typ changelog.Type, body string) *changelog.Record {
	return &changelog.Record{ID: id, Kind: changelog.KindLearning, Type: typ, Domain: domain, Body: body,
		Path: "learnings/" + domain + "/" + id + ".md", Timestamp: t0}
}

func decision(id, what string) *changelog.Record {
	return &changelog.Record{ID: id, Kind: changelog.KindDecision, Decision: what, Rationale: "why not",
		Path: "decisions/" + id + ".md", Timestamp: t0}
}

func logEntry(id, body string) *changelog.Record {
	return &changelog.Record{ID: id, Kind: changelog.KindLog, Type: changelog.TypeImplement, Body: body,
		Path: "log/" + id + ".md", Timestamp: t0}
}

// summary is an agent's with nothing in it but its name.
func summary() *Summary {
	return &Summary{Project: "demo", Agent: "auth", Branch: "agent-auth"}
}

// full is an input with something in every section an agent's or a lead's
// document has.
func full() *Input {
	s := summary()
	s.Focus = "Token refresh on 401"
	s.Code = branchctx.Code{Branch: "feature/login", Commit: "0123456789abcdef"}
	s.BranchContext = &branchctx.Context{Branch: "feature/login", Status: "active", Agent: "auth", Body: "Plan: refresh\n"}
	s.Handoff = &changelog.Record{ID: "pq-h1", Kind: changelog.KindHandoff, Agent: "api", Body: "Continue with the endpoint\n", Timestamp: t0}
	found := learning("pq-f1", "db", changelog.TypeConvention, "Run migrations first")
	found.Classification = changelog.Foundational
	s.Team = []*changelog.Record{found, learning("pq-t2", "ci", changelog.TypeFailure, "Flaky login test")}
	s.TeamTotal = 2
	s.Learnings = []*changelog.Record{learning("pq-o1", "auth", changelog.TypePattern, "Not promoted yet")}
	s.TeamDecisions = []*changelog.Record{decision("pq-d1", "Use RS256")}
	s.Decisions = []*changelog.Record{decision("pq-d2", "Keep sessions short")}
	s.RecentLog = []*changelog.Record{logEntry("pq-l1", "Wired the middleware")}
	disputed := decision("pq-x1", "Use HS256")
	disputed.Status = changelog.StatusDisputed
	s.Disputed = []*changelog.Record{disputed}
	return &Input{
		Summary: s,
		Plan:    "1. ship refresh\n",
		Relevant: []readmodel.Hit{{ID: "pq-r1", Path: "learnings/auth/pq-r1.md", Kind: changelog.KindLearning, Agent: "api",
			Time: t0, Title: "A refresh token is single use", From: 5, To: 9}},
		Stale: readmodel.Staleness{Notes: map[string][]string{
			"pq-t2": {"ci/login_test.go changed since 2026-11-01"},
			"pq-r1": {"auth/refresh.go deleted"},
		}},
		Activity: []readmodel.Activity{
			{Agent: "auth", Entries: 4, LastEntry: t0, Title: "mine"},
			{Agent: "api", Entries: 2, LastEntry: t0, Title: "Added the endpoint"},
		},
		Awaiting:  []Awaiting{{Agent: "api", Titles: []string{"one", "two", "three", "four"}}},
		Proposals: []Proposal{{ID: "pq-p1", State: "pending", Agent: "auth", Summary: "CLAUDE.md: the build\nmore", Additions: 5, Paths: []string{"CLAUDE.md"}}},
		Domains: []readmodel.DomainStatus{
			{Domain: "db", Current: 3, Governance: readmodel.GovernanceOK},
			{Domain: "ci", Current: 120, Governance: readmodel.GovernanceOver, PastShelfLife: 2, Disputed: 1, Flattening: true},
		},
	}
}

func build(t *testing.T, in *Input, opts Options) *Document {
	t.Helper()
	doc, err := Build(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// sectionsOf lists the document's sections, in the order they render.
func sectionsOf(doc *Document) []string {
	var names []string
	for _, s := range doc.sections() {
		names = append(names, s.Title)
	}
	return names
}

func TestBuildOrdersSections(t *testing.T) {
	global := full()
	global.Global = true
	global.Summary.Agent, global.Summary.Branch = "global", "global"
	for _, tc := range []struct {
		name string
		in   *Input
		opts Options
		want []string
	}{
		{"agent at startup", full(), Options{},
			[]string{"Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Learnings", "Decisions", "Your recent work", "Other agents", "Recording"}},
		{"agent after a compaction", full(), Options{Source: SourceCompact},
			[]string{"Recovery", "Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Learnings", "Recording"}},
		{"agent on resume", full(), Options{Source: SourceResume},
			[]string{"Recovery", "Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Learnings", "Recording"}},
		{"agent after clear", full(), Options{Source: SourceClear},
			[]string{"Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Learnings", "Decisions", "Your recent work", "Other agents", "Recording"}},
		{"lead", full(), Options{Role: RoleLead},
			[]string{"Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Awaiting promotion", "Disputed", "Proposals to review", "Stale", "Domains",
				"Learnings", "Decisions", "Your recent work", "Other agents", "Agents", "Recording"}},
		{"no agent mounted", global, Options{},
			[]string{"No agent", "Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Learnings", "Decisions", "Your recent work", "Other agents", "Recording"}},
		{"a lead without an agent is told nothing about one", global, Options{Role: RoleLead},
			[]string{"Handoff", "Focus", "Plan", "Branch", "Relevant to your task", "Awaiting promotion", "Disputed", "Proposals to review", "Stale", "Domains",
				"Learnings", "Decisions", "Your recent work", "Other agents", "Agents", "Recording"}},
		{"nothing recorded yet", &Input{Summary: summary()}, Options{}, []string{"Recording"}},
		{"a code branch without context", &Input{Summary: &Summary{Project: "demo", Agent: "a", Code: branchctx.Code{Branch: "main"}}}, Options{},
			[]string{"Branch", "Recording"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := build(t, tc.in, tc.opts)
			if got := sectionsOf(doc); !slices.Equal(got, tc.want) {
				t.Errorf("sections\n got %q\nwant %q", got, tc.want)
			}
			if doc.Dropped() != 0 {
				t.Errorf("%d items dropped under the default budget", doc.Dropped())
			}
		})
	}
}

func TestBuildItems(t *testing.T) {
	in := full()
	doc := build(t, in, Options{Role: RoleLead})
	text := map[string][]string{}
	for _, it := range doc.Items {
		text[it.Section] = append(text[it.Section], it.Text)
	}
	for section, want := range map[string][]string{
		"Handoff":               {"From api (pq-h1): Continue with the endpoint\nAcknowledge it once you have picked it up: planq handoff ack pq-h1"},
		"Branch":                {"feature/login (active): Plan: refresh"},
		"Plan":                  {"1. ship refresh"},
		"Relevant to your task": {"A refresh token is single use (learning by api, 2026-11-02): planq get learnings/auth/pq-r1.md:5-9 (may be stale: auth/refresh.go deleted)"},
		// Of what awaits, the first three titles and the count.
		"Awaiting promotion":  {"api: 4 new (one; two; three); review with planq context promote --agent api --dry-run"},
		"Disputed":            {"pq-x1 Use HS256: why not [disputed]"},
		"Proposals to review": {"pq-p1 (pending, 5 additions to CLAUDE.md, by auth): CLAUDE.md: the build — planq proposals show pq-p1"},
		// A lead is shown the stale records the document cites, by their line.
		"Stale": {"[ci/failure] Flaky login test — learnings/ci/pq-t2.md (may be stale: ci/login_test.go changed since 2026-11-01): check it against the code, then planq revalidate pq-t2 (or planq edit, planq retract)"},
		// Only the domains that need attention, with why.
		"Domains": {"ci: 120 current learnings: over target, 2 past their shelf life (planq prune), 1 disputed, insight rate flattening (planq status)"},
		"Learnings": {
			"[db/convention] Run migrations first — learnings/db/pq-f1.md",
			"[ci/failure] Flaky login test (may be stale: ci/login_test.go changed since 2026-11-01) — learnings/ci/pq-t2.md",
			"[auth/pattern] Not promoted yet (yours, not promoted yet) — learnings/auth/pq-o1.md",
		},
		"Decisions":        {"Use RS256: why not — decisions/pq-d1.md", "Keep sessions short: why not — decisions/pq-d2.md"},
		"Your recent work": {"2026-11-02 09:30 [implement] Wired the middleware"},
		// The agent itself is not among the others.
		"Other agents": {"api, 2026-11-02 09:30: Added the endpoint"},
		"Agents":       {"auth: 4 entries, last 2026-11-02 09:30: mine", "api: 2 entries, last 2026-11-02 09:30: Added the endpoint"},
	} {
		if !slices.Equal(text[section], want) {
			t.Errorf("%s\n got %q\nwant %q", section, text[section], want)
		}
	}
	// The records shown count as used; a record only linked (a decision, a
	// stale warning) is shown once, as its item.
	if got, want := doc.Shown(), []string{"pq-r1", "pq-f1", "pq-t2", "pq-o1"}; !slices.Equal(got, want) {
		t.Errorf("Shown() = %q, want %q", got, want)
	}
	if doc.Project != "demo" || doc.Agent != "auth" || doc.Role != RoleLead || doc.Source != SourceStartup {
		t.Errorf("document of %s/%s as %s from %s", doc.Project, doc.Agent, doc.Role, doc.Source)
	}
}

func TestRecoveryShortensLearnings(t *testing.T) {
	in := &Input{Summary: summary()}
	for i := range 25 {
		in.Summary.Team = append(in.Summary.Team, learning(fmt.Sprintf("pq-%02d", i), "go", changelog.TypeConvention, fmt.Sprintf("Learning %d", i)))
	}
	in.Summary.TeamTotal = 400
	for _, tc := range []struct {
		source        string
		shown, cited  int
		omitted       int
		closing, note string
	}{
		{SourceStartup, 25, 25, 375, "375 more learnings are never listed here; 'planq search WORDS' finds them.", ""},
		{SourceCompact, maxRecovering, maxRecovering, 390, "390 more learnings are never listed here; 'planq search WORDS' finds them.", "after a compaction"},
		{SourceResume, maxRecovering, maxRecovering, 390, "390 more learnings are never listed here; 'planq search WORDS' finds them.", "after a pause"},
	} {
		t.Run(tc.source, func(t *testing.T) {
			opts := Options{Source: tc.source}
			doc := build(t, in, opts)
			if n := len(doc.Shown()); n != tc.shown {
				t.Errorf("%d learnings shown, want %d", n, tc.shown)
			}
			if n := len(Cited(in, opts)); n != tc.cited {
				t.Errorf("%d records cited, want %d", n, tc.cited)
			}
			if doc.Omitted != tc.omitted || doc.Dropped() != tc.omitted {
				t.Errorf("omitted %d, dropped %d, want %d", doc.Omitted, doc.Dropped(), tc.omitted)
			}
			if !strings.HasSuffix(doc.Text, "\n"+tc.closing+"\n") {
				t.Errorf("closing line is not %q:\n%s", tc.closing, doc.Text)
			}
			if tc.note != "" && !strings.Contains(doc.Text, "This session resumes "+tc.note) {
				t.Errorf("no recovery note %q", tc.note)
			}
		})
	}
}

// closingRe is the line that says how many items were dropped and which
// command shows them all.
var closingRe = regexp.MustCompile(`(\d+) less important items were left out to stay under (\d+) characters; 'planq prime --budget (\d+)' shows them all\.`)

func TestBudgetDropsLeastImportantFirst(t *testing.T) {
	in := full()
	for i := range 40 {
		in.Summary.RecentLog = append(in.Summary.RecentLog, logEntry(fmt.Sprintf("pq-l%02d", i), fmt.Sprintf("log entry %d with some words to fill the line", i)))
	}
	whole := build(t, in, Options{Budget: 1 << 20})
	for _, format := range Formats {
		for _, budget := range []int{100000, len(whole.Text), 3000, 2000, 1500, 1200} {
			t.Run(fmt.Sprintf("%s/%d", format, budget), func(t *testing.T) {
				doc := build(t, in, Options{Format: format, Budget: budget})
				if len(doc.Text) > budget {
					t.Errorf("%d characters, over the budget of %d", len(doc.Text), budget)
				}
				// What is dropped is a prefix of the drop order: the highest
				// priority number first, later items before earlier ones,
				// and nothing that must be said (priority 0).
				kept := func(i int) bool { return !doc.Items[i].Dropped }
				for i, a := range doc.Items {
					if !a.Dropped {
						continue
					}
					if a.Priority == 0 {
						t.Errorf("dropped %q, which must be said", a.Text)
					}
					for j, b := range doc.Items {
						if kept(j) && b.Priority > 0 && (b.Priority > a.Priority || (b.Priority == a.Priority && j > i)) {
							t.Errorf("dropped %s/%d %q but kept the less important %s/%d %q", a.Section, a.Priority, a.Text, b.Section, b.Priority, b.Text)
						}
					}
				}
				dropped := doc.Dropped()
				m := closingRe.FindStringSubmatch(html.UnescapeString(doc.Text)) // xml escapes its quotes
				if dropped == 0 {
					if m != nil {
						t.Errorf("nothing dropped, yet it says %q", m[0])
					}
					return
				}
				if m == nil {
					t.Fatalf("%d items dropped and no closing line says so:\n%s", dropped, doc.Text)
				}
				if m[1] != strconv.Itoa(dropped) || m[2] != strconv.Itoa(budget) {
					t.Errorf("closing %q for %d dropped under %d", m[0], dropped, budget)
				}
				// The budget it names shows everything.
				all, _ := strconv.Atoi(m[3])
				again := build(t, in, Options{Format: format, Budget: all})
				if again.Dropped() != 0 || len(again.Text) > all {
					t.Errorf("--budget %d still drops %d items (%d characters)", all, again.Dropped(), len(again.Text))
				}
				// The dropped records are not counted as used.
				for _, id := range doc.Shown() {
					for _, it := range doc.Items {
						if it.Record == id && it.Dropped {
							t.Errorf("dropped record %s counted as shown", id)
						}
					}
				}
			})
		}
	}
}

func TestBudgetNeverDropsWhatMustBeSaid(t *testing.T) {
	in := full()
	in.Summary.Handoff.Body = strings.Repeat("a long handoff ", 100)
	doc := build(t, in, Options{Source: SourceCompact, Budget: 500})
	for _, it := range doc.Items {
		if it.Priority == 0 && it.Dropped {
			t.Errorf("%s dropped", it.Section)
		}
		if it.Priority > 0 && !it.Dropped {
			t.Errorf("%s kept in a budget the must-haves overflow", it.Section)
		}
	}
	if !strings.Contains(doc.Text, "a long handoff") || !strings.Contains(doc.Text, "## Recovery") {
		t.Errorf("the handoff and the recovery note go, whatever the budget:\n%s", doc.Text)
	}
}

// small is the input the format tests render: one of each kind of line,
// with text each format must escape.
func small() *Input {
	s := summary()
	s.Focus = `Refresh <tokens> & "sessions"`
	s.Team = []*changelog.Record{learning("pq-1", "auth", changelog.TypePattern, "Retry a 401 once\nthen give up")}
	s.TeamTotal = 3
	return &Input{Summary: s}
}

func TestFormats(t *testing.T) {
	guide := indent(recordingGuide, "  ")
	learned := "[auth/pattern] Retry a 401 once — learnings/auth/pq-1.md"
	omitted := "2 more learnings are never listed here; 'planq search WORDS' finds them."
	for _, tc := range []struct {
		format, want string
	}{
		{"markdown", "# planq: demo, agent auth\n\n## Focus\n- Refresh <tokens> & \"sessions\"\n\n## Learnings\n- " + learned +
			"\n\n## Recording\n- " + guide + "\n\n" + omitted + "\n"},
		{"", "# planq: demo, agent auth\n\n## Focus\n- Refresh <tokens> & \"sessions\"\n\n## Learnings\n- " + learned +
			"\n\n## Recording\n- " + guide + "\n\n" + omitted + "\n"},
		{"plain", "planq: demo, agent auth\n\nFOCUS:\n  Refresh <tokens> & \"sessions\"\n\nLEARNINGS:\n  " + learned +
			"\n\nRECORDING:\n  " + guide + "\n\n" + omitted + "\n"},
		{"xml", "<planq-context project=\"demo\" agent=\"auth\">\n<section name=\"Focus\">\n<item>Refresh &lt;tokens&gt; &amp; &#34;sessions&#34;</item>\n</section>\n" +
			"<section name=\"Learnings\">\n<item>" + xmlText(learned) + "</item>\n</section>\n<section name=\"Recording\">\n<item>" + xmlText(recordingGuide) + "</item>\n</section>\n" +
			"<omitted>" + xmlText(omitted) + "</omitted>\n</planq-context>\n"},
	} {
		t.Run("format "+tc.format, func(t *testing.T) {
			doc := build(t, small(), Options{Format: tc.format})
			if doc.Text != tc.want {
				t.Errorf("got\n%s\nwant\n%s", doc.Text, tc.want)
			}
		})
	}
	t.Run("format json", func(t *testing.T) {
		doc := build(t, small(), Options{Format: "json", Role: RoleLead, Source: SourceClear})
		if !strings.HasPrefix(doc.Text, "{\n  \"project\": \"demo\",\n  \"agent\": \"auth\",\n  \"for\": \"agent auth\",\n  \"role\": \"lead\",\n  \"source\": \"clear\",\n  \"sections\": [\n") ||
			!strings.HasSuffix(doc.Text, "}\n") {
			t.Errorf("not indented JSON in its field order:\n%s", doc.Text)
		}
		var got struct {
			Sections []section `json:"sections"`
			Omitted  int       `json:"omitted"`
			Closing  string    `json:"closing"`
		}
		if err := json.Unmarshal([]byte(doc.Text), &got); err != nil {
			t.Fatal(err)
		}
		want := []section{{"Focus", []string{`Refresh <tokens> & "sessions"`}}, {"Learnings", []string{learned}}, {"Recording", []string{recordingGuide}}}
		if fmt.Sprint(got.Sections) != fmt.Sprint(want) || got.Omitted != 2 || got.Closing != omitted {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("an unknown format", func(t *testing.T) {
		_, err := Build(small(), Options{Format: "yaml"})
		if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), `unknown format "yaml"`) {
			t.Errorf("err = %v", err)
		}
		if CheckFormat("yaml") == nil || CheckFormat("") != nil || CheckFormat("xml") != nil {
			t.Error("CheckFormat disagrees with Formats")
		}
	})
}

func TestTemplate(t *testing.T) {
	tmpl, err := ParseTemplate("Custom for {{.Agent}} in {{.Project}} ({{.Role}}, {{.Source}})\n{{range .Sections}}{{$t := .Title}}{{range .Items}}* {{$t}}: {{.}}\n{{end}}{{end}}{{.Closing}}")
	if err != nil {
		t.Fatal(err)
	}
	doc := build(t, small(), Options{Template: tmpl, Format: "xml"}) // the layout replaces the format
	if !strings.HasPrefix(doc.Text, "Custom for auth in demo (agent, startup)\n* Focus: Refresh <tokens> & \"sessions\"\n* Learnings: [auth/pattern]") ||
		!strings.HasSuffix(doc.Text, "2 more learnings are never listed here; 'planq search WORDS' finds them.") {
		t.Errorf("got\n%s", doc.Text)
	}
	// The budget holds for a layout too.
	doc = build(t, full(), Options{Template: tmpl, Budget: 600})
	if len(doc.Text) > 600 || doc.Dropped() == 0 || closingRe.FindString(doc.Text) == "" {
		t.Errorf("%d characters, %d dropped:\n%s", len(doc.Text), doc.Dropped(), doc.Text)
	}

	if _, err := ParseTemplate("{{.Nope"); !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), TemplatePath) {
		t.Errorf("a broken template: %v", err)
	}
	// A template that fails to run fails the build, and the document still
	// says which records were malformed.
	bad, err := ParseTemplate("{{len 3}}")
	if err != nil {
		t.Fatal(err)
	}
	in := small()
	in.Summary.Problems = []string{"log/x.md: bad frontmatter"}
	doc, err = Build(in, Options{Template: bad})
	if !planqerr.Is(err, planqerr.Invalid) || doc == nil || !slices.Equal(doc.Problems, in.Summary.Problems) {
		t.Errorf("doc %v, err %v", doc, err)
	}
}

func TestSummaryMarkdown(t *testing.T) {
	s := summary()
	if got := s.Markdown(); !strings.Contains(got, "# demo: agent auth (agent-auth)\n\n## Focus\n(none: set it with planq context set \"...\")\n\n## Scratch\n(none)\n\n## Recent log\n(none)\n") {
		t.Errorf("empty summary:\n%s", got)
	}
	s = full().Summary
	s.Scratch = "# Scratch\n\nremember the cache\n"
	s.TeamLearnings = s.Team
	got := s.Markdown()
	for _, want := range []string{
		"code branch: feature/login at 0123456789ab\n",
		"## Focus\nToken refresh on 401\n",
		"## Pending handoff (pq-h1 from api, ",
		"## Branch feature/login (active, by auth)\nPlan: refresh\n",
		"## Scratch\nremember the cache\n",
		"## Active decisions\n- pq-d2 Keep sessions short: why not\n",
		"## Team learnings (global)\n- pq-f1 [db/convention] Run migrations first\n- pq-t2 [ci/failure] Flaky login test\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	// Its JSON is the view's, flattened, beside the agent's own notes.
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"project":"demo"`, `"code":{"branch":"feature/login"`, `"branch_context":{`, `"recent_log":[`, `"team_learnings":[`, `"handoff":{`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON lacks %s: %s", key, data)
		}
	}
	if strings.Contains(string(data), `"Team"`) || strings.Contains(string(data), "AgentView") {
		t.Errorf("JSON shows what it should not: %s", data)
	}
}

func TestExpertise(t *testing.T) {
	recs := []*changelog.Record{
		learning("pq-1", "auth", changelog.TypePattern, "Retry <once>"),
		learning("pq-2", "db", changelog.TypeConvention, "Migrate first"),
		learning("pq-3", "auth", changelog.TypeFailure, "Tokens leak"),
	}
	stale := readmodel.Staleness{Notes: map[string][]string{"pq-3": {"auth/x.go deleted"}}}
	for _, tc := range []struct{ format, want string }{
		{"markdown", "# planq: demo, expertise\n\n## auth (2)\n- [auth/pattern] Retry <once> — learnings/auth/pq-1.md\n- [auth/failure] Tokens leak (may be stale: auth/x.go deleted) — learnings/auth/pq-3.md\n\n## db (1)\n- [db/convention] Migrate first — learnings/db/pq-2.md\n"},
		{"plain", "planq: demo, expertise\n\nAUTH (2):\n  [auth/pattern] Retry <once> — learnings/auth/pq-1.md\n  [auth/failure] Tokens leak (may be stale: auth/x.go deleted) — learnings/auth/pq-3.md\n\nDB (1):\n  [db/convention] Migrate first — learnings/db/pq-2.md\n"},
		{"xml", "<planq-expertise project=\"demo\">\n<domain name=\"auth\" count=\"2\">\n<learning id=\"pq-1\" path=\"learnings/auth/pq-1.md\">[auth/pattern] Retry &lt;once&gt; — learnings/auth/pq-1.md</learning>\n<learning id=\"pq-3\" path=\"learnings/auth/pq-3.md\">[auth/failure] Tokens leak (may be stale: auth/x.go deleted) — learnings/auth/pq-3.md</learning>\n</domain>\n<domain name=\"db\" count=\"1\">\n<learning id=\"pq-2\" path=\"learnings/db/pq-2.md\">[db/convention] Migrate first — learnings/db/pq-2.md</learning>\n</domain>\n</planq-expertise>\n"},
	} {
		got, err := Expertise("demo", recs, tc.format, stale)
		if err != nil || got != tc.want {
			t.Errorf("%s: err %v, got\n%s\nwant\n%s", tc.format, err, got, tc.want)
		}
	}
	got, err := Expertise("demo", nil, "json", stale)
	if err != nil || got != "{\n  \"project\": \"demo\",\n  \"domains\": []\n}\n" {
		t.Errorf("json of nothing: %v %q", err, got)
	}
	got, err = Expertise("demo", recs, "json", stale)
	if err != nil || !strings.Contains(got, `"stale": [`) || !strings.Contains(got, `"domain": "db"`) {
		t.Errorf("json: %v %s", err, got)
	}
	if _, err := Expertise("demo", recs, "yaml", stale); !planqerr.Is(err, planqerr.Invalid) {
		t.Errorf("yaml: %v", err)
	}
}

// A document of global (no agent mounted: a lead's checkout) is for a
// person, not an agent called global: it names them by their git name, or
// says "lead"; what global wrote (a lead's proposal) is theirs too.
func TestGlobalsDocumentNamesThePerson(t *testing.T) {
	in := full()
	in.Global = true
	in.Summary.Agent, in.Summary.Branch = "global", "global"
	in.Proposals[0].Agent = "global"
	in.Activity = append(in.Activity, readmodel.Activity{Agent: "global", Entries: 1, LastEntry: t0, Title: "imported"})
	in.Person, in.GlobalWriter = "Ada Lovelace", "global"
	for format, want := range map[string]string{
		"markdown": "# planq: demo, Ada Lovelace (lead)\n",
		"plain":    "planq: demo, Ada Lovelace (lead)\n",
		"xml":      "<planq-context project=\"demo\" for=\"Ada Lovelace (lead)\">\n",
		"json":     "\"for\": \"Ada Lovelace (lead)\"",
	} {
		for _, role := range []string{RoleAgent, RoleLead} {
			doc := build(t, in, Options{Format: format, Role: role})
			if !strings.Contains(doc.Text, want) {
				t.Errorf("%s, %s: no %q in\n%s", format, role, want, doc.Text)
			}
			if strings.Contains(doc.Text, "agent global") || strings.Contains(doc.Text, "by global") || strings.Contains(doc.Text, "agent=\"global\"") {
				t.Errorf("%s, %s: an agent called global:\n%s", format, role, doc.Text)
			}
		}
	}
	doc := build(t, in, Options{Role: RoleLead})
	for _, want := range []string{"by Ada Lovelace): CLAUDE.md: the build", "- Ada Lovelace: 1 entry, last"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("no %q in\n%s", want, doc.Text)
		}
	}
	in.Person = ""
	if doc := build(t, in, Options{Role: RoleLead}); !strings.HasPrefix(doc.Text, "# planq: demo, lead\n") || !strings.Contains(doc.Text, "by the lead)") {
		t.Errorf("without a git name:\n%s", doc.Text)
	}
	// An agent's document is an agent's.
	if doc := build(t, full(), Options{Format: "xml"}); !strings.HasPrefix(doc.Text, "<planq-context project=\"demo\" agent=\"auth\">\n") {
		t.Errorf("agent's xml:\n%s", doc.Text)
	}
}
