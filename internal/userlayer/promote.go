package userlayer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// Writer is who the user layer's records are written by: a person, not an
// agent (the layer has no agents).
const Writer = "user"

// What a promotion or an adoption did with one record.
const (
	// ActionAdd: the record lands (or, in a dry run, would).
	ActionAdd = "add"
	// ActionPresent: the record was carried over before; nothing lands.
	ActionPresent = "present"
)

// OriginPrefix starts the origin of a record adopted from the user layer:
// "user/<id>".
const OriginPrefix = "user/"

// Origin is the origin a record of project carries once promoted to the
// user layer: "<project>/<id>".
func Origin(projectName, id string) string { return projectName + "/" + id }

// PromoteOptions choose what a promotion to the user layer copies.
type PromoteOptions struct {
	// IDs are the project's records to copy: learnings and decisions, of
	// any branch.
	IDs []string
	// KeepPaths keeps what names the project's code: anchors, evidence
	// files, commit and branch, and the checkout's absolute path in the
	// text. Without it they are stripped.
	KeepPaths bool
	// DryRun reports what would land and changes nothing.
	DryRun bool
}

// Copied is one record a promotion or an adoption carried over.
type Copied struct {
	// ID is the record as it was read (the project's for a promotion, the
	// user layer's for an adoption).
	ID     string         `json:"id"`
	Kind   changelog.Kind `json:"kind"`
	Title  string         `json:"title"`
	Action string         `json:"action"`
	// Copy is the ID of the copy: the new record, or the one carried over
	// before; empty for a record a dry run would add.
	Copy string `json:"copy,omitempty"`
	// Origin is what the copy names as its origin.
	Origin string `json:"origin"`
}

// Promoted is what a promotion to the user layer did.
type Promoted struct {
	Project string   `json:"project"`
	Records []Copied `json:"records"`
	// Commit is the user layer's commit that holds the new copies; empty
	// when nothing landed.
	Commit string `json:"commit,omitempty"`
	// Stripped says paths that name the project were taken out.
	Stripped bool `json:"stripped"`
}

// Promote copies the chosen learnings and decisions of the project from
// reads (any branch) into the user layer, in one commit: each copy names
// its origin ("<project>/<id>"), is written by Writer and passes every
// check of a record again (a credential the project's writer allowed is
// refused here: the allowance was for that project). A record carried
// over before is reported present and lands no second time. A project
// that opted out (private: true) is refused. A dry run may pass a nil
// layer (it was never made): nothing is held yet.
func Promote(ctx context.Context, from *readmodel.Handle, to *Layer, opts PromoteOptions) (Promoted, error) {
	p := from.Project
	name := p.Config.Project
	res := Promoted{Project: name, Records: []Copied{}, Stripped: !opts.KeepPaths}
	if err := CheckPromotable(p); err != nil {
		return res, err
	}
	ids := dedupe(opts.IDs)
	if len(ids) == 0 {
		return res, planqerr.New(planqerr.Invalid, "promote --to user", "names no record").
			WithHint("name the records to copy: planq context promote --to user ID; 'planq search WORDS' finds their IDs")
	}
	src, err := from.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return res, err
	}
	pr := &promotion{project: name, opts: opts, strip: stripper(p)}
	if pr.check, pr.held, err = promoteTarget(from, to, opts.DryRun); err != nil {
		return res, err
	}
	var fresh []*changelog.Record
	for _, id := range ids {
		c, cp, err := pr.copyOf(src, id)
		if err != nil {
			return res, err
		}
		res.Records = append(res.Records, c)
		if cp != nil {
			fresh = append(fresh, cp)
		}
	}
	if opts.DryRun || len(fresh) == 0 {
		return res, nil
	}
	commit, err := to.CommitGlobal(ctx, agent.GlobalChange{Writer: Writer, Records: fresh,
		Message: fmt.Sprintf("promote: %d record(s) from project %s\n", len(fresh), name)})
	if err != nil {
		return res, fmt.Errorf("failed to promote to the user layer: %w", err)
	}
	res.Commit = commit.String()
	return res, nil
}

// promoteTarget is the store that checks the copies, and what the layer
// holds. A dry run before the layer was made checks the copies as the
// layer would, with nothing held.
func promoteTarget(from *readmodel.Handle, to *Layer, dryRun bool) (*agent.Store, holdings, error) {
	if to == nil && !dryRun {
		return nil, holdings{}, errors.New("failed to promote to the user layer: it is not open")
	}
	if to == nil {
		return &agent.Store{Handle: from}, holdings{ids: map[string]bool{}, byOrigin: map[string]string{}}, nil
	}
	held, err := to.origins()
	return to.Store, held, err
}

