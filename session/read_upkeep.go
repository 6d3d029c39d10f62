package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/planq-dev/planq/internal/mulch"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// What the upkeep commands find, as the front ends present it.
type (
	// DuplicateGroup is records that say the same thing, and the one kept.
	DuplicateGroup = lifecycle.Group
	// DuplicateCopy is one record of a duplicate group.
	DuplicateCopy = lifecycle.Copy
	// RecordFinding is one problem validate found in a record file.
	RecordFinding = readmodel.Finding
	// RepairedFile is one repair validate --fix made.
	RepairedFile = lifecycle.Fixed
	// ArchivedLearning is a learning prune archived.
	ArchivedLearning = lifecycle.Archived
)

// Why records were grouped as duplicates, and how alike near ones are.
const (
	ReasonSimilar = lifecycle.ReasonSimilar
	NearThreshold = lifecycle.NearThreshold
)

// CheckCycle is the check that finds versions superseding each other in a
// ring.
const CheckCycle = readmodel.CheckCycle

// ExportInput asks for the team's current learnings in a format of mulch's
// or for people.
type ExportInput struct {
	// Format is jsonl (mulch's records) or markdown.
	Format  string
	Domains []string
	// Out is where to write: a directory for jsonl, a file for markdown;
	// "" hands the text back (Exported.Data).
	Out string
}

// Exported is what an export wrote, or, without Out, the text to print.
type Exported struct {
	Data      []byte
	Learnings int
	Domains   []string
	// Problems are the record files that did not read.
	Problems []string
}

// Export writes the current learnings of global and every agent branch
// (each once; of in.Domains only, if given) as mulch's records, one file
// per domain under Out/expertise (and Out/mulch.config.yaml when there is
// none), or as a Markdown page per domain.
func (s *Project) Export(ctx context.Context, in ExportInput) (Exported, error) {
	var ex Exported
	h, err := s.handle(ctx)
	if err != nil {
		return ex, err
	}
	recs, _, problems, err := h.Records.Learnings(readmodel.LearningFilter{Domains: in.Domains})
	if err != nil {
		return ex, err
	}
	changelog.SortByTime(recs) // the order mulch appends them in
	byDomain := map[string][]*changelog.Record{}
	for _, r := range recs {
		if byDomain[r.Domain] == nil {
			ex.Domains = append(ex.Domains, r.Domain)
		}
		byDomain[r.Domain] = append(byDomain[r.Domain], r)
	}
	sort.Strings(ex.Domains)
	ex.Learnings, ex.Problems = len(recs), problems
	if in.Format == "markdown" {
		ex.Data = exportMarkdown(h.Project.Config.Project, ex.Domains, byDomain)
		if in.Out != "" {
			return ex, writeExport(in.Out, ex.Data)
		}
		return ex, nil
	}
	return ex, exportJSONL(&ex, in.Out, byDomain, mulch.IDMap(recs))
}

// exportJSONL writes each domain's learnings as mulch's lines into
// out/expertise, or, without out, puts the one domain's in ex.Data.
func exportJSONL(ex *Exported, out string, byDomain map[string][]*changelog.Record, idOf func(string) string) error {
	var exported []mulch.Record
	lines := func(d string) ([]byte, error) {
		var b bytes.Buffer
		for _, r := range byDomain[d] {
			m := mulch.FromPlanq(r, idOf)
			exported = append(exported, m)
			data, err := json.Marshal(m)
			if err != nil {
				return nil, fmt.Errorf("failed to encode %s: %w", r.ID, err)
			}
			b.Write(append(data, '\n'))
		}
		return b.Bytes(), nil
	}
	if out == "" {
		if len(ex.Domains) > 1 {
			return planqerr.New(planqerr.Invalid, "export", "mulch keeps one file per domain, and there are %d (%s)", len(ex.Domains), strings.Join(ex.Domains, ", ")).
				WithHint("write them all with --out DIR, or one to stdout with --domain %s", ex.Domains[0])
		}
		var err error
		if len(ex.Domains) == 1 {
			ex.Data, err = lines(ex.Domains[0])
		}
		return err
	}
	for _, d := range ex.Domains {
		data, err := lines(d)
		if err != nil {
			return err
		}
		if err := writeExport(filepath.Join(out, "expertise", d+".jsonl"), data); err != nil {
			return err
		}
	}
	config := filepath.Join(out, "mulch.config.yaml")
	if _, err := os.Stat(config); os.IsNotExist(err) {
		return writeExport(config, mulch.ConfigYAML(ex.Domains, exported))
	}
	return nil
}

