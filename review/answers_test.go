package review

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// keys are the top-level keys of a JSON object.
func keys(t *testing.T, res *http.Response) (map[string]json.RawMessage, []string) {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.NewDecoder(res.Body).Decode(&obj); err != nil {
		t.Fatalf("%s: %v", res.Request.URL, err)
	}
	return obj, slices.Sorted(maps.Keys(obj))
}

// stateOf finds proposal id in an answer's "proposals".
func stateOf(t *testing.T, raw json.RawMessage, id string) (curation.View, bool) {
	t.Helper()
	var views []curation.View
	if err := json.Unmarshal(raw, &views); err != nil {
		t.Fatalf("proposals %s: %v", raw, err)
	}
	for _, v := range views {
		if v.ID == id {
			return v, true
		}
	}
	return curation.View{}, false
}

// TestApplyAnswersEveryKeyLowercaseWithItsSiblings: the apply answer's keys
// are exactly these, in lowercase (no Go field name); it says the branch
// committed to, and answers the new state of the proposals the apply
// touched: itself, applied, and a sibling on the same file, now stale.
func TestApplyAnswersEveryKeyLowercaseWithItsSiblings(t *testing.T) {
	f := newFixture(t)
	sibling := f.propose(t, "auth", "CLAUDE.md", claudeMD+"Lint with `make lint`.\n", f.note(t, "lint with make lint"))
	res := f.request(t, "POST", "/api/learnings/demo/proposals/"+f.claude+"/apply", "", map[string]string{"Origin": f.base})
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		t.Fatalf("apply: %d %s", res.StatusCode, data)
	}
	obj, got := keys(t, res)
	want := []string{"additions", "branch", "commit", "files", "pending", "proposal", "proposals"}
	if !slices.Equal(got, want) {
		t.Errorf("the apply answer's keys: %v, want %v", got, want)
	}
	var branch string
	_ = json.Unmarshal(obj["branch"], &branch)
	if current := testgit.Run(t, f.code, "branch", "--show-current"); branch != current {
		t.Errorf("branch %q, the checkout is on %q", branch, current)
	}
	if v, ok := stateOf(t, obj["proposals"], f.claude); !ok || v.State != curation.StateApplied {
		t.Errorf("the applied proposal in the answer: %+v (%v)", v, ok)
	}
	if v, ok := stateOf(t, obj["proposals"], sibling); !ok || v.State != curation.StateStale {
		t.Errorf("the sibling on CLAUDE.md in the answer: %+v (%v), want stale", v, ok)
	}
	if _, ok := stateOf(t, obj["proposals"], f.agents); ok {
		t.Error("the answer holds the proposal on AGENTS.md, which the apply did not touch")
	}
	if string(obj["pending"]) != "2" {
		t.Errorf("pending %s, want 2", obj["pending"])
	}
	// Dismiss answers the same way.
	res = f.request(t, "POST", "/api/learnings/demo/proposals/"+sibling+"/dismiss", "", map[string]string{"Origin": f.base})
	obj, got = keys(t, res)
	if want := []string{"pending", "proposal", "proposals", "state", "version"}; res.StatusCode != http.StatusOK || !slices.Equal(got, want) {
		t.Errorf("dismiss: %d, keys %v, want %v", res.StatusCode, got, want)
	}
	if v, ok := stateOf(t, obj["proposals"], sibling); !ok || v.State != curation.StateDismissed {
		t.Errorf("the dismissed proposal in the answer: %+v (%v)", v, ok)
	}
}

