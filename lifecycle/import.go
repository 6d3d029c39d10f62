package lifecycle

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/mulch"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// ImportedRecord is one mulch record and what the import did with it.
type ImportedRecord struct {
	ID     string `json:"id"`
	Origin string `json:"origin"`
	// File and Line are where the record was read, File relative to the
	// mulch directory (expertise/cli.jsonl, archive/cli.jsonl).
	File   string         `json:"file"`
	Line   int            `json:"line"`
	Domain string         `json:"domain"`
	Type   changelog.Type `json:"type"`
	// MulchType is the record's type in mulch: Type, or a custom type
	// whose nearest planq type Type is.
	MulchType string `json:"mulch_type"`
	// Archived says the record was read from mulch's archive: it is
	// imported with the record that archives it.
	Archived bool `json:"archived"`
	// Status is "imported", "present" when an earlier import (by any
	// agent, on any machine) brought it already, or "archived" when one
	// brought it and mulch archived it since: this import archives it.
	Status string `json:"status"`
}

// ImportResult says what ImportMulch did, and the commit that did it (none
// when nothing was new, or in a dry run).
type ImportResult struct {
	Dir string `json:"dir"`
	// Source is the project the records came from, as their origins name it.
	Source  string           `json:"source"`
	Records []ImportedRecord `json:"records"`
	// Refused are the lines that are not imported, and why.
	Refused []mulch.Refusal `json:"refused"`
	// Unlinked are the learnings imported without the supersedes link
	// mulch gave them, as it would close a ring of versions.
	Unlinked []Unlinked `json:"unlinked"`
	Commit   string     `json:"commit"`
}

// Unlinked is a learning whose supersedes link (mulch's Link, planq's
// Supersedes) would have closed a ring of versions: the import keeps it as
// a tag (mulch:supersedes=<link>) instead, and the newest version of the
// ring is current.
type Unlinked struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	ID         string `json:"id"`
	Link       string `json:"link"`
	Supersedes string `json:"supersedes"`
	// Problem is what validate would have said of the ring.
	Problem string `json:"problem"`
}

func (u Unlinked) String() string {
	return fmt.Sprintf("%s:%d: %s does not supersede %s (mulch: supersedes %s): that would close a ring (%s); the link is kept as the tag mulch:supersedes=%s",
		u.File, u.Line, u.ID, u.Supersedes, u.Link, u.Problem, u.Link)
}

// Counts are how many records were imported, present already, and
// archived by this import having been imported before.
func (r ImportResult) Counts() (imported, present, archived int) {
	for _, rec := range r.Records {
		switch rec.Status {
		case "imported":
			imported++
		case "archived":
			archived++
		default:
			present++
		}
	}
	return imported, present, archived
}

// ImportOptions tune an import.
type ImportOptions struct {
	// Source names the project the mulch directory belongs to, in the
	// origin of every record (mulch:<source>:<id>): the same mulch id from
	// two projects makes two learnings. Default: see SourceName.
	Source string
	DryRun bool
	// Strict imports nothing when a line cannot be imported.
	Strict bool
	Write  agent.WriteOptions
}

// SourceName is the default name of the project a mulch directory belongs
// to: the name of the directory holding .mulch, or of the mulch directory
// itself when it is not called .mulch, made a planq name (see
// mulch.Domain).
func SourceName(mulchDir string) string {
	dir := filepath.Clean(mulchDir)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if filepath.Base(dir) == ".mulch" {
		dir = filepath.Dir(dir)
	}
	name, err := mulch.Domain(strings.TrimLeft(filepath.Base(dir), "._-"))
	if err != nil {
		return "mulch"
	}
	return name
}

