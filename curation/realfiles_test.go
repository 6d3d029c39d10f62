package curation

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
)

// The instruction files of real repositories, in small: pydantic-ai keeps
// its instructions in AGENTS.md files, the root one and one in each of
// many packages, each CLAUDE.md beside them a symbolic link to it; uv's
// CLAUDE.md holds nothing but "@AGENTS.md".
const (
	rootAgents   = "# Pydantic AI\n\n## Tests\n\nRun `make test`.\n"
	modelsAgents = "# Models\n\nEvery model class has a cassette test.\n"
	testsAgents  = "# Tests\n\nUse `pytest.mark.vcr`.\n"
)

// realProject is a project whose code repository holds files and, for
// each link (path → what it holds), a committed symbolic link; its
// instruction files are patterns (none: planq's default list). It has
// three raw notes.
func realProject(t *testing.T, files, links map[string]string, patterns ...string) (testproject.Project, []string) {
	t.Helper()
	ctx := context.Background()
	p := testproject.New(t, files)
	for link, dest := range links {
		full := filepath.Join(p.Code, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(dest, full); err != nil {
			t.Fatal(err)
		}
		testgit.Run(t, p.Code, "add", link)
	}
	if len(links) > 0 {
		testgit.Run(t, p.Code, "commit", "-q", "-m", "links")
	}
	p.Store.Project.Config.Curation.InstructionFiles = patterns
	var ids []string
	for _, text := range []string{"model tests need --record-mode=none in CI", "the docs build with make docs", "the linter wants ruff"} {
		w, err := p.Agent.Note(ctx, text, "", "claude", agent.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.Written[len(w.Written)-1].ID)
	}
	return p, ids
}

func pydantic(t *testing.T) (testproject.Project, []string) {
	t.Helper()
	return realProject(t,
		map[string]string{"AGENTS.md": rootAgents, "pydantic_ai/models/AGENTS.md": modelsAgents, "tests/AGENTS.md": testsAgents,
			"docs/guide.md": "# Guide\n", "pydantic_ai/models/openai.py": "x = 1\n"},
		map[string]string{"CLAUDE.md": "AGENTS.md", "pydantic_ai/models/CLAUDE.md": "AGENTS.md", "docs/CLAUDE.md": "guide.md"},
		"**/AGENTS.md", "**/CLAUDE.md")
}

func packetFiles(t *testing.T, p testproject.Project) (Packet, map[string]File) {
	t.Helper()
	pk, err := BuildPacket(context.Background(), p.Store.Handle, p.Code)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]File{}
	for _, f := range pk.Files {
		byPath[f.Path] = f
	}
	return pk, byPath
}

