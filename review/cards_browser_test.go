package review

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/planq-dev/planq/curation"
)

// page is a browser on the review page, for the tests that read it.
type page struct {
	t   *testing.T
	ctx context.Context
}

func openPage(t *testing.T, f *fixture) *page {
	t.Helper()
	p := &page{t: t, ctx: browser(t)}
	p.do(chromedp.Navigate(f.url))
	return p
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// text is what the element sel shows (innerText).
func (p *page) text(sel string) string {
	p.t.Helper()
	if !evaluate[bool](p, `!!document.querySelector(`+jsString(sel)+`)`) {
		p.t.Fatalf("the page has no %s", sel)
	}
	v, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("%s: %v", sel, err)
	}
	return v
}

func evaluate[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// shown reports whether the first element sel matches is drawn.
func (p *page) shown(sel string) bool {
	p.t.Helper()
	return evaluate[bool](p, `(() => { const e = document.querySelector(`+jsString(sel)+`); return !!e && e.getClientRects().length > 0; })()`)
}

func (p *page) disabled(sel string) bool {
	p.t.Helper()
	return evaluate[bool](p, `document.querySelector(`+jsString(sel)+`).disabled`)
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func card(id string) string { return `article[data-id="` + id + `"]` }

// TestBrowserDiffIsOneLinePerLine: a diff shows each of its lines once,
// one line high, so the file's own blank lines stand out; it is what
// the diff holds, line for line.
func TestBrowserDiffIsOneLinePerLine(t *testing.T) {
	f := newFixture(t)
	p := openPage(t, f)
	v, err := curation.Show(context.Background(), f.store.Handle, f.code, f.claude)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(v.Files[0].Diff, "\n"), "\n")
	if !strings.Contains(v.Files[0].Diff, "\n \n") {
		t.Fatalf("the diff holds no blank line of the file: the test proves nothing\n%s", v.Files[0].Diff)
	}
	pre := card(f.claude) + " pre.diff"
	got := strings.Split(strings.TrimSuffix(p.text(pre), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the page shows the diff as\n%q\nwant\n%q", got, want)
	}
	// Drawn: as tall as its lines, each line one line high.
	lineHeight := evaluate[float64](p, `parseFloat(getComputedStyle(document.querySelector(`+jsString(pre)+`)).lineHeight)`)
	height := evaluate[float64](p, `(() => { const e = document.querySelector(`+jsString(pre)+`), s = getComputedStyle(e);
		return e.getBoundingClientRect().height - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom); })()`)
	if lineHeight <= 0 || math.Abs(height-lineHeight*float64(len(want))) > 2 {
		t.Errorf("the diff of %d lines is %.1fpx high, with lines of %.1fpx: want %.1fpx", len(want), height, lineHeight, lineHeight*float64(len(want)))
	}
}

// TestBrowserCardShowsItsNotesAndTheLead: a card shows the text of each
// note it uses, and a proposal the lead made is by "lead", not "global".
func TestBrowserCardShowsItsNotesAndTheLead(t *testing.T) {
	f := newFixture(t)
	note := f.note(t, "the changelog is generated, never edited")
	lead := f.propose(t, "global", "GEMINI.md", "# Gemini\n\nNever edit the changelog by hand.\n", note)
	p := openPage(t, f)
	if notes := p.text(card(f.claude) + " .used"); !strings.Contains(notes, "build the dashboard with go run ./cmd/build-dashboard") {
		t.Errorf("the card's notes: %q, want the note's text", notes)
	}
	meta := p.text(card(lead) + " .meta")
	if !strings.Contains(meta, "by lead") || strings.Contains(meta, "global") {
		t.Errorf("the lead's proposal: %q, want by lead", meta)
	}
	if meta := p.text(card(f.claude) + " .meta"); !strings.Contains(meta, "by auth") {
		t.Errorf("the agent's proposal: %q, want by auth", meta)
	}
}

// TestBrowserCardsFollowTheServersAnswer: after Apply, the card is
// applied and a sibling on the same file is stale, with Apply disabled and
// the Dismiss button named, without a reload; after Dismiss, the sibling
// is dismissed and the badge counts what is left.
func TestBrowserCardsFollowTheServersAnswer(t *testing.T) {
	f := newFixture(t)
	sibling := f.propose(t, "auth", "CLAUDE.md", claudeMD+"Lint with `make lint`.\n", f.note(t, "lint with make lint"))
	p := openPage(t, f)
	if badge := p.text("#badge"); badge != "3" {
		t.Fatalf("badge %q, want 3", badge)
	}
	p.do(chromedp.Click(chromedp.CSS(card(f.claude)+" button.apply")), chromedp.WaitVisible(chromedp.CSS(card(f.claude)+" .result.ok")))
	if state := p.text(card(f.claude) + " .state"); state != curation.StateApplied {
		t.Errorf("the applied card says %q", state)
	}
	if state := p.text(card(sibling) + " .state"); state != curation.StateStale {
		t.Errorf("the sibling on CLAUDE.md says %q, want stale", state)
	}
	if !p.disabled(card(sibling) + " button.apply") {
		t.Error("the stale sibling's Apply is enabled")
	}
	if p.disabled(card(sibling) + " button.dismiss") {
		t.Error("the stale sibling's Dismiss is disabled")
	}
	stale := card(sibling) + ` .notice[data-when="stale"]`
	if !p.shown(stale) {
		t.Fatal("the stale sibling does not say it is stale")
	}
	if notice := p.text(stale); !strings.Contains(notice, "Dismiss button") || strings.Contains(notice, "planq proposals dismiss") {
		t.Errorf("the stale notice: %q", notice)
	}
	if state := p.text(card(f.agents) + " .state"); state != curation.StatePending {
		t.Errorf("the proposal on AGENTS.md says %q, want pending", state)
	}
	if badge := p.text("#badge"); badge != "2" {
		t.Errorf("badge after apply %q, want 2", badge)
	}
	p.do(chromedp.Click(chromedp.CSS(card(sibling)+" button.dismiss")), chromedp.WaitVisible(chromedp.CSS(card(sibling)+" .result.ok")))
	if state := p.text(card(sibling) + " .state"); state != curation.StateDismissed {
		t.Errorf("the dismissed card says %q", state)
	}
	if p.shown(stale) {
		t.Error("the dismissed card still says it is stale")
	}
	if badge := p.text("#badge"); badge != "1" {
		t.Errorf("badge after dismiss %q, want 1", badge)
	}
}

// TestBrowserStaleRefusalNamesTheDismissButton: a proposal that went
// stale behind the page's back (a sibling applied in a terminal) is
// refused on Apply with words for the page, and its card turns stale.
func TestBrowserStaleRefusalNamesTheDismissButton(t *testing.T) {
	f := newFixture(t)
	sibling := f.propose(t, "auth", "CLAUDE.md", claudeMD+"Lint with `make lint`.\n", f.note(t, "lint with make lint"))
	p := openPage(t, f)
	if _, err := curation.Apply(context.Background(), f.store, f.code, "lead", sibling, curation.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Click(chromedp.CSS(card(f.claude)+" button.apply")), chromedp.WaitVisible(chromedp.CSS(card(f.claude)+" .result.err")))
	result := p.text(card(f.claude) + " .result")
	if !strings.Contains(result, "stale") || !strings.Contains(result, "Dismiss button") || strings.Contains(result, "planq proposals dismiss") {
		t.Errorf("the refusal says %q", result)
	}
	if state := p.text(card(f.claude) + " .state"); state != curation.StateStale {
		t.Errorf("the refused card says %q, want stale", state)
	}
	if !p.disabled(card(f.claude) + " button.apply") {
		t.Error("the refused card's Apply is enabled")
	}
}

// TestBrowserShowsABrokenProposalAndTheRest: a pending proposal whose file
// became a symbolic link is shown broken, with its ID and why, and can be
// dismissed; the others are listed as ever.
func TestBrowserShowsABrokenProposalAndTheRest(t *testing.T) {
	f := newFixture(t)
	breakClaude(t, f)
	p := openPage(t, f)
	broken := card(f.claude)
	if state := p.text(broken + " .state"); state != curation.StateBroken {
		t.Errorf("the proposal on a linked CLAUDE.md says %q, want broken", state)
	}
	if h := p.text(broken + " h3"); !strings.Contains(h, f.claude) {
		t.Errorf("the broken card's heading %q lacks its ID", h)
	}
	why := broken + ` .notice[data-when="broken"]`
	if !p.shown(why) || !strings.Contains(p.text(why), "not a regular file") {
		t.Errorf("the broken card does not say why")
	}
	if !p.disabled(broken+" button.apply") || p.disabled(broken+" button.dismiss") {
		t.Error("a broken card offers Apply, or no Dismiss")
	}
	if state := p.text(card(f.agents) + " .state"); state != curation.StatePending {
		t.Errorf("the other proposal says %q, want pending", state)
	}
	p.do(chromedp.Click(chromedp.CSS(broken+" button.dismiss")), chromedp.WaitVisible(chromedp.CSS(broken+" .result.ok")))
	if state := p.text(broken + " .state"); state != curation.StateDismissed {
		t.Errorf("the broken card, dismissed, says %q", state)
	}
}

// breakClaude turns CLAUDE.md into a symbolic link to a file outside the
// checkout, under the pending proposal f.claude.
func breakClaude(t *testing.T, f *fixture) {
	t.Helper()
	outside := filepath.Join(t.TempDir(), "elsewhere.md")
	if err := os.WriteFile(outside, []byte(claudeMD), 0o644); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(f.code, "CLAUDE.md")
	if err := os.Remove(claude); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, claude); err != nil {
		t.Fatal(err)
	}
}
