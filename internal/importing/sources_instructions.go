package importing

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/project"
)

// instructionSource reads the instruction files of the checkout at code
// (patterns as curation knows them; none: the defaults): each bullet, and
// each paragraph that is no list, becomes a convention learning of domain
// "instructions", its subject the heading it is under. A link or a file
// that only imports others is read where it leads, not twice; one in an
// example tree (examples/, fixtures/, templates/, vendor/, ...) is
// skipped, and said so.
func instructionSource(ctx context.Context, code string, patterns []string) (Found, error) {
	var f Found
	if len(patterns) == 0 {
		patterns = project.DefaultInstructionFiles
	}
	files, err := curation.InstructionFiles(ctx, code, patterns)
	if err != nil {
		return f, err
	}
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return f, err
		}
		if file.Unread != "" {
			f.Read++
			f.Skipped = append(f.Skipped, Skip{Source: SourceInstructions, File: file.Path, Why: file.Unread})
			continue
		}
		if !file.Proposable() {
			continue
		}
		f.Read++
		if tree := exampleTree(file.Path); tree != "" {
			// examples/todo-app/AGENTS.md instructs whoever copies the
			// example, not this project's agents.
			f.Skipped = append(f.Skipped, Skip{Source: SourceInstructions, File: file.Path,
				Why: "an instruction file of the example tree " + tree + "/: not this project's conventions"})
			continue
		}
		if why := readableText([]byte(file.Content)); why != "" {
			f.Skipped = append(f.Skipped, Skip{Source: SourceInstructions, File: file.Path, Why: why})
			continue
		}
		pieces, err := instructionPieces(file.Path, file.Content)
		if err != nil {
			f.Skipped = append(f.Skipped, lineSkip(SourceInstructions, file.Path, err))
			continue
		}
		f.Pieces = append(f.Pieces, pieces...)
	}
	return f, nil
}

// exampleDirs are the directories whose files are samples of what
// others may write, not the project's own: an instruction file under one
// is the example's.
var exampleDirs = []string{"example", "examples", "sample", "samples", "fixture", "fixtures", "testdata", "template", "templates",
	"vendor", "third_party", "node_modules"}

// exampleTree is the directory of rel's path that makes it an example's
// file ("examples", "test/fixtures"), "" when none does.
func exampleTree(rel string) string {
	parts := strings.Split(rel, "/")
	for i, dir := range parts[:len(parts)-1] {
		if slices.Contains(exampleDirs, strings.ToLower(dir)) {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// instructionPieces are the learnings of the instruction file at rel.
func instructionPieces(rel, content string) ([]Piece, error) {
	_, body, first, err := splitFrontmatter(content)
	if err != nil {
		return nil, err
	}
	var out []Piece
	for _, it := range markdownItems(body, first) {
		r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.TypeConvention, Domain: "instructions",
			Classification: changelog.Foundational, Subject: subjectOf(it.heading), Body: it.text,
			Origin: itemOrigin("instructions", rel, it), Tags: []string{"from:instructions"}}
		out = append(out, Piece{Source: SourceInstructions, File: rel, Line: it.line, Record: r})
	}
	return out, nil
}

// lineSkip is the skip of file for err, at the line err names.
func lineSkip(source, file string, err error) Skip {
	s := Skip{Source: source, File: file, Why: err.Error()}
	var le *lineError
	if errors.As(err, &le) {
		s.Line = le.line
	}
	return s
}