// promotion is one promote of project's records to the user layer.
type promotion struct {
	project string
	opts    PromoteOptions
	strip   pathStripper
	check   *agent.Store
	held    holdings
}

// copyOf is what promoting record id of src does: present already, or a
// copy added, checked as the layer checks a record.
func (pr *promotion) copyOf(src readmodel.Set, id string) (Copied, *changelog.Record, error) {
	rec, err := pick(src, id, "project "+quote(pr.project))
	if err != nil {
		return Copied{}, nil, err
	}
	origin := Origin(pr.project, rec.ID)
	c := Copied{ID: rec.ID, Kind: rec.Kind, Title: rec.Title(), Origin: origin, Action: ActionAdd}
	if mine, ok := strings.CutPrefix(rec.Origin, OriginPrefix); ok && pr.held.ids[mine] {
		// Adopted from the user layer: it is there already.
		c.Action, c.Copy, c.Origin = ActionPresent, mine, rec.Origin
		return c, nil, nil
	}
	if have, ok := pr.held.byOrigin[origin]; ok {
		c.Action, c.Copy = ActionPresent, have
		return c, nil, nil
	}
	cp := carried(rec)
	cp.Origin = origin
	if rec.Supersedes != "" {
		// A new version of a record promoted before replaces its copy.
		cp.Supersedes = pr.held.byOrigin[Origin(pr.project, rec.Supersedes)]
	}
	if !pr.opts.KeepPaths {
		pr.strip.strip(cp)
	}
	agent.Stamp(cp, Writer, cp.Timestamp)
	if _, err := pr.check.CheckForGlobal(cp); err != nil {
		return Copied{}, nil, refusedCopy(err, "record "+rec.ID+" of project "+quote(pr.project), "the user layer",
			"the user layer takes no credential: write a version of the record without it (planq edit "+rec.ID+"), then promote that")
	}
	if !pr.opts.DryRun {
		c.Copy = cp.ID
	}
	pr.held.byOrigin[origin] = cp.ID // named twice, lands once
	return c, cp, nil
}

// CheckPromotable refuses a project nothing may be promoted from to the
// user layer: one that opted out (private: true), or the layer itself.
func CheckPromotable(p *project.Project) error {
	if p.IsUserLayer() {
		return planqerr.New(planqerr.Invalid, "the user layer", "cannot be promoted to itself")
	}
	if p.Config.Private {
		return planqerr.New(planqerr.Refused, "project "+quote(p.Config.Project), "is private: nothing of it is promoted to the user layer").
			WithHint("to promote from it, remove 'private: true' from %s", project.ConfigPath)
	}
	return nil
}

// holdings is what the user layer holds already: its records' IDs, and the
// current copy of each origin.
type holdings struct {
	ids      map[string]bool
	byOrigin map[string]string
}

func (l *Layer) origins() (holdings, error) {
	h := holdings{ids: map[string]bool{}, byOrigin: map[string]string{}}
	set, err := l.Records.Branch(project.GlobalBranch, changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return h, err
	}
	for _, r := range set.Records {
		h.ids[r.ID] = true
	}
	for _, r := range set.Current() {
		if r.Origin != "" {
			h.byOrigin[r.Origin] = r.ID
		}
	}
	return h, nil
}

// pick finds learning or decision id among set, where names where it was
// looked for: the record itself when it is current, else its current
// version (promote lands a duplicate as a new version citing both, and
// the person asking names the one they wrote). A record retracted, or
// whose every later version was, is refused.
func pick(set readmodel.Set, id, where string) (*changelog.Record, error) {
	current := map[string]*changelog.Record{}
	for _, r := range set.Current() {
		current[r.ID] = r
	}
	next := map[string][]*changelog.Record{}
	known := false
	for _, r := range set.Records {
		known = known || r.ID == id
		if r.Supersedes != "" {
			next[r.Supersedes] = append(next[r.Supersedes], r)
		}
	}
	if !known {
		return nil, planqerr.New(planqerr.NotFound, id, "no learning or decision of %s has this ID", where).
			WithHint("'planq search WORDS' finds a record's ID")
	}
	seen := map[string]bool{}
	queue := []string{id}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if r, ok := current[at]; ok {
			return r, nil
		}
		if seen[at] {
			continue
		}
		seen[at] = true
		for _, r := range next[at] {
			if !r.Tombstone {
				queue = append(queue, r.ID)
			}
		}
	}
	refusal := planqerr.New(planqerr.Invalid, id, "was retracted in %s: only a current record is carried over", where)
	if strings.HasPrefix(where, "project ") {
		refusal = refusal.WithHint("'planq show %s --history' shows its versions", id)
	}
	return nil, refusal
}

