package mulch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// Fields planq has no place for travel as tags "mulch:<field>=<value>", so
// that an export gives back what an import took: outcomes (as JSON), links
// to records not imported, directory anchors, owner, status, a decision's
// date, evidence planq does not keep, and prune's bookkeeping. A custom
// type is kept as "mulch:type=<type>" (and "mulch:extends=<built-in>"),
// its own fields as "mulch:field.<field>=<value>" ("mulch:field.<field>[]"
// for each path of a list). A value of more than one line is kept as a
// JSON string.
const extraTag = "mulch:"

// noResolution is the resolution of a failure mulch recorded without one
// (its automated recorders write "resolution": ""): planq's failures say how
// they were resolved, and this one says none was. Export gives back "".
const noResolution = "(none: mulch recorded this failure without a resolution)"

// Converted is what ToPlanq made of one entry: its learning, and for a
// record of mulch's archive, the archive record (a tombstone marked
// archived, as planq's prune writes) that takes it out of the current view.
type Converted struct {
	Entry   Entry
	Record  *changelog.Record
	Archive *changelog.Record
	// Legacy is the origin an import before planq named the source project
	// gave the record ("mulch:mx-1a2b3c"), "" for none.
	Legacy string
	// Unlinked is the supersedes link that would have closed a ring of
	// versions, nil for none.
	Unlinked *Unlink
}

// Unlink is a supersedes link ToPlanq does not make, as it would close a
// ring of versions: it is kept as a tag "mulch:supersedes=<link>", as a
// link to itself is, so that an export gives it back.
type Unlink struct {
	// Link is the link as mulch wrote it, Supersedes the planq ID it names.
	Link, Supersedes string
	// Ring is the ring it would close: planq IDs from the least.
	Ring []string
}

// Origins are the origins of entries imported from project, in order:
// "mulch:<project>:<mulch id>", so that the same id from two projects
// makes two records. mulch draws an id from a record's type and name, so
// a name used twice repeats it: the second record of an id is
// "mulch:<project>:<id>#2", and so on, in the order Read reads them. A
// record without an id is named by its domain and a hash of its content.
func Origins(project string, entries []Entry) []string {
	out := make([]string, len(entries))
	seen := make(map[string]int, len(entries))
	for i, e := range entries {
		o := "mulch:" + project + ":" + e.Record.ID
		if e.Record.ID == "" {
			line, _ := json.Marshal(e.Record)
			sum := sha256.Sum256(line)
			o = "mulch:" + project + ":" + e.Domain + ":" + hex.EncodeToString(sum[:])[:12]
		}
		seen[o]++
		if n := seen[o]; n > 1 {
			o += "#" + strconv.Itoa(n)
		}
		out[i] = o
	}
	return out
}

// ToPlanq maps entries, read from the mulch directory of project, to
// planq learnings: one per record, in the order read, each with the ID
// and origin Origins gives it, mulch's time, type (a custom type's
// nearest: the built-in it extends), classification, tags and evidence,
// its files as anchors, and its supersedes and relates_to links when they
// name a record of the import (a link to itself is not one, nor one that
// would close a ring of versions: see unlinkRings). An entry
// planq cannot hold (a domain name it does not take, a record without
// text) is refused, naming its file and line. Entries leftOut says are
// neither converted nor linked to, and keep the others' origins as they
// are (leftOut may be nil).
func ToPlanq(cfg Config, project string, entries []Entry, leftOut func(Entry) bool) ([]Converted, []Refusal) {
	origins := Origins(project, entries)
	links := linkMap(entries, origins, leftOut)
	out := make([]Converted, 0, len(entries))
	var refused []Refusal
	first := map[string]bool{}
	for i, e := range entries {
		if leftOut != nil && leftOut(e) {
			continue
		}
		c, err := convertEntry(cfg, e, origins[i], links)
		if err != nil {
			refused = append(refused, Refusal{File: e.File, Line: e.Line, Reason: err.Error(), Kind: planqerr.Invalid})
			continue
		}
		if id := e.Record.ID; id != "" && !first[id] {
			first[id] = true
			c.Legacy = "mulch:" + id
		}
		out = append(out, c)
	}
	unlinkRings(cfg, out, links)
	return out, refused
}

