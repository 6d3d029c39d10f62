package review

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestEditAndApplyRemovesLinesOnlyWhenAllowed: Edit & Apply with an edit
// that wipes CLAUDE.md is refused, saying how many lines it would remove,
// and nothing changes; with allow_removals (the page's box) it is
// committed, the answer and the commit counting what was removed.
func TestEditAndApplyRemovesLinesOnlyWhenAllowed(t *testing.T) {
	f := newFixture(t)
	apply := "/api/learnings/demo/proposals/" + f.claude + "/apply"
	origin := map[string]string{"Origin": f.base}
	head := testgit.Run(t, f.code, "rev-parse", "HEAD")

	res := f.request(t, "POST", apply, `{"files": {"CLAUDE.md": "# wiped\n"}}`, origin)
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("an edit that wipes CLAUDE.md: %d, want 400", res.StatusCode)
	}
	refused := decode[apiError](t, res)
	if !strings.Contains(refused.Error, "CLAUDE.md: applying it would remove 5 lines of the file's 5 (and add 1); a proposal only adds") ||
		!strings.Contains(refused.Hint, "Allow removals") {
		t.Errorf("refusal: %+v", refused)
	}
	if data, _ := os.ReadFile(filepath.Join(f.code, "CLAUDE.md")); string(data) != claudeMD {
		t.Errorf("a refused apply changed CLAUDE.md to %q", data)
	}
	if now := testgit.Run(t, f.code, "rev-parse", "HEAD"); now != head {
		t.Errorf("a refused apply committed %s", now)
	}
	if v := decode[curation.View](t, f.request(t, "GET", "/api/learnings/demo/proposals/"+f.claude, "", nil)); v.State != curation.StatePending {
		t.Errorf("after a refused apply the proposal is %s, want pending", v.State)
	}

	res = f.request(t, "POST", apply, `{"files": {"CLAUDE.md": "# wiped\n"}, "allow_removals": true}`, origin)
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		t.Fatalf("an edit that wipes CLAUDE.md, allowed: %d %s", res.StatusCode, data)
	}
	if done := decode[curation.Applied](t, res); done.Additions != 1 || done.Removals != 5 {
		t.Errorf("applied: %+v, want 1 addition and 5 removals", done)
	}
	if data, _ := os.ReadFile(filepath.Join(f.code, "CLAUDE.md")); string(data) != "# wiped\n" {
		t.Errorf("CLAUDE.md is %q, want the edit", data)
	}
	if subject := testgit.Run(t, f.code, "log", "-1", "--format=%s"); subject != "Add 1 line, remove 5 lines, in CLAUDE.md from curated agent notes" {
		t.Errorf("commit subject %q", subject)
	}
}

// TestPageOffersAllowRemovals: the page's Edit & Apply has the box that
// lets an edit remove lines, and its script sends it.
func TestPageOffersAllowRemovals(t *testing.T) {
	f := newFixture(t)
	page, _ := io.ReadAll(f.request(t, "GET", "/", "", nil).Body)
	if !strings.Contains(string(page), `<label class="allow-removals" hidden><input type="checkbox"> Allow removals</label>`) {
		t.Error("the page has no Allow removals box")
	}
	script, _ := io.ReadAll(f.request(t, "GET", "/assets/app.js", "", nil).Body)
	if !strings.Contains(string(script), `{ files, allow_removals }`) {
		t.Error("the page's script does not send allow_removals")
	}
}
