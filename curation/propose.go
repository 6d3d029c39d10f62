package curation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/planq-dev/planq/internal/plural"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// MaxFileSize bounds one proposed instruction file: an instruction file
// an agent reads at every start, not a document. It is the bound
// agent.CheckTextFile holds every file planq copies whole to.
const MaxFileSize = agent.MaxArtifactSize

// maxProposal bounds what 'planq propose' reads: a few instruction files
// in JSON, with room to spare.
const maxProposal = 8 << 20

// Proposal is what the curating agent answers with.
type Proposal struct {
	// ProposedFiles maps an instruction file's path to its whole proposed
	// content.
	ProposedFiles map[string]string `json:"proposed_files"`
	DiffSummary   string            `json:"diff_summary"`
	// EntriesUsed are the notes the proposal adds to the files.
	EntriesUsed []string `json:"entries_used"`
	// EntriesDiscarded are the notes left out, each with the reason.
	EntriesDiscarded map[string]string `json:"entries_discarded"`
}

// DecodeProposal reads the proposal a curating agent answered with: the
// one JSON object the answer holds (see ExtractJSON), bare as the packet
// asks, or in a fenced code block or among sentences as models answer.
// The object is read strictly: an unknown field is an error, not a guess;
// so are two objects that could each be the proposal, none, and an
// answer over 8 MiB.
func DecodeProposal(r io.Reader) (Proposal, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxProposal+1))
	if err != nil {
		return Proposal{}, fmt.Errorf("failed to read the proposal: %w", err)
	}
	if len(data) > maxProposal {
		return Proposal{}, invalid("is over 8 MiB").WithHint("propose a few instruction files at a time")
	}
	if !utf8.Valid(data) {
		return Proposal{}, invalid("is not valid UTF-8")
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	bare := strings.TrimSpace(text)
	if bare == "" {
		return Proposal{}, invalid("is empty: nothing came on stdin").
			WithHint("pipe the curating agent's answer in: planq curate | claude -p | planq propose")
	}
	obj, err := ExtractJSON(text, proposalKeys...)
	var several *SeveralError
	switch {
	case errors.As(err, &several):
		return Proposal{}, invalid("%v; planq reads one", err).WithHint(bareHint)
	case err != nil && strings.HasPrefix(bare, "{"):
		obj = bare // bare JSON that is broken: JSON's own words say where
	case err != nil:
		return Proposal{}, invalid("%v; it begins %q", err, firstLine(bare)).WithHint(bareHint)
	}
	dec := json.NewDecoder(strings.NewReader(obj))
	dec.DisallowUnknownFields()
	var p Proposal
	if err := dec.Decode(&p); err != nil {
		return Proposal{}, invalid("is not the JSON planq reads: %v", err).
			WithHint(`send {"proposed_files": {...}, "diff_summary": "...", "entries_used": [...], "entries_discarded": {...}} (planq curate says how)`)
	}
	if dec.More() {
		return Proposal{}, invalid("holds more than one JSON value; send one proposal at a time")
	}
	return p, nil
}

const bareHint = "answer with the one proposal as bare JSON, nothing before or after it (planq curate says how)"

// firstLine is the start of text's first line, for a message.
func firstLine(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60]) + "..."
	}
	return strings.TrimSpace(line)
}

func invalid(format string, args ...any) *planqerr.Error {
	return planqerr.New(planqerr.Invalid, "proposal", format, args...)
}