// linkMap maps each mulch id of entries, and domain:id, to the planq ID
// of its first record.
func linkMap(entries []Entry, origins []string, leftOut func(Entry) bool) map[string]string {
	links := map[string]string{}
	for i, e := range entries {
		id := e.Record.ID
		if id == "" || (leftOut != nil && leftOut(e)) {
			continue
		}
		for _, k := range []string{id, e.Domain + ":" + id} {
			if _, ok := links[k]; !ok {
				links[k] = IDOf(origins[i])
			}
		}
	}
	return links
}

// convertEntry is e's learning, and for a record of mulch's archive, its
// archive record.
func convertEntry(cfg Config, e Entry, origin string, links map[string]string) (Converted, error) {
	r, err := toPlanq(cfg, e, origin, links, false)
	if err != nil {
		return Converted{}, err
	}
	c := Converted{Entry: e, Record: r}
	if e.Archived {
		if c.Archive, err = archiveOf(e, r); err != nil {
			return Converted{}, err
		}
	}
	return c, nil
}

// unlinkRings drops, of each ring of versions the links of out make (two
// mulch records that supersede each other, or more), the one link that
// names its newest version: readers, promote and every command that
// follows supersedes would otherwise meet a ring, and the newest is the
// version readers would show of it. The link is kept as a tag, as
// mulch wrote it, so an export gives it back.
func unlinkRings(cfg Config, out []Converted, links map[string]string) {
	recs := make([]*changelog.Record, len(out))
	byID := make(map[string]*changelog.Record, len(out))
	at := make(map[string]int, len(out))
	for k, c := range out {
		recs[k], byID[c.Record.ID], at[c.Record.ID] = c.Record, c.Record, k
	}
	for _, ring := range changelog.SupersedesRings(recs) {
		newest, cut := changelog.RingCut(ring, byID)
		k := at[cut.ID]
		r, err := toPlanq(cfg, out[k].Entry, out[k].Record.Origin, links, true)
		if err != nil {
			continue // toPlanq made it once; it makes it again, but for the link
		}
		u := &Unlink{Supersedes: newest.ID, Ring: ring}
		for _, raw := range out[k].Entry.Record.Supersedes {
			if resolve(raw, links) == newest.ID {
				u.Link = raw
				break
			}
		}
		out[k].Record, out[k].Unlinked = r, u
	}
}

// archiveOf is the archive record that takes r, read from mulch's
// archive, out of the current view: at the time mulch archived it, for the
// reason it gave. Its ID derives from r's, so an import again adds none.
func archiveOf(e Entry, r *changelog.Record) (*changelog.Record, error) {
	reason := e.Record.ArchiveReason
	if strings.TrimSpace(reason) == "" {
		reason = "archived in mulch"
	}
	m, err := changelog.NewTombstone(r, "")
	if err != nil {
		return nil, err
	}
	m.Archived, m.Body = true, "Archived "+r.ID+": "+oneLine(reason)
	m.ID, m.Timestamp = IDOf(r.Origin+" archived"), r.Timestamp
	if at, err := recordedAt(e.Record.ArchivedAt); err == nil && at.After(r.Timestamp) {
		m.Timestamp = at
	}
	stamped := *m
	stamped.Agent = "mulch"
	if err := changelog.Validate(&stamped); err != nil {
		return nil, fmt.Errorf("its archive record: %w", err)
	}
	return m, nil
}