// carried is a copy of rec as another layer takes it: its own ID, writer
// and status to come, none of the references that name records of where
// it was (what it supersedes, depends on or merged), and no allowance of a
// credential (the check runs again).
func carried(rec *changelog.Record) *changelog.Record {
	cp := *rec
	cp.ID, cp.Agent, cp.Path = "", "", ""
	cp.Supersedes, cp.DependsOn, cp.Sources = "", nil, nil
	cp.Status, cp.Tombstone, cp.Archived, cp.AllowSecret, cp.SupersedesRing = "", false, false, false, false
	cp.Alternatives = append([]string(nil), rec.Alternatives...)
	cp.Tags = append([]string(nil), rec.Tags...)
	cp.Anchors = append([]changelog.Anchor(nil), rec.Anchors...)
	if rec.Evidence != nil {
		ev := *rec.Evidence
		ev.Files = append([]string(nil), ev.Files...)
		cp.Evidence = &ev
	}
	if rec.Extra != nil {
		cp.Extra = make(map[string]any, len(rec.Extra))
		for k, v := range rec.Extra {
			if list, ok := v.([]string); ok {
				v = append([]string(nil), list...)
			}
			cp.Extra[k] = v
		}
	}
	return &cp
}

// pathStripper takes out of a record the paths that name a project: its
// anchors, its evidence's files, commit and branch (the issue it cites
// stays), and the project's checkouts (the main one, this one, the
// agents' workspaces) in its text, made relative. re matches those
// checkouts; nil for none.
type pathStripper struct {
	re *regexp.Regexp
}

// stripper is the pathStripper of p.
func stripper(p *project.Project) pathStripper {
	roots := append(realPaths(p.Root), realPaths(p.Workspace)...)
	var pats []string
	if p.Config.Project != "" {
		ws := p.WorkspacesDir()
		workspaces := []string{ws}
		if real, err := filepath.EvalSymlinks(ws); err == nil && real != ws {
			workspaces = append(workspaces, real)
		}
		for _, ws := range workspaces {
			// An agent's workspace: <workspaces>/<agent>.
			pats = append(pats, regexp.QuoteMeta(filepath.ToSlash(ws))+`/[^/\s"'`+"`"+`]+`)
		}
	}
	// Longest first: a workspace under the checkout goes before it.
	sort.Slice(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	for _, r := range roots {
		pats = append(pats, regexp.QuoteMeta(filepath.ToSlash(r)))
	}
	if len(pats) == 0 {
		return pathStripper{}
	}
	// A root is a path only where it ends: at a separator or where no
	// path character follows.
	return pathStripper{re: regexp.MustCompile(`(?:` + strings.Join(pats, "|") + `)(?:/|\b|$)`)}
}

// realPaths is dir, cleaned, and where it leads when a symbolic link is
// on the way; none for "" or the root.
func realPaths(dir string) []string {
	if dir == "" || dir == string(filepath.Separator) {
		return nil
	}
	out := []string{filepath.Clean(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != filepath.Clean(dir) {
		out = append(out, real)
	}
	return out
}

// text is s with the project's checkouts in it made relative.
func (ps pathStripper) text(s string) string {
	if ps.re == nil || s == "" {
		return s
	}
	return ps.re.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasSuffix(m, "/") {
			return ""
		}
		return "."
	})
}

// strip takes the project's paths out of r.
func (ps pathStripper) strip(r *changelog.Record) {
	r.Anchors = nil
	if r.Evidence != nil {
		r.Evidence.Files, r.Evidence.Commit, r.Evidence.Branch = nil, "", ""
		if r.Evidence.Issue == "" {
			r.Evidence = nil
		}
	}
	for _, f := range []*string{&r.Body, &r.Decision, &r.Rationale, &r.Resolution, &r.Subject} {
		*f = ps.text(*f)
	}
	for i := range r.Alternatives {
		r.Alternatives[i] = ps.text(r.Alternatives[i])
	}
	for k, v := range r.Extra {
		switch v := v.(type) {
		case string:
			r.Extra[k] = ps.text(v)
		case []string:
			for i := range v {
				v[i] = ps.text(v[i])
			}
		}
	}
}

// refusedCopy is the check's refusal of a copy, named after the record it
// copies (subject) rather than the copy's new ID.
// secretHint, when set, replaces the hint of a credential's refusal.
func refusedCopy(err error, subject, where, secretHint string) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) {
		return err
	}
	out := &planqerr.Error{Kind: pe.Kind, Subject: subject, Err: fmt.Errorf("cannot be copied to %s: %w", where, pe.Err), Hint: pe.Hint}
	if pe.Kind == planqerr.Refused && secretHint != "" {
		out.Hint = secretHint
	}
	return out
}

func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func quote(s string) string { return `"` + s + `"` }
