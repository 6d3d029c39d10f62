package importing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// The sources of what other tools wrote, in the order a bootstrap reads
// them.
const (
	// SourceGit is the code repository's history: decisions stated in
	// commit messages, and reverts.
	SourceGit = "git"
	// SourceADR are architecture decision records, in Nygard's format or
	// MADR: in the usual folders, any folder of numbered ADR files, or
	// the folders .planq/config names (adrDirs).
	SourceADR = "adr"
	// SourceInstructions are the instruction files curation knows
	// (AGENTS.md, CLAUDE.md, ...): each bullet or section a convention.
	SourceInstructions = "instructions"
	// SourceAgentMemories are the memories coding agents keep for
	// themselves: Claude Code's auto memory of the project, Codex's
	// memories.
	SourceAgentMemories = "agent-memories"
	// SourceTranscripts are the agents' session transcripts of the
	// project, of which only what is clearly meant to be kept is taken:
	// memory writes, and "remember ..." or "note: ..." from the person.
	SourceTranscripts = "transcripts"
)

// Sources lists them, in the order a bootstrap reads them.
var Sources = []string{SourceGit, SourceADR, SourceInstructions, SourceAgentMemories, SourceTranscripts}

// Where says where the sources are.
type Where struct {
	// Code is the code checkout: its history, ADRs and instruction files
	// are read, and its path names the agents' memory of the project.
	Code string
	// MainCode is the repository's main checkout, whose path Claude Code
	// names its memory folder by ("" for Code).
	MainCode string
	// ClaudeDir is Claude Code's directory (~/.claude), CodexDir Codex's
	// (~/.codex); "" reads none.
	ClaudeDir, CodexDir string
	// Instructions are the patterns of the project's instruction files.
	Instructions []string
	// ADRDirs are the directories of the project's ADRs; none means
	// those adrDirs finds.
	ADRDirs []string
}

// Read reads the source src: what it says, what it could not take, and
// how many files (or commits) it read.
func Read(ctx context.Context, src string, where Where) (Found, error) {
	if where.MainCode == "" {
		where.MainCode = where.Code
	}
	switch src {
	case SourceGit:
		return gitSource(ctx, where.Code)
	case SourceADR:
		return adrSource(ctx, where.Code, where.ADRDirs)
	case SourceInstructions:
		return instructionSource(ctx, where.Code, where.Instructions)
	case SourceAgentMemories:
		return memorySource(ctx, where)
	case SourceTranscripts:
		return transcriptSource(ctx, where)
	}
	return Found{}, fmt.Errorf("failed to read %q: no such source", src)
}

// Skip is a piece of a source a bootstrap could not take, where it is
// (its file, and its line when it has one) and why.
type Skip struct {
	Source string `json:"source"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Why    string `json:"why"`
}

func (s Skip) String() string {
	at := s.File
	if s.Line > 0 {
		at += fmt.Sprintf(":%d", s.Line)
	}
	return fmt.Sprintf("%s: %s", at, s.Why)
}

// Piece is one thing a source says: the record it makes, where it was
// read, and the origin that makes a second bootstrap find it present.
type Piece struct {
	Source string
	File   string
	Line   int
	Record *changelog.Record
	// Supersedes is the origin of the piece this one Supersedes, if any;
	// SupersededBy that of the piece it says Supersedes it.
	Supersedes, SupersededBy string
}

// Found is what one source yields.
type Found struct {
	Pieces  []Piece
	Skipped []Skip
	Read    int
}

// shortHash is the first eight hex digits of text's SHA-256: what names a
// piece of a file by what it says, so an edit elsewhere in the file leaves
// its origin as it was.
func shortHash(text string) string {
	sum := sha256.Sum256([]byte(NormalText(text)))
	return hex.EncodeToString(sum[:])[:8]
}

// NormalText is text as duplicates are matched: lower case, one space
// between words.
func NormalText(text string) string {
	return strings.Join(strings.Fields(strings.ToLower(text)), " ")
}
