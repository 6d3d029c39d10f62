package mulch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// Fields planq has no place for travel as tags "mulch:<field>=<value>", so
// that an export gives back what an import took: outcomes (as JSON), links
// to records not imported, directory anchors, owner, status, a decision's
// date, evidence planq does not keep, and prune's bookkeeping.
const extraTag = "mulch:"

// ToPlanq maps entries to planq learnings: one per record, in the order
// read, each with the ID and origin its mulch record gives it (see
// Entry.Origin), mulch's time, type, classification, tags and evidence, its
// files as anchors, and its supersedes and relates_to links when they name
// a record of the import.
func ToPlanq(entries []Entry) ([]*changelog.Record, error) {
	imported := map[string]bool{}
	for _, e := range entries {
		if e.Record.ID != "" {
			imported[e.Record.ID] = true
		}
	}
	out := make([]*changelog.Record, 0, len(entries))
	for _, e := range entries {
		r, err := toPlanq(e, imported)
		if err != nil {
			return nil, planqerr.New(planqerr.Invalid, fmt.Sprintf("%s:%d", e.File, e.Line), "%v", err)
		}
		out = append(out, r)
	}
	return out, nil
}

func toPlanq(e Entry, imported map[string]bool) (*changelog.Record, error) {
	m := e.Record
	domain, err := Domain(e.Domain)
	if err != nil {
		return nil, err
	}
	at, err := recordedAt(m.RecordedAt)
	if err != nil {
		return nil, err
	}
	r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.Type(m.Type), Timestamp: at, Domain: domain,
		Classification: changelog.Classification(m.Classification), Origin: e.Origin()}
	r.ID = IDOf(r.Origin)
	switch m.Type {
	case "convention":
		r.Body = m.Content
	case "failure":
		r.Body, r.Resolution = m.Description, m.Resolution
	case "decision":
		r.Body, r.Subject = m.Title+"\n\n"+m.Rationale, oneLine(m.Title)
	default: // pattern, reference, guide
		r.Body, r.Subject = m.Name+"\n\n"+m.Description, oneLine(m.Name)
	}
	r.Tags = append(r.Tags, m.Tags...)
	extra := func(field, value string) {
		if value != "" {
			r.Tags = append(r.Tags, extraTag+field+"="+value)
		}
	}
	for i, id := range m.Supersedes {
		if i == 0 && imported[id] {
			r.Supersedes = IDOf("mulch:" + id)
			continue
		}
		extra("supersedes", id)
	}
	for _, id := range m.RelatesTo {
		if imported[id] {
			r.DependsOn = append(r.DependsOn, IDOf("mulch:"+id))
		} else {
			extra("relates_to", id)
		}
	}
	for _, o := range m.Outcomes {
		data, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("outcome: %w", err)
		}
		extra("outcome", string(data))
	}
	for _, d := range m.DirAnchors {
		extra("dir_anchor", d)
	}
	extra("owner", m.Owner)
	extra("status", m.Status)
	extra("date", m.Date)
	extra("archived_at", m.ArchivedAt)
	extra("archive_reason", m.ArchiveReason)
	extra("supersession_demoted_at", m.SupersessionDemotedAt)
	extra("anchor_decay_demoted_at", m.AnchorDecayDemotedAt)
	var files []string
	if ev := m.Evidence; ev != nil {
		r.Evidence = &changelog.Evidence{Commit: ev.Commit, Issue: ev.Issue}
		if ev.File != "" {
			r.Evidence.Files = []string{ev.File}
			files = append(files, ev.File)
		}
		extra("evidence.date", ev.Date)
		extra("evidence.bead", ev.Bead)
		extra("evidence.seeds", ev.Seeds)
		extra("evidence.gh", ev.GH)
		extra("evidence.linear", ev.Linear)
	}
	for _, f := range m.Files {
		extra("file", f)
	}
	if r.Anchors, err = changelog.AnchorsOf(append(files, m.Files...), nil); err != nil {
		r.Anchors = nil // a path planq cannot anchor stays a tag (mulch:file): no learning is refused for it
	}
	stamped := *r
	stamped.Agent = "mulch" // the importing agent's name is stamped at the write
	if err := changelog.Validate(&stamped); err != nil {
		return nil, err
	}
	return r, nil
}

// Domain is the planq domain of a mulch domain: the same name, lowercased,
// with characters planq's names do not take made '-'.
func Domain(name string) (string, error) {
	d := strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			return c
		case c >= 'A' && c <= 'Z':
			return c - 'A' + 'a'
		}
		return '-'
	}, name)
	if !project.ValidName(d) {
		return "", fmt.Errorf("domain %q makes no planq domain name (%s)", name, project.NameProblem(d))
	}
	return d, nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// FromPlanq maps a planq learning back to a mulch record: what ToPlanq made
