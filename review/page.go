package review

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
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
		"short":     func(s string) string { return changelog.Shorten(s, 140) },
		"title":     (*changelog.Record).Headline,
		"chart":     convergenceChart,
		"join":      strings.Join,
		"who":       session.Who,
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
	Pending []session.ProposalView
	Decided []session.ProposalView
	// NoteTexts are the notes' texts by ID (every version's), for the
	// notes a proposal cites.
	NoteTexts map[string]string
	// NoteFirsts map every version of a note to its first's ID, the ID
	// proposals cite it by.
	NoteFirsts map[string]string
	Notes      session.NoteList
	Filter     session.NoteFilter
	Query      map[string]string
	Agents     []string
	States     []changelog.Status
	Types      []changelog.Type
	Promotion  session.Promotion
	Domains    []session.DomainStatus
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
	d := pageData{Project: s.name, API: s.projectPath(), Query: map[string]string{},
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
	views, err := s.svc.Proposals(ctx, true)
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
	if d.NoteTexts, d.NoteFirsts, err = s.svc.NoteIndex(ctx); err != nil {
		fail(err)
		return
	}
	filter, err := noteFilter(q, 200)
	if err != nil {
		d.Error = err.Error()
		filter = session.NoteFilter{Limit: 200}
	}
	d.Filter = filter
	if d.Notes, err = s.svc.Notes(ctx, filter); err != nil {
		fail(err)
		return
	}
	if d.Agents, err = s.svc.AgentNames(ctx); err != nil {
		fail(err)
		return
	}
	if d.Promotion, err = s.svc.Promotion(ctx); err != nil {
		fail(err)
		return
	}
	st, err := s.svc.Status(ctx, false)
	if err != nil {
		fail(err)
		return
	}
	d.Domains = st.Domains
	if d.Knowledge, err = s.knowledgeOf(ctx, q.Get("article")); err != nil {
		fail(err)
		return
	}
	if d.Projects, err = s.sharing(); err != nil {
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

// sharing lists the state repositories on this machine, with which of
// them opted out of search across projects and the user layer.
func (s *Server) sharing() ([]session.ProjectInfo, error) {
	home, err := s.svc.Home()
	if err != nil {
		return nil, err
	}
	return session.Sharing(home, s.name)
}