// ImportMulch imports the mulch directory dir into the agent's branch (see
// mulch.Read and mulch.ToPlanq): every record that no branch holds yet
// becomes a learning, a record of mulch's archive one with the record that
// archives it, anchored to the blobs of its files at its evidence commit
// when the code repository at codeDir has it, all in one commit. A line
// that cannot be imported (mulch does not accept it, or planq cannot hold
// it: a credential, a record without text) is refused, naming its file and
// line, and the others are imported; with opts.Strict, nothing is. Importing
// again adds nothing: a record keeps its ID from one import to the next,
// and one an import before sources were named brought (origin
// mulch:<id>, the same text) is present.
func ImportMulch(ctx context.Context, a *agent.Agent, dir, codeDir string, opts ImportOptions) (ImportResult, error) {
	src, err := mulch.Read(ctx, dir)
	if err != nil {
		return ImportResult{}, err
	}
	source := opts.Source
	if source == "" {
		source = SourceName(src.Dir)
	}
	if _, err := mulch.Domain(source); err != nil || strings.ContainsAny(source, ":#") {
		return ImportResult{}, planqerr.New(planqerr.Invalid, fmt.Sprintf("source %q", source), "is not a project name").
			WithHint("name it with letters, digits, '-' and '_' (--source NAME)")
	}
	held, err := heldLearnings(a)
	if err != nil {
		return ImportResult{}, err
	}
	// Whether a learning can be stored is checked up front for a dry run
	// and --strict, which must say what a write would refuse; a write
	// checks every record anyway, and only when it refuses one is each
	// checked, to leave out what it refused.
	checked := opts.DryRun || opts.Strict
	for {
		res, fresh, err := plan(src, source, held, a.Name, opts, checked)
		if err != nil || opts.DryRun || len(fresh) == 0 {
			return res, err
		}
		anchorByCommit(ctx, staterepo.OpenCode(codeDir), fresh)
		written, err := a.WriteMany(ctx, fresh, importMessage(res), opts.Write)
		if kind := planqerr.KindOf(err); !checked && (kind == planqerr.Refused || kind == planqerr.Invalid) {
			checked = true
			continue
		}
		if err != nil {
			return ImportResult{}, err
		}
		res.Commit = written[0].Commit
		return res, nil
	}
}

// plan is what importing src as source does: each record's status, the
// lines refused, and the records to write. With checked, each learning is
// checked as a write would check it, and those it would refuse are refused.
func plan(src *mulch.Source, source string, held held, agentName string, opts ImportOptions, checked bool) (ImportResult, []*changelog.Record, error) {
	conv, refused := convertStorable(src, source, held, agentName, opts, checked)
	res := ImportResult{Dir: src.Dir, Source: source, Records: []ImportedRecord{}, Refused: refused, Unlinked: []Unlinked{}}
	if refused == nil {
		res.Refused = []mulch.Refusal{}
	}
	if opts.Strict && len(refused) > 0 {
		return res, nil, planqerr.New(planqerr.Corrupt, src.Dir, "%s cannot be imported, so nothing was (--strict)", plural.Of(len(refused), "line")).
			WithHint("each line is listed above with why; fix them, or import without --strict to import the others")
	}
	var fresh []*changelog.Record
	alias := map[string]string{} // a record's ID to that of the copy an older import wrote
	for _, c := range conv {
		fresh = append(fresh, held.importOne(c, alias, &res)...)
	}
	for i, u := range res.Unlinked {
		res.Unlinked[i].Supersedes = held.resolve(u.Supersedes, alias)
	}
	for _, r := range fresh {
		r.Supersedes = held.resolve(r.Supersedes, alias)
		for i, d := range r.DependsOn {
			r.DependsOn[i] = held.resolve(d, alias)
		}
	}
	return res, fresh, nil
}

// refusedLines are the entries refused, by file:line.
type refusedLines map[string]bool

func (out refusedLines) leftOut(e mulch.Entry) bool { return out[fmt.Sprintf("%s:%d", e.File, e.Line)] }

// convertStorable converts src's entries, refusing what planq cannot
// store (with checked, each learning as a write would check it); then
// again without what was refused, so that no learning links to one that
// is not written. It returns the conversions and every line refused, by
// file and line.
func convertStorable(src *mulch.Source, source string, held held, agentName string, opts ImportOptions, checked bool) ([]mulch.Converted, []mulch.Refusal) {
	refused := slices.Clone(src.Refused)
	out := refusedLines{}
	for {
		conv, more := mulch.ToPlanq(src.Config, source, src.Entries, out.leftOut)
		if checked {
			more = append(more, held.unstorable(agentName, conv, opts.Write)...)
		}
		more = append(more, held.rings(conv)...)
		if len(more) == 0 {
			slices.SortStableFunc(refused, func(x, y mulch.Refusal) int {
				if c := strings.Compare(x.File, y.File); c != 0 {
					return c
				}
				return x.Line - y.Line
			})
			return conv, refused
		}
		refused = append(refused, more...)
		for _, r := range more {
			out[fmt.Sprintf("%s:%d", r.File, r.Line)] = true
		}
	}
}

