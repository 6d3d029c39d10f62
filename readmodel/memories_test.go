package readmodel

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/staterepo"
)

// commitOn commits files (nil data deletes) on branch's tip.
func commitOn(t *testing.T, repo *staterepo.Repo, branch string, files map[string][]byte) {
	t.Helper()
	tip, err := repo.Tip(branch)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := repo.TreeOf(tip)
	if err != nil {
		t.Fatal(err)
	}
	blobs := map[string]staterepo.Hash{}
	for p, data := range files {
		if data == nil {
			blobs[p] = staterepo.ZeroHash
			continue
		}
		if blobs[p], err = repo.WriteBlob(data); err != nil {
			t.Fatal(err)
		}
	}
	if tree, err = repo.EditTree(tree, blobs); err != nil {
		t.Fatal(err)
	}
	c, err := repo.WriteCommit(tree, []staterepo.Hash{tip}, "memories")
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.MoveBranch(context.Background(), branch, c, tip, "test"); err != nil {
		t.Fatal(err)
	}
}

// memoryRepo is Samples on global with one memory, and agent-auth with
// two more, a binary file and one too large to index.
func memoryRepo(t *testing.T) *staterepo.Repo {
	files := testrecords.Rendered(t, testrecords.Samples(t))
	files["memories/team/style.md"] = []byte("# Code style\nTabs, never spaces; gofumpt before every commit.\n")
	repo := testrecords.RepoWith(t, files)
	if _, err := repo.CreateBranch(context.Background(), "agent-auth", project.GlobalBranch, map[string][]byte{
		"memories/repo/build.md":     []byte("# Building\nRun mage install, then flibbertigibbet compiles the assets.\n"),
		"memories/session/notes.txt": []byte("Half-done: the quokka migration.\n"),
		"memories/blob.bin":          {0, 1, 2, 3},
		"memories/huge.md":           []byte(strings.Repeat("zanzibar ", changelog.MaxRecordSize/8)),
	}, "memories"); err != nil {
		t.Fatal(err)
	}
	return repo
}

func memoryHits(t *testing.T, rd *Reader, q Query) []Hit {
	t.Helper()
	res, err := rd.Search(q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Text, err)
	}
	var out []Hit
	for _, h := range res.Hits {
		if h.Kind == KindMemory {
			out = append(out, h)
		}
	}
	return out
}