// writeExport writes one file of an export, whole or not at all.
func writeExport(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return planqerr.New(planqerr.Failure, path, "failed to create its directory: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return planqerr.New(planqerr.Failure, path, "failed to write: %w", err)
	}
	return nil
}

// exportMarkdown is the learnings as a page: a section per domain, then per
// type, each learning its first line, its classification and date, the rest
// of its text, and its ID.
func exportMarkdown(project string, domains []string, byDomain map[string][]*changelog.Record) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: expertise\n", project)
	for _, d := range domains {
		fmt.Fprintf(&b, "\n## %s\n", d)
		for _, t := range changelog.KindLearning.Spec().Types {
			var of []*changelog.Record
			for _, r := range byDomain[d] {
				if r.Type == t {
					of = append(of, r)
				}
			}
			if len(of) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n\n", t)
			for _, r := range of {
				fmt.Fprintf(&b, "- **%s** (%s, %s, %s)\n", r.Title(), r.Classification, r.Timestamp.UTC().Format("2006-01-02"), r.ID)
				if _, rest, ok := strings.Cut(strings.TrimSpace(r.Body), "\n"); ok && strings.TrimSpace(rest) != "" {
					fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(strings.TrimSpace(rest), "\n", "\n  "))
				}
				if r.Resolution != "" {
					fmt.Fprintf(&b, "  Resolution: %s\n", r.Resolution)
				}
			}
		}
	}
	return []byte(b.String())
}

// DedupeInput asks for the duplicate groups and, unless DryRun, their
// retraction by the author's agent.
type DedupeInput struct {
	Author
	DryRun bool
}

// Deduped is the duplicate groups found and the retractions written.
type Deduped struct {
	Groups  []DuplicateGroup
	Written []Written
}

// Dedupe finds the current learnings and decisions, on global and every
// agent branch, that say the same thing, and, unless in.DryRun, retracts
// every other record of each group but the similar ones, in one commit of
// the author's agent.
func (s *Project) Dedupe(ctx context.Context, in DedupeInput) (Deduped, error) {
	d := Deduped{Groups: []DuplicateGroup{}}
	store, err := s.openStore(ctx)
	if err != nil {
		return d, err
	}
	groups, err := lifecycle.FindDuplicates(ctx, store)
	if d.Groups = append(d.Groups, groups...); err != nil || in.DryRun || len(groups) == 0 {
		return d, err
	}
	a, err := s.agent(ctx, in.Agent)
	if err != nil {
		return d, err
	}
	d.Written, err = lifecycle.Dedupe(ctx, a, d.Groups, in.options())
	return d, err
}

// Validated is what validate found and, with a fix, repaired: as --fix's
// JSON prints it.
type Validated struct {
	Fixed  []RepairedFile `json:"fixed"`
	Commit string         `json:"commit,omitempty"`
	// Left are the problems found, after the repairs.
	Left []RecordFinding `json:"left"`
	// FixedBy is the agent whose worktree was repaired; "" without a fix.
	FixedBy string `json:"-"`
}

// Validate checks every record on every branch; with fix, it first
// repairs what is safe to repair in the named (or mounted) agent's
// worktree, in one commit.
func (s *Project) Validate(ctx context.Context, fix bool, agentName string) (Validated, error) {
	v := Validated{Fixed: []RepairedFile{}, Left: []RecordFinding{}}
	h, err := s.handle(ctx)
	if err != nil {
		return v, err
	}
	if fix {
		a, err := s.agent(ctx, agentName)
		if err != nil {
			return v, err
		}
		res, err := lifecycle.Fix(ctx, a)
		if err != nil {
			return v, err
		}
		v.FixedBy, v.Commit = a.Name, res.Commit
		v.Fixed = append(v.Fixed, res.Fixed...)
	}
	findings, err := h.Records.Validate()
	v.Left = append(v.Left, findings...)
	return v, err
}

// ArchivedLearnings are the learnings prune archived on global and no
// restore brought back, newest first.
func (s *Project) ArchivedLearnings(ctx context.Context) ([]ArchivedLearning, error) {
	store, err := s.openStore(ctx)
	if err != nil {
		return nil, err
	}
	out, err := lifecycle.ArchiveList(store)
	if out == nil {
		out = []ArchivedLearning{}
	}
	return out, err
}