// of a mulch record gives that record back; a learning planq made gets an
// id drawn from its own. idOf maps the planq IDs it links to (supersedes,
// depends_on) to mulch ids.
func FromPlanq(r *changelog.Record, idOf func(string) string) Record {
	m := Record{ID: ID(r), Type: string(r.Type), Classification: string(r.Classification),
		RecordedAt: r.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z")}
	title, rest, _ := strings.Cut(r.Body, "\n\n")
	switch r.Type {
	case changelog.TypeConvention:
		m.Content = r.Body
	case changelog.TypeFailure:
		m.Description, m.Resolution = r.Body, r.Resolution
	case changelog.TypeDecision:
		m.Title, m.Rationale = title, orSame(rest, title)
	case changelog.TypePattern, changelog.TypeReference, changelog.TypeGuide:
		m.Name, m.Description = title, orSame(rest, title)
	case changelog.TypeStart, changelog.TypePlan, changelog.TypeImplement, changelog.TypeHandoff, changelog.TypeEnd,
		changelog.TypeOperational, changelog.TypeCodebase:
		m.Content = r.Body // other kinds' types: no learning has one
	}
	if r.Supersedes != "" {
		m.Supersedes = []string{idOf(r.Supersedes)}
	}
	for _, d := range r.DependsOn {
		m.RelatesTo = append(m.RelatesTo, idOf(d))
	}
	ev := Evidence{}
	if r.Evidence != nil {
		ev.Commit, ev.Issue = r.Evidence.Commit, r.Evidence.Issue
		if len(r.Evidence.Files) > 0 {
			ev.File = r.Evidence.Files[0]
		}
	}
	fromTag := map[string]*string{"owner": &m.Owner, "status": &m.Status, "date": &m.Date, "archived_at": &m.ArchivedAt,
		"archive_reason": &m.ArchiveReason, "supersession_demoted_at": &m.SupersessionDemotedAt,
		"anchor_decay_demoted_at": &m.AnchorDecayDemotedAt, "evidence.date": &ev.Date, "evidence.bead": &ev.Bead,
		"evidence.seeds": &ev.Seeds, "evidence.gh": &ev.GH, "evidence.linear": &ev.Linear}
	for _, t := range r.Tags {
		field, value, isExtra := strings.Cut(strings.TrimPrefix(t, extraTag), "=")
		if !strings.HasPrefix(t, extraTag) || !isExtra {
			m.Tags = append(m.Tags, t)
			continue
		}
		switch field {
		case "supersedes":
			m.Supersedes = append(m.Supersedes, value)
		case "relates_to":
			m.RelatesTo = append(m.RelatesTo, value)
		case "dir_anchor":
			m.DirAnchors = append(m.DirAnchors, value)
		case "file":
			m.Files = append(m.Files, value)
		case "outcome":
			var o Outcome
			if json.Unmarshal([]byte(value), &o) == nil {
				m.Outcomes = append(m.Outcomes, o)
			}
		default:
			if p, ok := fromTag[field]; ok {
				*p = value
			} else {
				m.Tags = append(m.Tags, t)
			}
		}
	}
	if !strings.HasPrefix(r.Origin, "mulch:") {
		for _, a := range r.Anchors { // a native learning's anchors are its files
			if r.Type == changelog.TypePattern || r.Type == changelog.TypeReference {
				m.Files = append(m.Files, a.Path)
			}
		}
	}
	if ev != (Evidence{}) {
		m.Evidence = &ev
	}
	return m
}

func orSame(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}

// ID is the mulch id of a planq learning: the one it was imported
// with, else one drawn from its planq ID.
func ID(r *changelog.Record) string {
	if id, ok := strings.CutPrefix(r.Origin, "mulch:"); ok && mulchID().MatchString(id) {
		return id
	}
	sum := sha256.Sum256([]byte(r.ID))
	return "mx-" + hex.EncodeToString(sum[:])[:6]
}

// IDMap maps the planq IDs of recs to the mulch ids FromPlanq gives them.
func IDMap(recs []*changelog.Record) func(string) string {
	ids := make(map[string]string, len(recs))
	for _, r := range recs {
		ids[r.ID] = ID(r)
	}
	return func(id string) string {
		if m, ok := ids[id]; ok {
			return m
		}
		sum := sha256.Sum256([]byte(id))
		return "mx-" + hex.EncodeToString(sum[:])[:6]
	}
}