// Propose checks a proposal against the code repository at codeRoot and the
// notes, and keeps it on global in one commit with the notes it cites,
// each now proposed: the proposal record, each proposed file under
// proposed/<id>/, and a new version of each note. writer is who proposes.
//
// A file p names through a symbolic link goes to the file the link leads
// to, or is left out (see Settle). It refuses, changing nothing: a file
// outside the repository or not among the project's instruction files,
// content that is not text or is over 1 MiB, a file whose existing lines
// the proposal removes or rewords, notes that do not exist or are not raw,
// notes used when no file is left to propose, and a proposal that arrived
// already.
// What global keeps passes the checks an agent's record passes: no
// credential in a file or in the proposal's text, and a record of at most
// 64 KiB; agent.Store.CommitGlobal checks it all again before it writes.
func Propose(ctx context.Context, store *agent.Store, codeRoot, writer string, p Proposal) (*changelog.Record, error) {
	patterns := store.Project.Config.InstructionFiles()
	p, err := settleAndCheck(codeRoot, patterns, p)
	if err != nil {
		return nil, err
	}
	if err := checkText(p); err != nil {
		return nil, err
	}
	files, blobs, err := checkFiles(codeRoot, patterns, p)
	if err != nil {
		return nil, err
	}
	notes, err := store.Records.All(changelog.KindNote, changelog.KindProposal)
	if err != nil {
		return nil, err
	}
	if dup := sameProposal(notes.Records, files); dup != nil {
		return nil, planqerr.New(planqerr.Exists, "proposal", "arrived already: it proposes what %s proposes", dup.ID).
			WithHint("planq proposals show %s", dup.ID)
	}
	used, err := rawNotes(notes.Records, p)
	if err != nil {
		return nil, err
	}
	rec, err := changelog.NewProposal(changelog.ProposalInput{Summary: p.DiffSummary, Files: files,
		Used: p.EntriesUsed, Discarded: p.EntriesDiscarded})
	if err != nil {
		return nil, err
	}
	// Stamped here, not by CommitGlobal: the proposed files are kept under
	// the proposal's ID, and its size is told field by field.
	now := time.Now().UTC()
	agent.Stamp(rec, writer, now)
	if err := fits(rec); err != nil {
		return nil, err
	}
	change := agent.GlobalChange{Writer: writer, Records: []*changelog.Record{rec}, Files: map[string][]byte{},
		Message: fmt.Sprintf("propose: %s\n\n%s", filesPhrase(files), rec.Body)}
	for _, f := range files {
		change.Files[ProposedPath(rec.ID, f.Path)] = blobs[f.Path]
	}
	for _, n := range used {
		change.Records = append(change.Records, NoteState(n, changelog.StatusProposed, writer, now))
	}
	if _, err := store.CommitGlobal(ctx, change); err != nil {
		return nil, err
	}
	return rec, nil
}

// settleAndCheck is p with its files settled (see Settle), refused unless it
// says what it adds, and proposes files from notes or discards notes.
func settleAndCheck(codeRoot string, patterns []string, p Proposal) (Proposal, error) {
	if strings.TrimSpace(p.DiffSummary) == "" {
		return p, invalid("has no diff_summary").WithHint("say in a line or two what the proposal adds")
	}
	named := len(p.ProposedFiles)
	p, said := Settle(codeRoot, patterns, p)
	switch {
	case named > 0 && len(p.ProposedFiles) == 0:
		return p, invalid("names no file planq can write: %s", strings.Join(said, "; ")).
			WithHint("propose the file each link leads to, as planq curate names it")
	case len(p.ProposedFiles) == 0 && len(p.EntriesDiscarded) == 0:
		return p, invalid("proposes no file and discards no note").WithHint("send proposed_files, or entries_discarded for notes that add nothing")
	case len(p.ProposedFiles) > 0 && len(p.EntriesUsed) == 0:
		return p, invalid("changes files but names no note in entries_used").WithHint("list the notes the additions come from")
	case len(p.ProposedFiles) == 0 && len(p.EntriesUsed) > 0:
		return p, invalid("names notes in entries_used but proposes no file").
			WithHint("propose the files the notes go to, or list the notes under entries_discarded with why")
	}
	return p, nil
}

// checkFiles checks each file p proposes against the code repository at
// codeRoot: the proposed files, sorted, and their content by path.
func checkFiles(codeRoot string, patterns []string, p Proposal) ([]changelog.ProposedFile, map[string][]byte, error) {
	files := make([]changelog.ProposedFile, 0, len(p.ProposedFiles))
	blobs := map[string][]byte{}
	for _, rel := range slices.Sorted(maps.Keys(p.ProposedFiles)) {
		f, err := checkFile(codeRoot, rel, p.ProposedFiles[rel], patterns)
		if err != nil {
			return nil, nil, err
		}
		blobs[rel] = []byte(p.ProposedFiles[rel])
		// The blob is written with the commit, once every check has passed.
		f.Blob = staterepo.BlobHash(blobs[rel]).String()
		files = append(files, f)
	}
	return files, blobs, nil
}

// checkText puts the proposal's own text, each field on its own, through
// the check every record's text passes (size, NUL, UTF-8, credentials), so
// that a refusal names the field. No allowance: what a proposal says is
// copied into a commit message of the code repository.
func checkText(p Proposal) error {
	if err := agent.Guard("proposal: diff_summary", []byte(p.DiffSummary), agent.WriteOptions{}); err != nil {
		return textHint(err)
	}
	for _, id := range slices.Sorted(maps.Keys(p.EntriesDiscarded)) {
		if err := agent.Guard("proposal: entries_discarded: "+id, []byte(p.EntriesDiscarded[id]), agent.WriteOptions{}); err != nil {
			return textHint(err)
		}
	}
	return nil
}

