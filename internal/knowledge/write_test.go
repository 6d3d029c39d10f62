package knowledge

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

func (f *fixture) curate(limit int) Packet {
	f.t.Helper()
	p, err := Curate(f.ctx, f.store, CurateOptions{Limit: limit})
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) candidate(p Packet, slug string) Candidate {
	f.t.Helper()
	for _, c := range p.Candidates {
		if c.Slug == slug {
			return c
		}
	}
	f.t.Fatalf("no candidate %s in %+v", slug, p.Candidates)
	return Candidate{}
}

func (f *fixture) writeArticle(slug, text string, force bool) (WriteResult, error) {
	return Write(f.ctx, f.store, []byte(text), WriteOptions{Slug: slug, Name: slug + ".md", Force: force})
}

// article is an agent's article on the jwt signing decision, citing ids.
func article(topic, body string, ids ...string) string {
	return "---\ntype: article\ntitle: JWT signing\ndescription: How tokens are signed, and why.\ntopic: " + topic +
		"\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-02T00:00:00Z\ntimestamp: 2026-01-02T00:00:00Z\nsources: [" +
		strings.Join(ids, ", ") + "]\nconfidence: high\nstatus: current\ncurated_by: auto\n---\n\n" + body + "\n"
}

// TestCurateHandsOutWhatUpdateWouldWriteAndWritesNothing: the packet holds
// Update's drafts, each with every record it gathers (whole), the rules
// and how to answer; global does not move.
func TestCurateHandsOutWhatUpdateWouldWriteAndWritesNothing(t *testing.T) {
	f := newFixture(t)
	d := f.decide("Sign tokens with RS256.", "Public keys can be shared with every service.", "jwt signing")
	l := f.learn("Keys rotate every 90 days. The old key stays valid a week.", changelog.TypePattern, "auth", "jwt signing")
	f.learn("Sessions are stored in Redis.", changelog.TypeConvention, "sessions", "")
	tip := f.globalTip()
	p := f.curate(0)
	if f.globalTip() != tip {
		t.Fatal("curate moved global")
	}
	c := f.candidate(p, "jwt-signing")
	if c.Reason != "new" || c.Path != "knowledge/decisions/jwt-signing.md" || !slices.Equal(c.Sources, []string{d, l}) ||
		!slices.Equal(c.New, []string{d, l}) || !strings.Contains(c.Draft, "Sign tokens with RS256. ("+d+")") {
		t.Errorf("candidate: %+v", c)
	}
	if len(p.Candidates) != 2 || len(p.Records) != 3 || p.Left != 0 {
		t.Errorf("candidates %d, records %d, left %d", len(p.Candidates), len(p.Records), p.Left)
	}
	var whole Source
	for _, r := range p.Records {
		if r.ID == l {
			whole = r
		}
	}
	if whole.Text != "Keys rotate every 90 days. The old key stays valid a week." || whole.State != "current" {
		t.Errorf("the record, whole: %+v", whole)
	}
	if !slices.Equal(p.Format.Topics, DefaultTopics) || !slices.Contains(p.Format.Keys, "curated_by") || len(p.Format.Sections) == 0 {
		t.Errorf("format: %+v", p.Format)
	}
	md := p.Markdown()
	for _, want := range []string{"## Rules", "Never drop a person's text", "### jwt-signing (new)", "Cite every one of: " + d + ", " + l,
		`planq_kb {"action": "write"`, "planq kb write --slug <slug>", "topic: one of architecture, decisions"} {
		if !strings.Contains(md, want) {
			t.Errorf("the packet's Markdown lacks %q:\n%s", want, md)
		}
	}
	if one := f.curate(1); len(one.Candidates) != 1 || one.Left != 1 || one.Candidates[0].Slug != "jwt-signing" {
		t.Errorf("a packet of one: %+v, left %d", one.Candidates, one.Left)
	}

	// Once Update wrote them, planq's articles are still to curate, as they are.
	f.update()
	p = f.curate(0)
	c = f.candidate(p, "jwt-signing")
	if c.Reason != "uncurated" || c.Draft != "" || len(c.New) != 0 || len(p.Articles) != 2 || p.Articles[0].Body == "" {
		t.Errorf("after update: %+v; articles %+v", c, p.Articles)
	}
}

