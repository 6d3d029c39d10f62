package knowledge

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// readsOfGlobal counts the update's reads of the knowledge base for the
// rest of the test: an update that finds global in step reads none.
func readsOfGlobal(t *testing.T) *int {
	n := new(int)
	was := readState
	readState = func(ctx context.Context, repo staterepo.Reads, tip staterepo.Hash, cached map[staterepo.Hash]readmodel.ArticleFile, readOnly bool) (*state, error) {
		*n++
		return was(ctx, repo, tip, cached, readOnly)
	}
	t.Cleanup(func() { readState = was })
	return n
}

// TestAnUpdateOfAKnowledgeBaseInStepReadsNothing: an update names in the
// index what it read, and the next update that finds global holding just
// that returns at once, reading no record; anything it reads that changed
// (a learning, an article a person edited by hand, the index edited by
// hand, the topics) makes it read everything again.
func TestAnUpdateOfAKnowledgeBaseInStepReadsNothing(t *testing.T) {
	f := newFixture(t)
	f.learn("Tokens expire after 15 minutes.", changelog.TypePattern, "auth", "token lifetime")
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	if res := f.update(); len(res.Created) != 2 {
		t.Fatalf("first update: %+v", res)
	}
	if claimedKey([]byte(f.file(IndexPath))) == "" {
		t.Fatalf("the index names nothing it read:\n%s", f.file(IndexPath))
	}
	reads := readsOfGlobal(t)
	tip := f.globalTip()
	if res := f.update(); res.Changed() || *reads != 0 || f.globalTip() != tip {
		t.Fatalf("an update in step: %+v, %d reads of global; want nothing read, nothing written", res, *reads)
	}
	if ok, err := globalInStep(f.store.Repo, []string{"runbooks"}); err != nil || ok {
		t.Errorf("in step under other topics: %v %v; want not", ok, err)
	}

	f.learn("Refresh tokens last 30 days.", changelog.TypePattern, "auth", "token lifetime")
	if res := f.update(); *reads != 1 || len(res.Updated) != 1 {
		t.Fatalf("after a new learning: %+v, %d reads; want the article updated", res, *reads)
	}

	// A person edits an article by hand: the next update reads it all,
	// and, with nothing to write, claims nothing new (a claim alone is
	// worth no commit): the one after reads again, until one writes.
	f.asPerson("edit by hand", func(dir string) {
		p := filepath.Join(dir, "knowledge", "conventions", "logging.md")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(data, "\nAlso: one object per line.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	tip = f.globalTip()
	for want := 2; want <= 3; want++ {
		if res := f.update(); res.Changed() || *reads != want || f.globalTip() != tip {
			t.Fatalf("after a person's edit: %+v, %d reads; want %d and nothing written", res, *reads, want)
		}
	}
	f.learn("Log lines carry a request ID.", changelog.TypeConvention, "logging", "")
	f.update()
	f.update()
	if *reads != 4 {
		t.Fatalf("an update that wrote claims global in step again: %d reads, want 4", *reads)
	}

	// The index edited by hand, its line kept: it is written again.
	f.asPerson("index by hand", func(dir string) {
		p := filepath.Join(dir, filepath.FromSlash(IndexPath))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), "# Knowledge base", "# Our notes", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if res := f.update(); *reads != 5 || !res.Index || !strings.HasPrefix(f.file(IndexPath), "# Knowledge base") {
		t.Fatalf("after the index was edited by hand: %+v, %d reads; want it written again", res, *reads)
	}
}

// TestAnUpdateWithSomethingToSayClaimsNothing: an update that reports a
// file it could not read leaves the index claiming nothing, so the next
// update reads global again and reports it again.
func TestAnUpdateWithSomethingToSayClaimsNothing(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	f.asPerson("a broken article", func(dir string) {
		p := filepath.Join(dir, "knowledge", "project", "flags.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\ntype: article\ntitle: [unclosed\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	for run := 1; run <= 2; run++ {
		res := f.update()
		if len(res.Skipped) != 1 || res.Skipped[0].Path != "knowledge/project/flags.md" {
			t.Fatalf("update %d: skipped %+v, want the broken article reported", run, res.Skipped)
		}
	}
	if claimedKey([]byte(f.file(IndexPath))) != "" {
		t.Errorf("the index claims the knowledge base in step beside a broken article:\n%s", f.file(IndexPath))
	}
}

// TestTheIndexLineNamesItsText: the line names the key it was written
// with, and only while the rest of the index is the text it was written
// beside; a line that is not planq's whole names nothing.
func TestTheIndexLineNamesItsText(t *testing.T) {
	index := []byte("# Knowledge base\n\nGenerated.\n" + disputeRuleMark + "\n\nTopics: a (1).\n")
	marked := markInStep(index, "0123abcd")
	if got := claimedKey(marked); got != "0123abcd" {
		t.Fatalf("claimed %q of\n%s", got, marked)
	}
	for i := range marked {
		changed := slices.Clone(marked)
		changed[i] ^= 0x20
		if got := claimedKey(changed); got == "0123abcd" {
			t.Fatalf("byte %d changed, the line still claims its key:\n%s", i, changed)
		}
	}
	if got := claimedKey(index); got != "" {
		t.Errorf("an index without the line claims %q", got)
	}
}