// textHint replaces the hint of a refused record, which names
// --allow-secret, with one for a proposal, which has none.
func textHint(err error) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) {
		return err
	}
	if pe.Kind == planqerr.Refused {
		return pe.WithHint("remove the credential from the proposal: what it says is kept on global and copied into a commit of the code repository")
	}
	return pe.WithHint("say in a line or two what the proposal adds, and why a note is discarded; the proposed files carry the text")
}

// fits refuses a proposal whose record would be over the 64 KiB a record
// holds, though each field is under it, naming the fields that make it so.
func fits(rec *changelog.Record) error {
	data, err := changelog.Render(rec)
	if err != nil {
		return err
	}
	if len(data) <= changelog.MaxRecordSize {
		return nil
	}
	reasons := 0
	for _, r := range rec.EntriesDiscarded {
		reasons += len(r)
	}
	return invalid("would be a record of %d bytes, and a record holds at most %d (64 KiB): its diff_summary is %d bytes, the reasons of entries_discarded %d, and entries_used names %d notes",
		len(data), changelog.MaxRecordSize, len(rec.Body), reasons, len(rec.EntriesUsed)).
		WithHint("shorten the diff_summary and the reasons, or propose from fewer notes at a time")
}

// ProposedPath is where global keeps a proposal's proposed file.
func ProposedPath(proposalID, file string) string {
	return project.ProposedDir + "/" + proposalID + "/" + file
}

// NoteState is the next version of a note, in state status: the same note,
// written by writer at when, superseding it. It keeps the note's author
// (agent), whom 'planq notes --agent' finds it by.
func NoteState(n *changelog.Record, status changelog.Status, writer string, when time.Time) *changelog.Record {
	next := *n
	next.Status, next.Supersedes, next.Path = status, n.ID, ""
	next.ID, next.Timestamp = "", time.Time{}
	agent.Stamp(&next, writer, when)
	return &next
}

// checkFile checks one proposed file and describes it as it is now.
func checkFile(codeRoot, rel, content string, patterns []string) (changelog.ProposedFile, error) {
	subject := "proposal: " + rel
	refuse := func(format string, args ...any) *planqerr.Error {
		return planqerr.New(planqerr.Invalid, subject, format, args...)
	}
	if !changelog.ValidRepoPath(rel) {
		return changelog.ProposedFile{}, refuse("is not a path inside the code repository").
			WithHint("name instruction files by their path from the repository's root, like CLAUDE.md")
	}
	if !listed(rel, patterns) {
		return changelog.ProposedFile{}, refuse("is not one of the project's instruction files (%s)", strings.Join(patterns, ", ")).
			WithHint("propose only the files planq curate lists, or add it to curation.instruction_files in .planq/config")
	}
	if err := textFile(subject, content); err != nil {
		return changelog.ProposedFile{}, err
	}
	if err := agent.GuardFile(subject, []byte(content)); err != nil {
		return changelog.ProposedFile{}, err
	}
	old, exists, err := readInside(codeRoot, rel)
	if err != nil {
		return changelog.ProposedFile{}, err
	}
	f := changelog.ProposedFile{Path: rel}
	if exists {
		f.Base = SHA256(old)
		if string(old) == content {
			return changelog.ProposedFile{}, refuse("proposes no change: the file holds this already")
		}
		if line, text, gone := removedLine(string(old), content); gone {
			return changelog.ProposedFile{}, refuse("removes or rewords line %d (%q); a proposal only adds", line, text).
				WithHint("keep every existing line as it is, and add the new ones around them")
		}
	}
	f.Additions = len(lines(content)) - len(lines(string(old)))
	return f, nil
}

// listed reports whether rel is one of the instruction files patterns name
// (globs where ** is any number of directories, none too).
func listed(rel string, patterns []string) bool {
	for _, pat := range patterns {
		if ok, err := doublestar.Match(pat, rel); err == nil && ok {
			return true
		}
	}
	return false
}