// TestSearchFindsMemories: the memory tool's files are found as records
// are, labelled as memories of their branch, titled by their first line;
// a binary or huge file is skipped, never a failure; get reads one.
func TestSearchFindsMemories(t *testing.T) {
	repo := memoryRepo(t)
	rd := Open(repo, t.TempDir())
	hits := memoryHits(t, rd, Query{Text: "flibbertigibbet"})
	if len(hits) != 1 || hits[0].Path != "memories/repo/build.md" || hits[0].Title != "Building" || hits[0].Agent != "auth" {
		t.Fatalf("hits %+v, want memories/repo/build.md of agent auth titled Building", hits)
	}
	if h := hits[0].Header(); h != "memories/repo/build.md:1-2  memory: Building (agent auth)" {
		t.Errorf("header %q", h)
	}
	if !strings.Contains(hits[0].Snippet, "flibbertigibbet") {
		t.Errorf("snippet %q", hits[0].Snippet)
	}
	// By its path's words, and global's as global's.
	if hits := memoryHits(t, rd, Query{Text: "style tabs"}); len(hits) != 1 || hits[0].Agent != "" ||
		hits[0].Header() != "memories/team/style.md:1-2  memory: Code style (global)" {
		t.Errorf("global's memory: %+v", hits)
	}
	// global's memory is on agent-auth too (same blob): found once.
	if res, err := rd.Search(Query{Text: "gofumpt"}); err != nil || res.Total != 1 || len(res.Hits) != 1 {
		t.Errorf("a memory on two branches: total %d, hits %+v, err %v; want one", res.Total, res.Hits, err)
	}
	if hits := memoryHits(t, rd, Query{Text: "zanzibar"}); len(hits) != 0 {
		t.Errorf("the huge file was indexed: %+v", hits)
	}
	// Narrowed: to memories alone, to a branch, or to a record's kind.
	if hits := memoryHits(t, rd, Query{Text: "quokka", Filters: search.Filters{Kinds: []changelog.Kind{KindMemory}}}); len(hits) != 1 {
		t.Errorf("--kind memory: %+v", hits)
	}
	if hits := memoryHits(t, rd, Query{Text: "quokka", Branch: project.GlobalBranch}); len(hits) != 0 {
		t.Errorf("global alone found an agent's memory: %+v", hits)
	}
	if hits := memoryHits(t, rd, Query{Text: "quokka", Filters: search.Filters{Kinds: []changelog.Kind{changelog.KindLearning}}}); len(hits) != 0 {
		t.Errorf("--kind learning found a memory: %+v", hits)
	}
	if res, err := rd.Search(Query{Text: "quokka", Filters: search.Filters{Kinds: []changelog.Kind{KindMemory}}}); err != nil || res.Total != 1 {
		t.Errorf("memories alone: total %d, err %v; want the memory alone", res.Total, err)
	}
	if hits := memoryHits(t, rd, Query{Text: "quokka", Filters: search.Filters{Agents: []string{"auth"}}}); len(hits) != 1 {
		t.Errorf("--agent auth: %+v", hits)
	}
	if hits := memoryHits(t, rd, Query{Text: "quokka", Filters: search.Filters{Agents: []string{"other"}}}); len(hits) != 0 {
		t.Errorf("--agent other: %+v", hits)
	}
	ex, err := rd.Get("memories/repo/build.md", 2, 2, "agent-auth")
	if err != nil || ex.Text != "Run mage install, then flibbertigibbet compiles the assets." || ex.Branch != "agent-auth" {
		t.Errorf("get: %+v, %v", ex, err)
	}
	if _, err := rd.Get("memories/.hidden", 0, 0); err == nil {
		t.Error("get read a hidden path under memories/")
	}
	mems, err := rd.Memories("agent-auth")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range mems {
		listed = append(listed, m.Path+"|"+m.Title+"|"+m.Skipped)
	}
	want := []string{"memories/blob.bin|blob.bin|not text", "memories/huge.md|huge.md|over 64 KiB", "memories/repo/build.md|Building|",
		"memories/session/notes.txt|Half-done: the quokka migration.|", "memories/team/style.md|Code style|"}
	if !slices.Equal(listed, want) {
		t.Errorf("Memories:\n%q\nwant\n%q", listed, want)
	}
}

// TestMemoriesAreKeptPerTree: memories are read from git once per tree of
// memories/; a changed memory is found by its new words, not its old, and
// costs one read, the others taken from the cache.
func TestMemoriesAreKeptPerTree(t *testing.T) {
	repo := memoryRepo(t)
	cacheDir := t.TempDir()
	reads := 0
	rd := counting(repo, cacheDir, &reads)
	if hits := memoryHits(t, rd, Query{Text: "quokka"}); len(hits) != 1 {
		t.Fatalf("hits %+v", hits)
	}
	reads = 0
	again := counting(repo, cacheDir, &reads)
	if hits := memoryHits(t, again, Query{Text: "quokka"}); len(hits) != 1 || reads != 0 {
		t.Fatalf("a warm search read %d blobs from git, found %+v; want none, and the memory", reads, hits)
	}
	commitOn(t, repo, "agent-auth", map[string][]byte{"memories/session/notes.txt": []byte("Done: the wombat migration.\n")})
	reads = 0
	rd = counting(repo, cacheDir, &reads)
	if hits := memoryHits(t, rd, Query{Text: "wombat"}); len(hits) != 1 || hits[0].Title != "Done: the wombat migration." {
		t.Errorf("the new words: %+v", hits)
	}
	if hits := memoryHits(t, rd, Query{Text: "quokka"}); len(hits) != 0 {
		t.Errorf("the old words still found: %+v", hits)
	}
	if reads != 1 {
		t.Errorf("one changed memory read %d blobs from git, want 1", reads)
	}
	// A deleted memory is found no more.
	commitOn(t, repo, "agent-auth", map[string][]byte{"memories/session/notes.txt": nil})
	fresh := t.TempDir()
	rd = Open(repo, fresh)
	if hits := memoryHits(t, rd, Query{Text: "wombat"}); len(hits) != 0 {
		t.Errorf("a deleted memory is found: %+v", hits)
	}
}