// unstorable refuses each learning of conv a write would refuse.
func (h held) unstorable(agentName string, conv []mulch.Converted, opts agent.WriteOptions) []mulch.Refusal {
	var out []mulch.Refusal
	for _, c := range conv {
		if why, kind := storable(agentName, c, h, opts); why != "" {
			out = append(out, mulch.Refusal{File: c.Entry.File, Line: c.Entry.Line, Reason: why, Kind: kind})
		}
	}
	return out
}

// importOne adds c to res, with its status (imported, present, archived),
// and returns what of it is to write: its learning unless an earlier
// import wrote it (whose ID alias then maps it to), and its archive
// record unless written.
func (h held) importOne(c mulch.Converted, alias map[string]string, res *ImportResult) []*changelog.Record {
	var fresh []*changelog.Record
	r, status := c.Record, "imported"
	if id, ok := h.present(c); ok {
		status = "present"
		if id != r.ID {
			alias[r.ID] = id
		}
	} else {
		fresh = append(fresh, r)
	}
	if m := c.Archive; m != nil && !h.ids[m.ID] {
		if status == "present" {
			status = "archived"
		}
		fresh = append(fresh, m)
	}
	res.Records = append(res.Records, ImportedRecord{ID: h.resolve(r.ID, alias), Origin: r.Origin, File: c.Entry.File, Line: c.Entry.Line,
		Domain: r.Domain, Type: r.Type, MulchType: c.Entry.Record.Type, Archived: c.Entry.Archived, Status: status})
	if u := c.Unlinked; u != nil && status == "imported" {
		res.Unlinked = append(res.Unlinked, Unlinked{File: c.Entry.File, Line: c.Entry.Line, ID: r.ID, Link: u.Link,
			Supersedes: u.Supersedes, Problem: readmodel.RingProblem(u.Ring)})
	}
	return fresh
}

// importMessage is the import's commit message: its subject, and the links
// it dropped, if any, for the history to say why.
func importMessage(res ImportResult) string {
	imported, _, archived := res.Counts()
	msg := fmt.Sprintf("import: %s from mulch", plural.Of(imported, "learning"))
	if archived > 0 {
		msg += fmt.Sprintf(", %d archived since", archived)
	}
	if len(res.Unlinked) > 0 {
		msg += "\n"
		for _, u := range res.Unlinked {
			msg += "\n" + u.String()
		}
	}
	return msg
}

// held is what the branches hold of earlier imports: every learning's ID
// and origin, and the learnings an import before sources were named wrote,
// by origin.
type held struct {
	ids     map[string]bool
	origins map[string]bool
	legacy  map[string][]*changelog.Record
	links   map[string]string // each learning's ID to the one it supersedes
}

func heldLearnings(a *agent.Agent) (held, error) {
	set, err := a.Store().Records.All(changelog.KindLearning)
	if err != nil {
		return held{}, err
	}
	h := held{ids: make(map[string]bool, len(set.Records)), origins: map[string]bool{}, legacy: map[string][]*changelog.Record{},
		links: map[string]string{}}
	for _, r := range set.Records {
		h.ids[r.ID] = true
		if r.Supersedes != "" {
			h.links[r.ID] = r.Supersedes
		}
		if r.Origin == "" {
			continue
		}
		h.origins[r.Origin] = true
		if id, ok := strings.CutPrefix(r.Origin, "mulch:"); ok && !strings.Contains(id, ":") {
			h.legacy[r.Origin] = append(h.legacy[r.Origin], r)
		}
	}
	return h, nil
}

