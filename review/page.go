package review

import (
	"embed"
	"github.com/planq-dev/planq/internal/plural"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/session"
)

//go:embed assets
var assetFiles embed.FS

// assets are served under /assets/.
var assets fs.FS = assetFiles

// pageTemplate is parsed on first use: every planq process links this
// package, few serve the page.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Funcs(template.FuncMap{
		"date":      func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
		"diffLines": diffLines,
		"short":     func(s string) string { return readmodel.Shorten(s, 140) },
		"title":     func(r *changelog.Record) string { return readmodel.Title(r) },
		"chart":     convergenceChart,
		"join":      strings.Join,
		"who":       curation.Who,
		"plural":    plural.Of,
	}).ParseFS(assetFiles, "assets/page.html"))
})

// diffLine is one line of a unified diff with the class it is drawn in.
type diffLine struct {
	Class, Text string
}

func diffLines(diff string) []diffLine {
	var out []diffLine
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		class := "ctx"
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			class = "file"
		case strings.HasPrefix(line, "@@"):
			class = "hunk"
		case strings.HasPrefix(line, "+"):
			class = "add"
		case strings.HasPrefix(line, "-"):
			class = "del"
		}
		out = append(out, diffLine{Class: class, Text: line})
	}
	return out
}

// pageData is what the page shows.
type pageData struct {
	Project string
	API     string
	Pending []curation.View
	Decided []curation.View
	// NoteTexts are the notes' texts by ID (every version's), for the
	// notes a proposal cites.
	NoteTexts map[string]string
	// NoteFirsts map every version of a note to its first's ID, the ID
	// proposals cite it by.
	NoteFirsts map[string]string
	Notes      curation.NoteList
	Filter     curation.NoteFilter
	Query      map[string]string
	Agents     []string
	States     []changelog.Status
	Types      []changelog.Type
	Promotion  Promotion
	Domains    []readmodel.DomainStatus
	Knowledge  Knowledge
	// Projects are the state repositories on this machine, with which of
	// them opted out of search across projects and the user layer.
	Projects []session.ProjectInfo
	Error    string
}

// page renders the whole review page at once: the proposals with their
// diffs, the notes log as filtered by the query, what awaits promotion,
// and the charts.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d := pageData{Project: s.read.Project.Config.Project, API: s.projectPath(), Query: map[string]string{},
		States: changelog.KindNote.Spec().Statuses, Types: changelog.KindNote.Spec().Types}
	q := r.URL.Query()
	for _, key := range []string{"agent", "workspace", "type", "state", "since", "until"} {
		d.Query[key] = q.Get(key)
	}
	fail := func(err error) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("planq: " + err.Error() + "\n"))
	}
	views, err := curation.ListWithDiffs(ctx, s.read, s.codeRoot)
	if err != nil {
		fail(err)
		return
	}
	for _, v := range views {
		if v.Undecided() {
			d.Pending = append(d.Pending, v)
		} else {
			d.Decided = append(d.Decided, v)
		}
	}
	if d.NoteTexts, d.NoteFirsts, err = s.noteIndex(); err != nil {
		fail(err)
		return
	}
	filter, err := noteFilter(q, 200)
	if err != nil {
		d.Error = err.Error()
		filter = curation.NoteFilter{Limit: 200}
	}
	d.Filter = filter
	if d.Notes, err = curation.Notes(s.read, filter); err != nil {
		fail(err)
		return
	}
	if d.Agents, err = s.read.AgentNames(); err != nil {
		fail(err)
		return
	}
	if d.Promotion, err = s.promotionOf(r); err != nil {
		fail(err)
		return
	}
	if d.Domains, err = s.statusOf(r); err != nil {
		fail(err)
		return
	}
	if d.Knowledge, err = s.knowledgeOf(ctx, q.Get("article")); err != nil {
		fail(err)
		return
	}
	if d.Projects, err = session.Sharing(s.read.Project.Home, s.read.Project.Config.Project); err != nil {
		fail(err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := pageTemplate().Execute(w, d); err != nil {
		// Headers are gone: the page is cut short, and the browser shows it.
		return
	}
}

// noteIndex maps every version of every note to its text, and to the ID
// the note was first written under: the ID a proposal cites, whichever
// state the note is in now.
func (s *Server) noteIndex() (texts, firsts map[string]string, err error) {
	set, err := s.read.Records.All(changelog.KindNote)
	if err != nil {
		return nil, nil, err
	}
	texts, firsts = make(map[string]string, len(set.Records)), make(map[string]string, len(set.Records))
	supersedes := make(map[string]string, len(set.Records))
	for _, r := range set.Records {
		texts[r.ID] = r.Body
		supersedes[r.ID] = r.Supersedes
	}
	for id := range supersedes {
		first := id
		for seen := 0; supersedes[first] != "" && seen < len(supersedes); seen++ {
			if _, ok := supersedes[supersedes[first]]; !ok {
				break // an older version no branch holds
			}
			first = supersedes[first]
		}
		firsts[id] = first
	}
	return texts, firsts, nil
}