// TestWriteCommitsAnAgentsArticleAsPlanqs: the article lands at its path,
// curated_by mixed, in a commit with planq's trailer and the index; Update
// leaves the agent's words alone and Curate no longer hands it out.
func TestWriteCommitsAnAgentsArticleAsPlanqs(t *testing.T) {
	f := newFixture(t)
	d := f.decide("Sign tokens with RS256.", "Public keys can be shared with every service.", "jwt signing")
	l := f.learn("Keys rotate every 90 days.", changelog.TypePattern, "auth", "jwt signing")
	body := "# Decision\n\nWe sign tokens with RS256, so any service can check them with the public key (" + d + ").\n\n# Key facts\n\n- Keys rotate every 90 days (" + l + ")."
	res, err := f.writeArticle("jwt-signing", article("decisions", body, d, l), false)
	if err != nil {
		t.Fatal(err)
	}
	p := "knowledge/decisions/jwt-signing.md"
	if res.Action != "created" || res.Path != p || res.CuratedBy != changelog.CuratedMixed || res.Commit != f.globalTip() {
		t.Fatalf("write: %+v", res)
	}
	got := f.file(p)
	a, err := changelog.ParseArticle(p, []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if a.CuratedBy != changelog.CuratedMixed || a.Body != body || !a.Updated.After(a.Created) || !a.Timestamp.Equal(a.Updated) {
		t.Errorf("stored: %+v", a)
	}
	if out := testgit.Run(t, f.store.Repo.Path, "log", "-1", "--format=%B", project.GlobalBranch); !strings.Contains(out, TrailerKey+": write") {
		t.Errorf("commit message: %s", out)
	}
	if !strings.Contains(f.file(IndexPath), "[JWT signing](decisions/jwt-signing.md) - How tokens are signed, and why.") {
		t.Errorf("index:\n%s", f.file(IndexPath))
	}
	entries, _, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil || len(entries) != 1 || entries[0].EditedByPerson {
		t.Errorf("an agent's write counts as a person's: %+v %v", entries, err)
	}
	// The same article again: nothing to commit.
	tip := f.globalTip()
	if again, err := f.writeArticle("jwt-signing", article("decisions", body, d, l), false); err != nil || again.Action != "unchanged" || f.globalTip() != tip {
		t.Errorf("the same write again: %+v %v", again, err)
	}
	// Update keeps the agent's words; a new source is listed at the end.
	f.update()
	if f.file(p) != got {
		t.Errorf("update rewrote the agent's article:\n%s", f.file(p))
	}
	l2 := f.learn("Old keys stay valid a week.", changelog.TypePattern, "auth", "jwt signing")
	f.update()
	if !strings.HasPrefix(f.file(p), got) || !strings.Contains(f.file(p), "# New since your edit\n\n- Old keys stay valid a week. ("+l2) {
		t.Errorf("after a new source:\n%s", f.file(p))
	}
	c := f.candidate(f.curate(0), "jwt-signing")
	if c.Reason != "new since an edit" || !slices.Contains(c.Sources, l2) {
		t.Errorf("to fold in: %+v", c)
	}
	// Folded in: the list goes, the source joins.
	if _, err := f.writeArticle("jwt-signing", article("decisions", body, d, l), false); err == nil ||
		!strings.Contains(err.Error(), "sources leave out "+l2) {
		t.Errorf("an article that drops the new source: %v", err)
	}
	if _, err := f.writeArticle("jwt-signing", article("decisions", body+"\n- Old keys stay valid a week ("+l2+").", d, l, l2), false); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.curate(0).Candidates {
		if c.Slug == "jwt-signing" {
			t.Errorf("a curated article is handed out again: %+v", c)
		}
	}
	// A topic of its own moves the file.
	moved, err := f.writeArticle("jwt-signing", article("architecture", body+"\n- Old keys stay valid a week ("+l2+").", d, l, l2), false)
	if err != nil || moved.Moved != p || moved.Path != "knowledge/architecture/jwt-signing.md" || f.has(p) || !f.has(moved.Path) {
		t.Errorf("moved: %+v %v", moved, err)
	}
}

// TestWriteRefusesWhatBreaksTheRules: each check refuses, names what is
// wrong, and leaves global where it was.
func TestWriteRefusesWhatBreaksTheRules(t *testing.T) {
	f := newFixture(t)
	d := f.decide("Sign tokens with RS256.", "Public keys can be shared with every service.", "jwt signing")
	l := f.learn("Keys rotate every 90 days.", changelog.TypePattern, "auth", "jwt signing")
	ok := "We sign with RS256 (" + d + "); keys rotate (" + l + ")."
	for _, c := range []struct {
		name, slug, text string
		kind             planqerr.Kind
		want             string
	}{
		{"broken frontmatter", "jwt-signing", "---\ntype: article\ntitle: [\n---\nbody\n", planqerr.Invalid, "jwt-signing.md:"},
		{"no frontmatter", "jwt-signing", "just text\n", planqerr.Invalid, "no frontmatter"},
		{"not an article", "jwt-signing", strings.Replace(article("decisions", ok, d, l), "type: article", "type: learning", 1), planqerr.Invalid, "type"},
		{"two-line description", "jwt-signing", strings.Replace(article("decisions", ok, d, l), "description: How", "description: |\n  How\n  two", 1), planqerr.Invalid, "description"},
		{"unknown topic", "jwt-signing", article("security", ok, d, l), planqerr.Invalid, `topic "security" is not one of the project's topics`},
		{"bad slug", "../jwt", article("decisions", ok, d, l), planqerr.Invalid, "holds '/'"},
		{"slug with a space", "jwt signing", article("decisions", ok, d, l), planqerr.Invalid, "holds a space"},
		{"no slug", "", article("decisions", ok, d, l), planqerr.Invalid, "no slug"},
		{"a source that does not exist", "jwt-signing", article("decisions", ok, d, l, "pq-00000000"), planqerr.Invalid, "pq-00000000 is no learning or decision on global"},
		{"a source of no known shape", "jwt-signing", article("decisions", ok, d, l, "http://x"), planqerr.Invalid, "is not a source"},
		{"a record the text names uncited", "jwt-signing", article("decisions", ok, d), planqerr.Invalid, "the text cites " + l},
		{"a consumed record uncited", "jwt-signing", article("decisions", "We sign with RS256 ("+d+").", d), planqerr.Invalid, "sources leave out " + l},
		{"disputed without a conflict", "jwt-signing", strings.Replace(article("decisions", ok, d, l), "status: current", "status: disputed", 1), planqerr.Invalid, "no # Conflict section"},
		{"a credential", "jwt-signing", article("decisions", ok+"\nThe deploy key is AKIA2E0A8F3B244C9986.", d, l), planqerr.Refused, "credential"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tip := f.globalTip()
			_, err := f.writeArticle(c.slug, c.text, false)
			if err == nil || planqerr.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v (kind %v), want kind %v and %q", err, planqerr.KindOf(err), c.kind, c.want)
			}
			if f.globalTip() != tip {
				t.Error("a refused write moved global")
			}
		})
	}
	// The same article, right: it lands.
	if _, err := f.writeArticle("jwt-signing", article("decisions", ok, d, l), false); err != nil {
		t.Fatal(err)
	}
}

