package review

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// browser starts headless Chromium, as Debian packages it (CI installs
// it: PLANQ_BROWSER_TESTS=1 makes its absence a failure, not a skip).
func browser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("PLANQ_BROWSER_TESTS") != "" {
			t.Fatal("PLANQ_BROWSER_TESTS is set and no chromium is on PATH (apt-get install chromium)")
		}
		t.Skip("no chromium on PATH: the review page's browser tests need it (CI installs it)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// TestBrowserReviewsAndAppliesAProposal opens the page with the token,
// looks at the proposal's diff, clicks Apply, and checks the commit with
// git.
func TestBrowserReviewsAndAppliesAProposal(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	article := `article[data-id="` + f.claude + `"]`
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	badge, diff := text("#badge"), text(article+" pre.diff")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(article+" button.apply")), chromedp.WaitVisible(chromedp.CSS(article+" .result.ok"))); err != nil {
		t.Fatal(err)
	}
	result := text(article + " .result")
	if badge != "2" {
		t.Errorf("badge %q, want 2 pending", badge)
	}
	if !strings.Contains(diff, "+Build the dashboard with `go run ./cmd/build-dashboard`.") {
		t.Errorf("the diff shown:\n%s", diff)
	}
	head := testgit.Run(t, f.code, "rev-parse", "HEAD")
	if !strings.Contains(result, "Committed "+head[:12]) {
		t.Errorf("the page says %q; HEAD is %s", result, head)
	}
	if subject := testgit.Run(t, f.code, "log", "-1", "--format=%s"); subject != "Add 1 line to CLAUDE.md from curated agent notes" {
		t.Errorf("commit subject %q", subject)
	}
	if files := testgit.Run(t, f.code, "show", "--name-only", "--format=", "HEAD"); files != "CLAUDE.md" {
		t.Errorf("the commit holds %q, want CLAUDE.md alone", files)
	}
	if badge := text("#badge"); badge != "1" {
		t.Errorf("badge after apply %q, want 1", badge)
	}
	// The page, loaded again, lists the other one alone; Edit & Apply
	// commits what the person wrote.
	if err := chromedp.Do(ctx, chromedp.Navigate(f.base+"/")); err != nil {
		t.Fatal(err)
	}
	if articles, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.proposal").length`)); err != nil || articles != 1 {
		t.Errorf("after a reload: %d proposals (%v), want 1", articles, err)
	}
	other := `article[data-id="` + f.agents + `"]`
	edited := "# Agents\n\nRun `make lint` before every push.\n"
	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(other+" button.edit-apply")),
		chromedp.WaitVisible(chromedp.CSS(other+" textarea.edit")),
		chromedp.SetValue(chromedp.CSS(other+" textarea.edit"), edited),
		chromedp.Click(chromedp.CSS(other+" button.apply-edited")),
		chromedp.WaitVisible(chromedp.CSS(other+" .result.ok")),
	)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(f.code, "AGENTS.md")); err != nil || string(data) != edited {
		t.Errorf("AGENTS.md after Edit & Apply: %q (%v), want %q", data, err, edited)
	}
	if subject := testgit.Run(t, f.code, "log", "-1", "--format=%s"); subject != "Add 3 lines to AGENTS.md from curated agent notes" {
		t.Errorf("commit subject after Edit & Apply: %q", subject)
	}
}

// TestBrowserRefusesWithoutTokenAndFromAnotherOrigin: the page without
// the token is refused; a page of another origin on the same host, which
// the browser sends the page's cookie with, cannot dismiss a proposal.
func TestBrowserRefusesWithoutTokenAndFromAnotherOrigin(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.base+"/")); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "needs the token") {
		t.Errorf("without the token the page says %q", body)
	}
	// Another origin: 127.0.0.1 on another port is the same site, so the
	// SameSite cookie travels; only the origin check stands in the way.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dismiss := f.base + "/api/learnings/demo/proposals/" + f.agents + "/dismiss"
	evil := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><body><script>
const done = (what) => document.body.insertAdjacentHTML("beforeend", '<p id="done">' + what + '</p>');
fetch(%q, {method: "POST", mode: "no-cors", credentials: "include"}).then(() => done("sent"), () => done("failed"));
</script></body>`, dismiss)
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = evil.Serve(ln) }()
	t.Cleanup(func() { _ = evil.Close() })
	err = chromedp.Do(ctx,
		chromedp.Navigate(f.url), // the cookie is set
		chromedp.Navigate("http://"+ln.Addr().String()+"/"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#done"))); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#done")))
	if err != nil {
		t.Fatal(err)
	}
	if title != "sent" {
		t.Fatalf("the other origin's request never reached the server (%s): the test proves nothing", title)
	}
	views, err := curation.List(context.Background(), f.store.Handle, f.code)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.ID == f.agents && v.State != curation.StatePending {
			t.Errorf("a page of another origin (%s) dismissed the proposal: it is %s", title, v.State)
		}
	}
}