// Settle gives p with each file it names through a symbolic link (the link
// itself, or a directory on its path) moved to the file the link leads
// to, when that is one of the instruction files (patterns) inside the
// work tree at codeRoot, else left out; and a line for each, saying so. A
// file p also names as itself keeps what p proposes for it; two links to
// one file keep the first's, by path. The rest of p is kept as it is; a
// line says so of a file that only imports others (@AGENTS.md), whose
// additions reach fewer agents than the files it imports.
// Propose settles p this way before it checks it; a caller that tells the
// user what became of each file calls it first.
func Settle(codeRoot string, patterns []string, p Proposal) (Proposal, []string) {
	realRoot, err := filepath.EvalSymlinks(codeRoot)
	if err != nil || len(p.ProposedFiles) == 0 {
		return p, nil // Propose's own checks say what is wrong
	}
	out := p
	out.ProposedFiles = make(map[string]string, len(p.ProposedFiles))
	var said []string
	type move struct{ from, to string }
	var moves []move
	for _, rel := range slices.Sorted(maps.Keys(p.ProposedFiles)) {
		if !changelog.ValidRepoPath(rel) {
			out.ProposedFiles[rel] = p.ProposedFiles[rel] // refused by checkFile
			continue
		}
		to, problem := linkTarget(realRoot, codeRoot, rel, patterns)
		switch {
		case problem != "":
			said = append(said, fmt.Sprintf("%s %s: left out of the proposal", rel, problem))
		case to == "":
			out.ProposedFiles[rel] = p.ProposedFiles[rel]
			if imports := importsOf(codeRoot, rel); imports != nil {
				said = append(said, fmt.Sprintf("%s only imports %s: what the proposal adds to it reaches only the agents that read %s; the packet asks for %s",
					rel, andList(imports), rel, orList(imports)))
			}
		default:
			moves = append(moves, move{rel, to})
		}
	}
	for _, m := range moves {
		content := p.ProposedFiles[m.from]
		have, named := out.ProposedFiles[m.to]
		switch {
		case !named:
			out.ProposedFiles[m.to] = content
			said = append(said, fmt.Sprintf("%s is a symbolic link to %s: what the proposal holds for it goes to %s", m.from, m.to, m.to))
		case have == content:
			said = append(said, fmt.Sprintf("%s is a symbolic link to %s, proposed with the same content: kept once, for %s", m.from, m.to, m.to))
		default:
			said = append(said, fmt.Sprintf("%s is a symbolic link to %s, which the proposal names too, with other content: %s is left out, %s kept as proposed",
				m.from, m.to, m.from, m.to))
		}
	}
	return out, said
}

// importsOf gives what the file rel under root imports when it holds
// nothing but imports, else nil.
func importsOf(root, rel string) []string {
	// A FIFO proposed by its path would block a plain read.
	data, err := untrusted.ReadFile(root, filepath.Join(root, filepath.FromSlash(rel)), MaxFileSize)
	if err != nil {
		return nil
	}
	return onlyImports(rel, string(data))
}

// linkTarget finds where rel, under root, leads when a symbolic link is on
// its way: the path from the root of the instruction file it leads to,
// or why planq cannot write through it; both "" when no link is on its
// way (or rel does not exist, nor its directory).
func linkTarget(realRoot, root, rel string, patterns []string) (string, string) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(full)
	var real string
	switch {
	case err == nil:
		if real, err = filepath.EvalSymlinks(full); err != nil {
			dest, rerr := os.Readlink(full)
			if rerr != nil {
				return "", "is a symbolic link, or under one, that leads nowhere"
			}
			return "", fmt.Sprintf("is a symbolic link to %s, which does not exist", dest)
		}
	case errors.Is(err, fs.ErrNotExist):
		dir, err := filepath.EvalSymlinks(filepath.Dir(full))
		if err != nil {
			return "", "" // a directory to be created: no link on the way
		}
		real = filepath.Join(dir, filepath.Base(full))
	default:
		return "", "" // checkFile reads it, and says why it cannot
	}
	in, err := filepath.Rel(realRoot, real)
	to := filepath.ToSlash(in)
	switch {
	case err == nil && to == rel:
		return "", ""
	case err != nil || !changelog.ValidRepoPath(to):
		return "", "is a symbolic link out of the work tree (or into .git), or under one"
	}
	if info != nil {
		if ti, err := os.Stat(real); err != nil || !ti.Mode().IsRegular() {
			return "", fmt.Sprintf("is a symbolic link to %s, which is not a file", to)
		}
	}
	if !listed(to, patterns) {
		return "", fmt.Sprintf("is a symbolic link to %s, which is not one of the project's instruction files", to)
	}
	return to, ""
}