// TestWriteRespectsDeletionsAndPeople: a deleted article is written only
// with force (which forgets the deletion); a person's article takes an
// agent's version that keeps every line of theirs, and no other but with
// force.
func TestWriteRespectsDeletionsAndPeople(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	dep := f.learn("Deploys need a green main.", changelog.TypeGuide, "deploy", "")
	f.update()
	logID := f.candidate(f.curate(0), "logging").Sources[0]
	if _, err := Delete(f.ctx, f.store, "logging", Options{}); err != nil {
		t.Fatal(err)
	}
	logs := "---\ntype: article\ntitle: Logging\ndescription: How we log.\ntopic: conventions\ncreated: 2026-01-01T00:00:00Z\n" +
		"updated: 2026-01-01T00:00:00Z\ntimestamp: 2026-01-01T00:00:00Z\nsources: [" + logID + "]\nconfidence: low\nstatus: current\ncurated_by: mixed\n---\n\nLogs are JSON lines (" + logID + ").\n"
	tip := f.globalTip()
	if _, err := f.writeArticle("logging", logs, false); planqerr.KindOf(err) != planqerr.Refused || !strings.Contains(err.Error(), "was deleted") || f.globalTip() != tip {
		t.Fatalf("a deleted article written again: %v", err)
	}
	res, err := f.writeArticle("logging", logs, true)
	if err != nil || !res.Restored || f.has("knowledge/.deleted/conventions/logging") || !f.has("knowledge/conventions/logging.md") {
		t.Fatalf("forced: %+v %v", res, err)
	}
	if again := f.update(); len(again.Removed) != 0 || !f.has("knowledge/conventions/logging.md") {
		t.Errorf("update after a forced write: %+v", again)
	}

	// A person edits the deploy article.
	p := "knowledge/operations/deploy.md"
	f.asPerson("our words", func(dir string) {
		file := filepath.Join(dir, filepath.FromSlash(p))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(data, "\nWe deploy with the runbook.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	mine, err := changelog.ParseArticle(p, []byte(f.file(p)))
	if err != nil {
		t.Fatal(err)
	}
	agentText := func(body string) string {
		a := *mine
		a.Body = body
		a.CuratedBy = changelog.CuratedMixed
		data, err := changelog.RenderArticle(&a)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	dropping := strings.Replace(mine.Body, "We deploy with the runbook.", "Deploys follow the runbook.", 1)
	tip = f.globalTip()
	if _, err := f.writeArticle("deploy", agentText(dropping), false); planqerr.KindOf(err) != planqerr.Refused ||
		!strings.Contains(err.Error(), `drops their line "We deploy with the runbook."`) || f.globalTip() != tip {
		t.Fatalf("an agent's version dropping a person's line: %v", err)
	}
	keeping := strings.Replace(mine.Body, "We deploy with the runbook.", "Every deploy waits for CI ("+dep+").\n\nWe deploy with the runbook.", 1)
	if res, err := f.writeArticle("deploy", agentText(keeping), false); err != nil || res.Action != "updated" {
		t.Fatalf("an agent's version keeping the person's lines: %+v %v", res, err)
	}
	if res, err := f.writeArticle("deploy", agentText(dropping), true); err != nil || res.Action != "updated" {
		t.Fatalf("forced: %+v %v", res, err)
	}
	if !strings.Contains(f.file(p), "Deploys follow the runbook.") {
		t.Error("the forced version did not land")
	}
}

// TestDropped: a person's lines must stay, in order; blank lines, spaces
// and a "New since your edit" list do not count.
func TestDropped(t *testing.T) {
	old := "# Summary\n\nA.\n\n- b\n\n# New since your edit\n\n- c (pq-1234)\n"
	for _, c := range []struct {
		body string
		line string
	}{
		{"# Summary\n\nA.\n\n- b", ""},
		{"# Summary\nIntro.\n  A.  \nmore\n- b\n# Key facts\n- c (pq-1234)", ""},
		{"# Summary\n\n- b\n\nA.", "- b"},
		{"# Summary\n\nA.", "- b"},
		{"", "# Summary"},
	} {
		line, ok := dropped(old, c.body)
		if line != c.line || ok != (c.line != "") {
			t.Errorf("dropped(%q) = %q, %t; want %q", c.body, line, ok, c.line)
		}
	}
}

// FuzzDropped: whatever the texts, a body that adds lines around every
// line of the old one keeps them, and one reported as keeping them holds
// each, in order.
func FuzzDropped(f *testing.F) {
	f.Add("# A\n\nx\n- y\n", "z")
	f.Add("# New since your edit\n- a\n# B\nb", "")
	f.Fuzz(func(t *testing.T, old, extra string) {
		var grown []string
		for _, line := range strings.Split(old, "\n") {
			grown = append(grown, extra, line)
		}
		if line, ok := dropped(old, strings.Join(grown, "\n")); ok {
			t.Fatalf("adding around every line dropped %q", line)
		}
		if _, ok := dropped(old, extra); !ok {
			at := 0
			kept := strings.Split(extra, "\n")
			inNew := false
			for _, line := range strings.Split(old, "\n") {
				l := strings.TrimSpace(line)
				if strings.HasPrefix(l, "#") {
					inNew = l == newSinceHeading
				}
				if l == "" || inNew {
					continue
				}
				for at < len(kept) && strings.TrimSpace(kept[at]) != l {
					at++
				}
				if at == len(kept) {
					t.Fatalf("%q was reported kept in %q", l, extra)
				}
				at++
			}
		}
	})
}