// toPlanq is entry e's learning; unlinked, with no supersedes link: each
// link of e's is kept as a tag.
func toPlanq(cfg Config, e Entry, origin string, links map[string]string, unlinked bool) (*changelog.Record, error) {
	m := e.Record
	domain, err := Domain(e.Domain)
	if err != nil {
		return nil, err
	}
	at, err := recordedAt(m.RecordedAt)
	if err != nil {
		return nil, err
	}
	base, custom := baseType(cfg, m)
	r := &changelog.Record{Kind: changelog.KindLearning, Type: changelog.Type(base), Timestamp: at, Domain: domain,
		Classification: changelog.Classification(m.Classification), Origin: origin}
	r.ID = IDOf(r.Origin)
	setText(r, base, custom, m)
	if strings.TrimSpace(r.Body) == "" {
		return nil, fmt.Errorf("a %s without text: planq keeps none (its %s are empty)", m.Type, strings.Join(textFields(base, custom, m), " and "))
	}
	r.Tags = append(r.Tags, m.Tags...)
	if base != m.Type {
		keepCustomType(r, m)
	}
	linkTo(r, m, links, unlinked)
	if err := keepExtras(r, m); err != nil {
		return nil, err
	}
	files := keepEvidence(r, m.Evidence)
	for _, f := range m.Files {
		addExtra(r, "file", f)
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

// baseType is the built-in type planq gives m (a custom type's nearest:
// the built-in it extends), and m's custom type, zero for a built-in.
func baseType(cfg Config, m Record) (string, CustomType) {
	if _, builtin := builtins[m.Type]; builtin {
		return m.Type, CustomType{}
	}
	custom := cfg.CustomTypes[m.Type]
	if m.Extends != "" {
		custom.Extends = m.Extends
	}
	return custom.nearest(), custom
}

// setText fills r's body, subject and resolution from the fields of m its
// base type reads.
func setText(r *changelog.Record, base string, custom CustomType, m Record) {
	switch {
	case base != m.Type && m.Extends == "": // a custom type of its own: its summary, then its fields
		summary := custom.summary(m)
		r.Body = strings.TrimSpace(summary + "\n\n" + custom.fieldLines(m))
		if base != "convention" && base != "failure" {
			r.Subject = oneLine(summary)
		}
		if base == "failure" {
			r.Resolution = m.text("resolution")
		}
	case base == "convention":
		r.Body = m.Content
	case base == "failure":
		r.Body, r.Resolution = m.Description, m.Resolution
	case base == "decision":
		r.Body, r.Subject = m.Title+"\n\n"+m.Rationale, oneLine(m.Title)
	default: // pattern, reference, guide
		r.Body, r.Subject = m.Name+"\n\n"+m.Description, oneLine(m.Name)
	}
	if base == "failure" && strings.TrimSpace(r.Resolution) == "" {
		r.Resolution = noResolution // planq's failures say how they were resolved; this one says none was recorded
	}
}

// addExtra keeps value, unless empty, as the tag "mulch:<field>=<value>";
// a value of more than one line (or one that starts as JSON would) as a
// JSON string.
func addExtra(r *changelog.Record, field, value string) {
	if value == "" {
		return
	}
	if strings.ContainsAny(value, "\n\r") || strings.HasPrefix(value, `"`) {
		q, _ := json.Marshal(value)
		value = string(q)
	}
	r.Tags = append(r.Tags, extraTag+field+"="+value)
}

// keepCustomType keeps m's custom type, the built-in it extends, and its
// own fields as tags.
func keepCustomType(r *changelog.Record, m Record) {
	addExtra(r, "type", m.Type)
	addExtra(r, "extends", m.Extends)
	for _, f := range sortedFields(m) {
		switch v := m.Fields[f].(type) {
		case string:
			if v == "" {
				r.Tags = append(r.Tags, extraTag+"field."+f+"=")
			}
			addExtra(r, "field."+f, v)
		case []string:
			for _, p := range v {
				addExtra(r, "field."+f+"[]", p)
			}
		}
	}
}

// linkTo links r to the records of the import m's supersedes and
// relates_to name; a link it does not make is kept as a tag.
func linkTo(r *changelog.Record, m Record, links map[string]string, unlinked bool) {
	linked := false
	for i, raw := range m.Supersedes {
		id := resolve(raw, links)
		if !linked && !unlinked && id != "" && id != r.ID {
			r.Supersedes, linked = id, true
			if i == 0 && !strings.Contains(raw, ":") {
				continue // the first link, as mulch wrote it: export gives it back from supersedes
			}
		}
		addExtra(r, "supersedes", raw)
	}
	for _, raw := range m.RelatesTo {
		if id := resolve(raw, links); id != "" && id != r.ID && !strings.Contains(raw, ":") && !slices.Contains(r.DependsOn, id) {
			r.DependsOn = append(r.DependsOn, id)
		} else {
			addExtra(r, "relates_to", raw)
		}
	}
}

// keepExtras keeps, as tags, the fields of m planq has no place for.
func keepExtras(r *changelog.Record, m Record) error {
	for _, o := range m.Outcomes {
		data, err := json.Marshal(o)
		if err != nil {
			return fmt.Errorf("outcome: %w", err)
		}
		addExtra(r, "outcome", string(data))
	}
	for _, d := range m.DirAnchors {
		addExtra(r, "dir_anchor", d)
	}
	addExtra(r, "owner", m.Owner)
	addExtra(r, "status", m.Status)
	addExtra(r, "date", m.Date)
	addExtra(r, "archived_at", m.ArchivedAt)
	addExtra(r, "archive_reason", m.ArchiveReason)
	addExtra(r, "supersession_demoted_at", m.SupersessionDemotedAt)
	addExtra(r, "anchor_decay_demoted_at", m.AnchorDecayDemotedAt)
	return nil
}

// keepEvidence gives r the evidence of ev planq keeps, the rest as tags,
// and returns the file it names, if any, for r's anchors.
func keepEvidence(r *changelog.Record, ev *Evidence) []string {
	if ev == nil {
		return nil
	}
	var files []string
	if ev.Commit != "" || ev.Issue != "" || ev.File != "" {
		r.Evidence = &changelog.Evidence{Commit: ev.Commit, Issue: ev.Issue}
	}
	if ev.File != "" {
		r.Evidence.Files = []string{ev.File}
		files = append(files, ev.File)
	}
	addExtra(r, "evidence.date", ev.Date)
	addExtra(r, "evidence.bead", ev.Bead)
	addExtra(r, "evidence.seeds", ev.Seeds)
	addExtra(r, "evidence.gh", ev.GH)
	addExtra(r, "evidence.linear", ev.Linear)
	return files
}

// resolve is the planq ID of the record a mulch link names ("mx-1a2b3c",
// or "domain:mx-1a2b3c"), "" when none of the import is.
func resolve(link string, links map[string]string) string {
	mm := mulchLink().FindStringSubmatch(link)
	if mm == nil {
		return ""
	}
	if mm[1] != "" {
		return links[mm[1]+":"+mm[2]]
	}
	return links[mm[2]]
}

// textFields names the fields a record's text comes from.
func textFields(base string, custom CustomType, m Record) []string {
	if base != m.Type && m.Extends == "" {
		return custom.fields()
	}
	return builtins[base].required
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
	imported := strings.HasPrefix(r.Origin, "mulch:")
	setFields(&m, r, imported)
	for _, d := range r.DependsOn {
		m.RelatesTo = append(m.RelatesTo, idOf(d))
	}
	ev := evidenceFrom(r)
	custom := readExtras(&m, &ev, r.Tags)
	if r.Supersedes != "" {
		listSupersedes(&m, idOf(r.Supersedes))
	}
	if custom != "" {
		m.Type = custom
		if m.Extends == "" { // its text was made of its fields, which the tags hold
			m.Content, m.Name, m.Description, m.Resolution, m.Title, m.Rationale = "", "", "", "", "", ""
		}
	}
	if !imported && (r.Type == changelog.TypePattern || r.Type == changelog.TypeReference) {
		for _, a := range r.Anchors { // a native learning's anchors are its files
			m.Files = append(m.Files, a.Path)
		}
	}
	if ev != (Evidence{}) {
		m.Evidence = &ev
	}
	return m
}

// setFields fills the text fields of m r's type has from r's body,
// subject and resolution.
func setFields(m *Record, r *changelog.Record, imported bool) {
	title, rest, _ := strings.Cut(r.Body, "\n\n")
	switch {
	case !imported:
		rest = orSame(rest, title)
	case r.Subject == "": // a record mulch wrote without a name or title
		title, rest = "", strings.TrimLeft(r.Body, "\n")
	}
	switch r.Type {
	case changelog.TypeConvention:
		m.Content = r.Body
	case changelog.TypeFailure:
		m.Description, m.Resolution = r.Body, r.Resolution
		if imported && r.Resolution == noResolution {
			m.Resolution = ""
		}
	case changelog.TypeDecision:
		m.Title, m.Rationale = title, rest
	case changelog.TypePattern, changelog.TypeReference, changelog.TypeGuide:
		m.Name, m.Description = title, rest
	case changelog.TypeStart, changelog.TypePlan, changelog.TypeImplement, changelog.TypeHandoff, changelog.TypeEnd,
		changelog.TypeOperational, changelog.TypeCodebase, changelog.TypeArticle:
		m.Content = r.Body // other kinds' types: no learning has one
	}
}

// evidenceFrom is the mulch evidence of r's that planq keeps.
func evidenceFrom(r *changelog.Record) Evidence {
	ev := Evidence{}
	if r.Evidence != nil {
		ev.Commit, ev.Issue = r.Evidence.Commit, r.Evidence.Issue
		if len(r.Evidence.Files) > 0 {
			ev.File = r.Evidence.Files[0]
		}
	}
	return ev
}

// readExtras gives back to m and ev what the tags "mulch:<field>=<value>"
// keep, the other tags as tags, and returns the custom type they name, ""
// for none.
func readExtras(m *Record, ev *Evidence, tags []string) string {
	custom := ""
	scalars := map[string]*string{"type": &custom, "extends": &m.Extends, "owner": &m.Owner, "status": &m.Status,
		"date": &m.Date, "archived_at": &m.ArchivedAt, "archive_reason": &m.ArchiveReason,
		"supersession_demoted_at": &m.SupersessionDemotedAt, "anchor_decay_demoted_at": &m.AnchorDecayDemotedAt,
		"evidence.date": &ev.Date, "evidence.bead": &ev.Bead, "evidence.seeds": &ev.Seeds, "evidence.gh": &ev.GH,
		"evidence.linear": &ev.Linear}
	lists := map[string]*[]string{"supersedes": &m.Supersedes, "relates_to": &m.RelatesTo,
		"dir_anchor": &m.DirAnchors, "file": &m.Files}
	for _, t := range tags {
		field, value, ok := cutExtra(t)
		switch name, isField := strings.CutPrefix(field, "field."); {
		case !ok:
			m.Tags = append(m.Tags, t)
		case isField:
			m.setField(name, value)
		case scalars[field] != nil:
			*scalars[field] = value
		case lists[field] != nil:
			*lists[field] = append(*lists[field], value)
		case field == "outcome":
			var o Outcome
			if json.Unmarshal([]byte(value), &o) == nil {
				m.Outcomes = append(m.Outcomes, o)
			}
		default:
			m.Tags = append(m.Tags, t)
		}
	}
	return custom
}

// cutExtra is the field and value a tag "mulch:<field>=<value>" keeps,
// its value unquoted; false for another tag.
func cutExtra(tag string) (field, value string, ok bool) {
	rest, isExtra := strings.CutPrefix(tag, extraTag)
	if !isExtra {
		return "", "", false
	}
	if field, value, ok = strings.Cut(rest, "="); !ok {
		return "", "", false
	}
	if strings.HasPrefix(value, `"`) {
		var s string
		if json.Unmarshal([]byte(value), &s) == nil {
			value = s
		}
	}
	return field, value, true
}

// setField sets a custom type's field from its tag: a name ending "[]"
// adds a path to a list.
func (m *Record) setField(name, value string) {
	if m.Fields == nil {
		m.Fields = map[string]any{}
	}
	if list, isList := strings.CutSuffix(name, "[]"); isList {
		paths, _ := m.Fields[list].([]string)
		m.Fields[list] = append(paths, value)
		return
	}
	m.Fields[name] = value
}

// listSupersedes puts id first in m's supersedes, unless a link there
// names it already.
func listSupersedes(m *Record, id string) {
	for _, s := range m.Supersedes {
		if mm := mulchLink().FindStringSubmatch(s); mm != nil && mm[2] == id {
			return
		}
	}
	m.Supersedes = append([]string{id}, m.Supersedes...)
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
	if rest, ok := strings.CutPrefix(r.Origin, "mulch:"); ok {
		id := rest[strings.LastIndexByte(rest, ':')+1:]
		if i := strings.IndexByte(id, '#'); i >= 0 {
			id = id[:i]
		}
		if mulchID().MatchString(id) {
			return id
		}
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