// TestStaleRefusalNamesTheDismissButton: the API refuses a stale apply
// with a hint for the page (its Dismiss button), not a command to run in a
// terminal, and answers the proposal's state.
func TestStaleRefusalNamesTheDismissButton(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.code, "CLAUDE.md"), []byte(claudeMD+"Hand-written.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, f.code, "commit", "-qam", "hand")
	res := f.request(t, "POST", "/api/learnings/demo/proposals/"+f.claude+"/apply", "", map[string]string{"Origin": f.base})
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("apply a stale proposal: %d, want 409", res.StatusCode)
	}
	obj, _ := keys(t, res)
	var hint, msg string
	_ = json.Unmarshal(obj["hint"], &hint)
	_ = json.Unmarshal(obj["error"], &msg)
	if !strings.Contains(msg, "the proposal is stale") || !strings.Contains(hint, "Dismiss button") || strings.Contains(hint, "planq proposals") {
		t.Errorf("the refusal: %q, hint %q", msg, hint)
	}
	if v, ok := stateOf(t, obj["proposals"], f.claude); !ok || v.State != curation.StateStale {
		t.Errorf("the refusal's proposals: %s, want %s stale", obj["proposals"], f.claude)
	}
}

// TestForeignRefererIsRefused: a POST with the cookie and no Origin is
// refused when its Referer is another origin's, and taken when it is the
// page's own.
func TestForeignRefererIsRefused(t *testing.T) {
	f := newFixture(t)
	dismiss := "/api/learnings/demo/proposals/" + f.agents + "/dismiss"
	for _, referer := range []string{"http://evil.example/", "http://127.0.0.1:1/", "http://localhost:1/page", "null", "not a url"} {
		if res := f.request(t, "POST", dismiss, "", map[string]string{"Referer": referer}); res.StatusCode != http.StatusForbidden {
			t.Errorf("dismiss with Referer %q and no Origin: %d, want 403", referer, res.StatusCode)
		}
	}
	if v, err := curation.Show(t.Context(), f.store.Handle, f.code, f.agents); err != nil || v.State != curation.StatePending {
		t.Fatalf("after refused dismisses the proposal is %s (%v)", v.State, err)
	}
	if res := f.request(t, "POST", dismiss, "", map[string]string{"Referer": f.base + "/#proposals"}); res.StatusCode != http.StatusOK {
		t.Errorf("dismiss with the page's own Referer: %d, want 200", res.StatusCode)
	}
}

// TestBrokenProposalIsListedWithTheRest: a pending proposal whose file
// became a symbolic link is listed broken, with why, by the API and the
// page; the other proposals are listed too.
func TestBrokenProposalIsListedWithTheRest(t *testing.T) {
	f := newFixture(t)
	breakClaude(t, f)
	res := f.request(t, "GET", "/api/learnings/demo/proposals", "", nil)
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		t.Fatalf("proposals: %d %s", res.StatusCode, data)
	}
	list := decode[struct {
		Pending   int             `json:"pending"`
		Proposals []curation.View `json:"proposals"`
	}](t, res)
	states := map[string]curation.View{}
	for _, v := range list.Proposals {
		states[v.ID] = v
	}
	if b := states[f.claude]; b.State != curation.StateBroken || !strings.Contains(b.Problem, "CLAUDE.md") || !strings.Contains(b.Problem, "not a regular file") {
		t.Errorf("the proposal on a linked CLAUDE.md: %+v", b)
	}
	if states[f.agents].State != curation.StatePending || states[f.agents].Problem != "" || list.Pending != 2 {
		t.Errorf("the other proposal: %+v; pending %d", states[f.agents], list.Pending)
	}
	res = f.request(t, "GET", "/api/learnings/demo/proposals/"+f.claude, "", nil)
	if v := decode[curation.View](t, res); res.StatusCode != http.StatusOK || v.State != curation.StateBroken {
		t.Errorf("show the broken proposal: %d %+v", res.StatusCode, v)
	}
	res = f.request(t, "GET", "/", "", nil)
	page, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), `data-id="`+f.claude+`"`) || !strings.Contains(string(page), `data-id="`+f.agents+`"`) {
		t.Errorf("the page with a broken proposal: %d\n%s", res.StatusCode, page)
	}
}
