package importing

import (
	"slices"
	"strings"
	"testing"
)

// TestCodexMemoryIsReadBlockByBlock: a Codex MEMORY.md with two blocks
// became one learning holding the second block's YAML header and another
// project's memory. Each block is read on its own; only the blocks whose
// sessions ran in the checkout are taken, under their description; the
// others are skipped and said so.
func TestCodexMemoryIsReadBlockByBlock(t *testing.T) {
	memory := "---\nrollout_summary_files:\n  - 2026-02-12-api.md (success, cwd=/home/me/shop/api, updated_at=2026-02-12T10:30:00Z)\n" +
		"description: API conventions of the shop\nkeywords: api, handlers\n---\n\n" +
		"- The API is versioned by date in its path.\n- Every handler logs its request ID first.\n\n" +
		"---\nrollout_summary_files:\n  - 2026-03-01-blog.md (partial, cwd=/home/me/blog, updated_at=2026-03-01T09:00:00Z)\n" +
		"description: Blog deploys\nkeywords: hugo\n---\n\n- The blog deploys with hugo --minify.\n\n" +
		"---\ndescription: Shell habits\nkeywords: zsh\n---\n\n- Use zsh.\n"
	ofProject := func(cwd string) bool { return cwd == "/home/me/shop" || strings.HasPrefix(cwd, "/home/me/shop/") }
	pieces, skips, err := codexPieces(ofProject)("codex-memory:MEMORY.md", "MEMORY.md", memory, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pieces {
		got = append(got, p.Record.Subject+" | "+p.Record.Body)
		if strings.Contains(p.Record.Body, "rollout_summary_files") || strings.Contains(p.Record.Body, "---") {
			t.Errorf("a learning holds a block's header: %q", p.Record.Body)
		}
	}
	want := []string{"API conventions of the shop | The API is versioned by date in its path.", "API conventions of the shop | Every handler logs its request ID first."}
	if !slices.Equal(got, want) {
		t.Errorf("learnings\n%q\nwant\n%q", got, want)
	}
	if len(skips) != 2 || !strings.Contains(skips[0].Why, "another project's sessions (cwd /home/me/blog)") || !strings.Contains(skips[1].Why, "names no session's cwd") {
		t.Errorf("skips %+v", skips)
	}
	if a, b := pieces[0].Record.Origin, pieces[1].Record.Origin; !strings.HasPrefix(a, "codex-memory:MEMORY.md#api-conventions-of-the-shop@") || a == b {
		t.Errorf("origins %q %q: each item its own, under its block", a, b)
	}
}

// TestCodexSummaryGivesItsGeneralTipsAlone: memory_summary.md's index
// lines and its User Profile became learnings. Its General Tips are
// taken; the profile is the person's (as Claude's memories of type user
// are), and What's in Memory only points at MEMORY.md.
func TestCodexSummaryGivesItsGeneralTipsAlone(t *testing.T) {
	summary := "## User Profile\n\nA backend engineer who likes terse answers and hates emoji.\n\n" +
		"## General Tips\n\n- Run the tests with -count=1: the cache hides flaky ones.\n- Check the lock file before upgrading a dependency.\n\n" +
		"## What's in Memory\n\n- api: versioning, request IDs\n  - desc: the shop's API conventions\n"
	pieces, skips, err := codexPieces(func(string) bool { return true })("codex-memory:memory_summary.md", "memory_summary.md", summary, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pieces {
		got = append(got, p.Record.Body)
	}
	if want := []string{"Run the tests with -count=1: the cache hides flaky ones.", "Check the lock file before upgrading a dependency."}; !slices.Equal(got, want) {
		t.Errorf("learnings %q, want %q", got, want)
	}
	if len(skips) != 1 || !strings.Contains(skips[0].Why, "User Profile is about the person") {
		t.Errorf("skips %+v", skips)
	}
}
