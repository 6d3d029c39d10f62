package project

import (
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

func TestRepoPathProblem(t *testing.T) {
	for p, want := range map[string]string{
		"CLAUDE.md": "", ".cursor/rules/*.mdc": "", "docs/AGENTS.md": "",
		"": "is empty", "/etc/shadow": "is absolute", "../../etc/passwd": "leaves the repository",
		"docs/../x": "leaves the repository", ".git/config": "is under .git", "a/.Git/HEAD": "is under .git",
		"./CLAUDE.md": "is not a clean path", "a//b": "is not a clean path", "a/": "is not a clean path", ".": "is not a clean path",
		`a\b`: "holds a backslash", " CLAUDE.md": "white space", "a\nb": "line break",
	} {
		got := RepoPathProblem(p)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("RepoPathProblem(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestConfigRefusesInstructionFilesOutsideTheWorkTree: each bad entry of
// curation.instruction_files is named with its line; the config is
// corrupt (exit 6), as every config error is.
func TestConfigRefusesInstructionFilesOutsideTheWorkTree(t *testing.T) {
	data := "project: demo\ncuration:\n  instruction_files:\n    - CLAUDE.md\n    - .git/config\n    - /etc/shadow\n"
	_, err := ParseConfig(".planq/config", []byte(data))
	if !planqerr.Is(err, planqerr.Corrupt) {
		t.Fatalf("got %v, want a corrupt config", err)
	}
	for _, want := range []string{`line 5: instruction_files: ".git/config" is under .git`, `line 6: instruction_files: "/etc/shadow" is absolute`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v does not say %q", err, want)
		}
	}
	c, err := ParseConfig(".planq/config", []byte("project: demo\ncuration:\n  instruction_files: [AGENTS.md, .cursor/rules/*.mdc]\n"))
	if err != nil || strings.Join(c.InstructionFiles(), " ") != "AGENTS.md .cursor/rules/*.mdc" {
		t.Errorf("good list: %v %v", c.InstructionFiles(), err)
	}
}

// TestConfigRefusesADRDirsOutsideTheWorkTree: knowledge.adr_dirs names
// directories of the work tree; one that leaves it, is absolute or is
// under .git is refused (exit 6), and a good list is kept as written.
func TestConfigRefusesADRDirsOutsideTheWorkTree(t *testing.T) {
	for bad, want := range map[string]string{
		"../elsewhere": `knowledge: adr_dirs: "../elsewhere" leaves the repository`,
		"/srv/adr":     `knowledge: adr_dirs: "/srv/adr" is absolute`,
		".git/refs":    `knowledge: adr_dirs: ".git/refs" is under .git`,
	} {
		_, err := ParseConfig(".planq/config", []byte("project: demo\nknowledge:\n  adr_dirs: [docs/adr, \""+bad+"\"]\n"))
		if !planqerr.Is(err, planqerr.Corrupt) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want a corrupt config saying %q", bad, err, want)
		}
	}
	c, err := ParseConfig(".planq/config", []byte("project: demo\nknowledge:\n  adr_dirs: [docs/internal/adr, design/decisions]\n"))
	if err != nil || strings.Join(c.Knowledge.ADRDirs, " ") != "docs/internal/adr design/decisions" {
		t.Errorf("good list: %v %v", c.Knowledge.ADRDirs, err)
	}
}