// TestPacketShowsALinkAsALinkAndANestedFileWithItsDirectory: planq curate
// offered pydantic-ai's CLAUDE.md, a symbolic link to AGENTS.md, as a file
// of its own to write to. A link is shown as what it is (where it points,
// no content to write to), and a nested AGENTS.md with the directory it
// governs.
func TestPacketShowsALinkAsALinkAndANestedFileWithItsDirectory(t *testing.T) {
	p, _ := pydantic(t)
	pk, files := packetFiles(t, p)
	paths := make([]string, len(pk.Files))
	for i, f := range pk.Files {
		paths[i] = f.Path
	}
	want := []string{"AGENTS.md", "CLAUDE.md", "docs/CLAUDE.md", "pydantic_ai/models/AGENTS.md", "pydantic_ai/models/CLAUDE.md", "tests/AGENTS.md"}
	if !slices.Equal(paths, want) {
		t.Fatalf("files %v, want %v", paths, want)
	}
	if f := files["CLAUDE.md"]; f.LinkTo != "AGENTS.md" || f.Content != "" || f.SHA256 != "" || !strings.Contains(f.Note, "propose AGENTS.md") {
		t.Errorf("CLAUDE.md: %+v, want a link to AGENTS.md, nothing to write to", f)
	}
	if f := files["pydantic_ai/models/CLAUDE.md"]; f.LinkTo != "pydantic_ai/models/AGENTS.md" || f.Governs != "pydantic_ai/models/" || f.Content != "" {
		t.Errorf("pydantic_ai/models/CLAUDE.md: %+v", f)
	}
	// A link to a file that is no instruction file: shown, to read, not to propose.
	if f := files["docs/CLAUDE.md"]; f.LinkTo != "docs/guide.md" || f.Content != "# Guide\n" || f.SHA256 != "" || !strings.Contains(f.Note, "not one of the project's instruction files") {
		t.Errorf("docs/CLAUDE.md: %+v", f)
	}
	if f := files["pydantic_ai/models/AGENTS.md"]; f.Governs != "pydantic_ai/models/" || f.Content != modelsAgents || f.SHA256 != SHA256([]byte(modelsAgents)) || f.LinkTo != "" {
		t.Errorf("pydantic_ai/models/AGENTS.md: %+v", f)
	}
	if f := files["AGENTS.md"]; f.Governs != "" || f.Content != rootAgents {
		t.Errorf("AGENTS.md: %+v", f)
	}
	md := pk.Markdown()
	for _, line := range []string{
		"\n### CLAUDE.md (symbolic link to AGENTS.md)\n",
		"\n### pydantic_ai/models/AGENTS.md (sha256 " + SHA256([]byte(modelsAgents))[:12] + ", governs pydantic_ai/models/)\n",
		"\n### tests/AGENTS.md (sha256 " + SHA256([]byte(testsAgents))[:12] + ", governs tests/)\n",
		"\n### AGENTS.md (sha256 " + SHA256([]byte(rootAgents))[:12] + ")\n",
	} {
		if !strings.Contains(md, line) {
			t.Errorf("the packet lacks %q:\n%s", line, md)
		}
	}
	data, err := json.Marshal(pk)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"link_to":"AGENTS.md"`, `"governs":"pydantic_ai/models/"`} {
		if !strings.Contains(string(data), field) {
			t.Errorf("the packet's JSON lacks %s", field)
		}
	}
}

// TestPacketSaysAFileOnlyImportsAnother: uv's CLAUDE.md holds only
// "@AGENTS.md". The packet says so, and where to write instead.
func TestPacketSaysAFileOnlyImportsAnother(t *testing.T) {
	p, _ := realProject(t, map[string]string{"AGENTS.md": rootAgents, "CLAUDE.md": "@AGENTS.md\n", "crates/CLAUDE.md": "@AGENTS.md\n\n@../docs/STYLE.md\n",
		"GEMINI.md": "# Gemini\n\nSee @AGENTS.md for the rest.\n"}, nil, "**/CLAUDE.md", "AGENTS.md", "GEMINI.md")
	pk, files := packetFiles(t, p)
	if f := files["CLAUDE.md"]; !slices.Equal(f.OnlyImports, []string{"AGENTS.md"}) || !strings.Contains(f.Note, "propose AGENTS.md") {
		t.Errorf("CLAUDE.md: %+v, want it to only import AGENTS.md", f)
	}
	if f := files["crates/CLAUDE.md"]; !slices.Equal(f.OnlyImports, []string{"crates/AGENTS.md", "docs/STYLE.md"}) {
		t.Errorf("crates/CLAUDE.md imports %v", f.OnlyImports)
	}
	// A file with content of its own and an import in it is a file to write to.
	if f := files["GEMINI.md"]; f.OnlyImports != nil || f.Note != "" {
		t.Errorf("GEMINI.md: %+v", f)
	}
	// A proposal for it is kept, and said to reach fewer agents.
	settled, said := Settle(p.Code, p.Store.Project.Config.InstructionFiles(), Proposal{ProposedFiles: map[string]string{"CLAUDE.md": "@AGENTS.md\nMore.\n"}})
	if len(settled.ProposedFiles) != 1 || len(said) != 1 || !strings.Contains(said[0], "CLAUDE.md only imports AGENTS.md: what the proposal adds to it reaches only the agents that read CLAUDE.md") {
		t.Errorf("settled %v, said %q", settled.ProposedFiles, said)
	}
	md := pk.Markdown()
	if !strings.Contains(md, "\n### CLAUDE.md (sha256 "+SHA256([]byte("@AGENTS.md\n"))[:12]+", only imports AGENTS.md)\n") ||
		!strings.Contains(md, "This file only imports AGENTS.md") {
		t.Errorf("the packet does not say CLAUDE.md only imports AGENTS.md:\n%s", md)
	}
}

// TestDoubleStarMatchesAnyDepth: "**/AGENTS.md" matched one directory
// level only. It matches at any depth, the root too, and in a proposal;
// what git ignores (a dependency's AGENTS.md) is not the project's.
func TestDoubleStarMatchesAnyDepth(t *testing.T) {
	ctx := context.Background()
	p, ids := realProject(t, map[string]string{"AGENTS.md": rootAgents, "a/AGENTS.md": "# A\n", "a/b/c/AGENTS.md": "# C\n",
		".gitignore": "node_modules/\n"}, nil, "**/AGENTS.md")
	for _, f := range []string{"node_modules/left-pad/AGENTS.md", "new/untracked/AGENTS.md"} {
		full := filepath.Join(p.Code, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("# Dependency\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pk, files := packetFiles(t, p)
	var paths []string
	for _, f := range pk.Files {
		paths = append(paths, f.Path)
	}
	if want := []string{"AGENTS.md", "a/AGENTS.md", "a/b/c/AGENTS.md", "new/untracked/AGENTS.md"}; !slices.Equal(paths, want) {
		t.Errorf("files %v, want %v", paths, want)
	}
	if g := files["a/b/c/AGENTS.md"].Governs; g != "a/b/c/" {
		t.Errorf("a/b/c/AGENTS.md governs %q", g)
	}
	rec, err := Propose(ctx, p.Store, p.Code, "auth", Proposal{ProposedFiles: map[string]string{"a/b/c/AGENTS.md": "# C\n\nRecord with --record-mode=none.\n"},
		DiffSummary: "record mode", EntriesUsed: ids[:1]})
	if err != nil {
		t.Fatalf("a proposal for a file three levels down: %v", err)
	}
	if len(rec.Files) != 1 || rec.Files[0].Path != "a/b/c/AGENTS.md" {
		t.Errorf("kept %+v", rec.Files)
	}
}

// TestAProposalThroughALinkGoesToItsTarget: a proposal naming
// pydantic-ai's CLAUDE.md was refused whole ("is not a regular file"). It
// goes to the file the link points to, or, where planq cannot write
// through the link, that file is left out with a word and the rest kept.
func TestAProposalThroughALinkGoesToItsTarget(t *testing.T) {
	ctx := context.Background()
	withRace := rootAgents + "\nModel tests need `--record-mode=none` in CI.\n"
	t.Run("to its target", func(t *testing.T) {
		p, ids := pydantic(t)
		in := Proposal{ProposedFiles: map[string]string{"CLAUDE.md": withRace}, DiffSummary: "record mode", EntriesUsed: ids[:1]}
		settled, said := Settle(p.Code, p.Store.Project.Config.InstructionFiles(), in)
		if _, ok := settled.ProposedFiles["AGENTS.md"]; !ok || len(settled.ProposedFiles) != 1 ||
			len(said) != 1 || !strings.Contains(said[0], "CLAUDE.md is a symbolic link to AGENTS.md") {
			t.Errorf("settled %v, said %q", settled.ProposedFiles, said)
		}
		rec, err := Propose(ctx, p.Store, p.Code, "auth", in)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Files) != 1 || rec.Files[0].Path != "AGENTS.md" || rec.Files[0].Base != SHA256([]byte(rootAgents)) {
			t.Fatalf("kept %+v, want AGENTS.md", rec.Files)
		}
		done, err := Apply(ctx, p.Store, p.Code, "lead", rec.ID, ApplyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(filepath.Join(p.Code, "AGENTS.md")); string(data) != withRace || done.Additions != 2 {
			t.Errorf("AGENTS.md is %q after %+v", data, done)
		}
		if info, err := os.Lstat(filepath.Join(p.Code, "CLAUDE.md")); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("CLAUDE.md is no longer a link: %v %v", info, err)
		}
	})
	t.Run("left out, the rest kept", func(t *testing.T) {
		p, ids := pydantic(t)
		models := modelsAgents + "\nRecord with `--record-mode=none` in CI.\n"
		in := Proposal{ProposedFiles: map[string]string{
			"docs/CLAUDE.md":               "# Guide\n\nBuild with make docs.\n", // a link to a file that is no instruction file
			"CLAUDE.md":                    withRace + "Another line.\n",         // a link whose target the proposal names too
			"AGENTS.md":                    withRace,
			"pydantic_ai/models/CLAUDE.md": models, // a link in a package
		}, DiffSummary: "record mode", EntriesUsed: ids[:2]}
		settled, said := Settle(p.Code, p.Store.Project.Config.InstructionFiles(), in)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range settled.ProposedFiles {
				if !yield(k) {
					return
				}
			}
		})
		if want := []string{"AGENTS.md", "pydantic_ai/models/AGENTS.md"}; !slices.Equal(keys, want) || settled.ProposedFiles["AGENTS.md"] != withRace {
			t.Errorf("settled %v, want %v with AGENTS.md as proposed", keys, want)
		}
		joined := strings.Join(said, "\n")
		for _, words := range []string{"docs/CLAUDE.md is a symbolic link to docs/guide.md, which is not one of the project's instruction files: left out",
			"CLAUDE.md is a symbolic link to AGENTS.md, which the proposal names too", "pydantic_ai/models/CLAUDE.md is a symbolic link to pydantic_ai/models/AGENTS.md"} {
			if !strings.Contains(joined, words) {
				t.Errorf("Settle does not say %q:\n%s", words, joined)
			}
		}
		rec, err := Propose(ctx, p.Store, p.Code, "auth", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := []string{rec.Files[0].Path, rec.Files[1].Path}; len(rec.Files) != 2 || !slices.Equal(got, keys) {
			t.Errorf("kept %+v", rec.Files)
		}
	})
	t.Run("out of the work tree", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "outside.md")
		if err := os.WriteFile(outside, []byte("# Outside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p, ids := realProject(t, map[string]string{"AGENTS.md": rootAgents}, map[string]string{"CLAUDE.md": outside, "GEMINI.md": "gone.md"})
		_, files := packetFiles(t, p)
		if f := files["CLAUDE.md"]; f.LinkTo != outside || f.Content != "" || !strings.Contains(f.Note, "outside the work tree") {
			t.Errorf("CLAUDE.md: %+v", f)
		}
		if f := files["GEMINI.md"]; f.LinkTo != "gone.md" || !strings.Contains(f.Note, "does not exist") {
			t.Errorf("GEMINI.md: %+v", f)
		}
		_, err := Propose(ctx, p.Store, p.Code, "auth", Proposal{ProposedFiles: map[string]string{"CLAUDE.md": "# Outside\nmore\n", "GEMINI.md": "# Gone\n"},
			DiffSummary: "more", EntriesUsed: ids[:1]})
		var pe *planqerr.Error
		if !errors.As(err, &pe) || pe.Kind != planqerr.Invalid || !strings.Contains(err.Error(), "CLAUDE.md is a symbolic link out of the work tree") ||
			!strings.Contains(err.Error(), "GEMINI.md is a symbolic link to gone.md, which does not exist") {
			t.Fatalf("a proposal of two links planq cannot write through: %v", err)
		}
		if data, _ := os.ReadFile(outside); string(data) != "# Outside\n" {
			t.Errorf("the file outside was written: %q", data)
		}
		set, err := p.Store.Records.All(changelog.KindProposal)
		if err != nil || len(set.Records) != 0 {
			t.Errorf("%d proposals kept (%v)", len(set.Records), err)
		}
	})
}