// present tells whether a branch holds c's learning already, and its ID
// there: the same ID or origin, or the legacy origin with the same
// domain, type and text (the same mulch id from another project is
// another record).
func (h held) present(c mulch.Converted) (string, bool) {
	r := c.Record
	if h.ids[r.ID] || h.origins[r.Origin] {
		return r.ID, true
	}
	for _, old := range h.legacy[c.Legacy] {
		if old.Domain == r.Domain && old.Type == r.Type && strings.TrimSpace(old.Body) == strings.TrimSpace(r.Body) {
			return old.ID, true
		}
	}
	return "", false
}

// rings refuses the learnings of conv that would close a ring of versions
// with what the branches hold: ToPlanq breaks the rings of the import's own
// links, and an earlier import linked only to what it wrote, so only a
// learning changed by hand since (to supersede one this import writes)
// makes one. Refused, the learning is not written; the others are.
func (h held) rings(conv []mulch.Converted) []mulch.Refusal {
	links := maps.Clone(h.links)
	alias := map[string]string{}
	fresh := map[string]mulch.Converted{}
	for _, c := range conv {
		if id, ok := h.present(c); ok {
			alias[c.Record.ID] = id
		} else {
			fresh[c.Record.ID] = c
		}
	}
	for id, c := range fresh {
		if c.Record.Supersedes != "" {
			links[id] = h.resolve(c.Record.Supersedes, alias)
		}
	}
	var out []mulch.Refusal
	for _, ring := range changelog.RingsOfLinks(links) {
		for _, id := range ring {
			if c, ok := fresh[id]; ok {
				out = append(out, mulch.Refusal{File: c.Entry.File, Line: c.Entry.Line, Kind: planqerr.Invalid,
					Reason: fmt.Sprintf("its supersedes would close a ring with a learning a branch holds (%s): 'planq validate --fix' breaks that ring, then import again", readmodel.RingProblem(ring))})
				break
			}
		}
	}
	return out
}

func (h held) resolve(id string, alias map[string]string) string {
	if to, ok := alias[id]; ok {
		return to
	}
	return id
}

// storable says why the learning c makes (and its archive record) cannot
// be stored, as the agent's write would refuse it, and the kind of that
// refusal; "" when it can.
func storable(agentName string, c mulch.Converted, h held, opts agent.WriteOptions) (string, planqerr.Kind) {
	for _, rec := range []*changelog.Record{c.Record, c.Archive} {
		if rec == nil || h.ids[rec.ID] {
			continue
		}
		if _, ok := h.present(c); ok && rec == c.Record {
			continue
		}
		stamped := *rec
		stamped.Agent = agentName
		if err := changelog.Validate(&stamped); err != nil {
			return err.Error(), planqerr.Invalid
		}
		data, err := changelog.Render(&stamped)
		if err != nil {
			return err.Error(), planqerr.Invalid
		}
		if err := agent.Guard("", data, opts); err != nil {
			if planqerr.KindOf(err) == planqerr.Refused {
				return err.Error() + " (--allow-secret imports it)", planqerr.Refused
			}
			return err.Error(), planqerr.Invalid
		}
	}
	return "", planqerr.Invalid
}

// anchorByCommit fills the blobs of the records' anchors at each record's
// evidence commit: one git call per distinct commit, not per record. A
// commit the code repository does not have leaves its anchors without
// blobs: they are never marked stale.
func anchorByCommit(ctx context.Context, code *staterepo.CodeRepo, recs []*changelog.Record) {
	byCommit := map[string][]*changelog.Record{}
	for _, r := range recs {
		if len(r.Anchors) > 0 && r.Evidence != nil && r.Evidence.Commit != "" {
			byCommit[r.Evidence.Commit] = append(byCommit[r.Evidence.Commit], r)
		}
	}
	for commit, group := range byCommit {
		var paths []string
		for _, r := range group {
			for _, an := range r.Anchors {
				paths = append(paths, an.Path)
			}
		}
		blobs, err := code.Blobs(ctx, commit, paths)
		if err != nil {
			continue
		}
		for _, r := range group {
			for i := range r.Anchors {
				r.Anchors[i].Blob = blobs[r.Anchors[i].Path]
			}
		}
	}
}
