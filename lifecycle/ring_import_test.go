package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/mulch"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
)

const (
	tabsLine   = `{"id":"mx-0000aa","type":"convention","content":"use tabs","classification":"foundational","recorded_at":"2026-01-01T00:00:00Z","supersedes":["mx-0000bb"]}`
	spacesLine = `{"id":"mx-0000bb","type":"convention","content":"use spaces","classification":"foundational","recorded_at":"2026-01-02T00:00:00Z"}`
)

// Issue 36, item 1: an import never writes a ring of versions. Of its own
// records, ToPlanq drops the link that would close one; a ring with a
// learning a branch holds (changed by hand since an earlier import to
// supersede one this import writes) is refused, the learning not written.
func TestRingImportNeverClosesARingWithWhatIsHeld(t *testing.T) {
	p := testproject.New(t, map[string]string{".mulch/expertise/x.jsonl": spacesLine + "\n"})
	a := p.Agent
	mulchDir := filepath.Join(p.Code, ".mulch")
	if _, err := ImportMulch(t.Context(), a, mulchDir, p.Code, ImportOptions{Source: "demo"}); err != nil {
		t.Fatal(err)
	}
	tabs, spaces := mulch.IDOf("mulch:demo:mx-0000aa"), mulch.IDOf("mulch:demo:mx-0000bb")
	// By hand: the imported learning now supersedes the one the next import
	// writes.
	file := filepath.Join(a.Dir, "learnings", "x", spaces+".md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "\nagent: auth\n", "\nagent: auth\nsupersedes: "+tabs+"\n", 1)
	if edited == string(data) {
		t.Fatalf("no agent line in\n%s", data)
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, a.Dir, "commit", "-q", "-am", "by hand")
	if err := os.WriteFile(filepath.Join(mulchDir, "expertise", "x.jsonl"), []byte(tabsLine+"\n"+spacesLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ImportMulch(t.Context(), a, mulchDir, p.Code, ImportOptions{Source: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Refused) != 1 || res.Refused[0].Line != 1 || !strings.Contains(res.Refused[0].Reason, "would close a ring") ||
		!strings.Contains(res.Refused[0].Reason, "versions supersede each other in a ring: "+min(tabs, spaces)) {
		t.Errorf("refused %+v, want line 1, closing a ring", res.Refused)
	}
	set, err := a.Store().Records.All()
	if err != nil {
		t.Fatal(err)
	}
	if rings := changelog.SupersedesRings(set.Records); len(rings) > 0 {
		t.Errorf("the import wrote a ring: %v", rings)
	}
	for _, r := range set.Records {
		if r.ID == tabs {
			t.Errorf("%s written", tabs)
		}
	}
}