// readInside reads rel under root, refusing a path that leaves root
// through a symbolic link, or that is no regular file.
func readInside(root, rel string) ([]byte, bool, error) {
	subject := "proposal: " + rel
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, false, fmt.Errorf("failed to resolve %s: %w", root, err)
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	dir, err := filepath.EvalSymlinks(filepath.Dir(full))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir = "" // a directory to be created: nothing to escape through yet
	case err != nil:
		return nil, false, fmt.Errorf("failed to resolve %s: %w", rel, err)
	}
	if dir != "" && dir != realRoot && !strings.HasPrefix(dir, realRoot+string(filepath.Separator)) {
		return nil, false, planqerr.New(planqerr.Invalid, subject, "is outside the code repository (through a symbolic link)")
	}
	info, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("failed to read %s: %w", rel, err)
	}
	if !info.Mode().IsRegular() {
		return nil, false, planqerr.New(planqerr.Invalid, subject, "is not a regular file (a symbolic link or a directory); planq writes only regular files")
	}
	// Swapped for a FIFO since Lstat, it would block; a file of gigabytes
	// is no instruction file planq writes.
	data, err := untrusted.ReadFile(realRoot, full, MaxFileSize)
	if untrusted.ReasonOf(err) != 0 {
		return nil, false, planqerr.New(planqerr.Invalid, subject, "%s", untrusted.Why(err))
	}
	if err != nil {
		return nil, false, fmt.Errorf("failed to read %s: %w", rel, err)
	}
	return data, true, nil
}

// removedLine finds the first line of old that new does not keep, in
// order: new must hold every line of old, unchanged, in the same order.
func removedLine(old, new string) (int, string, bool) {
	have := lines(new)
	next := 0
	for i, line := range lines(old) {
		for next < len(have) && have[next] != line {
			next++
		}
		if next == len(have) {
			return i + 1, line, true
		}
		next++
	}
	return 0, "", false
}

// lines splits text into lines; a final newline ends the last line rather
// than starting an empty one.
func lines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// SHA256 is the hex SHA-256 of data.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// sameProposal finds a pending proposal that proposes exactly files.
func sameProposal(recs []*changelog.Record, files []changelog.ProposedFile) *changelog.Record {
	if len(files) == 0 {
		return nil
	}
	for _, r := range changelog.Current(recs) {
		if r.Kind == changelog.KindProposal && r.Status == changelog.StatusPending && slices.EqualFunc(r.Files, files,
			func(a, b changelog.ProposedFile) bool { return a.Path == b.Path && a.Blob == b.Blob }) {
			return r
		}
	}
	return nil
}

// rawNotes finds the notes p cites, each current and raw.
func rawNotes(recs []*changelog.Record, p Proposal) ([]*changelog.Record, error) {
	byID := map[string]*changelog.Record{}
	next := map[string]*changelog.Record{}
	for _, r := range recs {
		if r.Kind != changelog.KindNote {
			continue
		}
		byID[r.ID] = r
		if r.Supersedes != "" {
			next[r.Supersedes] = r
		}
	}
	cited := append(slices.Clone(p.EntriesUsed), slices.Sorted(maps.Keys(p.EntriesDiscarded))...)
	seen := map[string]bool{}
	var out []*changelog.Record
	for _, id := range cited {
		if seen[id] {
			return nil, invalid("cites note %s twice (in entries_used and entries_discarded, or twice in one)", id)
		}
		seen[id] = true
		n := byID[id]
		if n == nil {
			return nil, invalid("cites note %s, which no branch holds", id).WithHint("the notes to curate are listed by: planq notes --state raw")
		}
		if ring := readmodel.VersionRing(recs, id); ring != nil {
			return nil, readmodel.RingError(id, ring) // its newest version would be looked for forever
		}
		if later := next[id]; later != nil || n.Status != changelog.StatusRaw {
			status := n.Status
			for later != nil {
				status, later = later.Status, next[later.ID]
			}
			return nil, invalid("cites note %s, which is %s, not raw", id, status).
				WithHint("curate again (it gives the notes that are still raw): planq curate")
		}
		if strings.TrimSpace(p.EntriesDiscarded[id]) == "" && !slices.Contains(p.EntriesUsed, id) {
			return nil, invalid("discards note %s without a reason", id)
		}
		out = append(out, n)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.Before(out[j].Timestamp) })
	return out, nil
}

// filesPhrase names the files of a proposal in a commit subject.
func filesPhrase(files []changelog.ProposedFile) string {
	if len(files) == 0 {
		return "no file, notes discarded"
	}
	names := make([]string, len(files))
	adds := 0
	for i, f := range files {
		names[i] = f.Path
		adds += f.Additions
	}
	return fmt.Sprintf("%s (%s)", strings.Join(names, ", "), plural.Of(adds, "addition"))
}
