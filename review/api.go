package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/curation"
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/session"
	"github.com/planq-dev/planq/team"
)

// maxBody bounds what a POST may carry: an edited proposal.
const maxBody = 8 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client went away: nothing to tell
}

// apiError is how the API reports a refusal. A refused apply or dismiss
// also answers the proposals it names, in their state now (one found
// stale, say), so that the page shows what the refusal found.
type apiError struct {
	Error     string          `json:"error"`
	Hint      string          `json:"hint,omitempty"`
	Proposals []curation.View `json:"proposals,omitempty"`
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, errorOf(err))
}

func errorOf(err error) apiError {
	e := apiError{Error: err.Error()}
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		e.Hint = pe.Hint
	}
	// The command line's hint names a command; the page has a button.
	if errors.Is(err, curation.ErrStale) {
		e.Hint = "use this proposal's Dismiss button, then propose again from the file as it is (planq curate)"
	}
	return e
}

// fail answers err with the status its kind calls for.
func fail(w http.ResponseWriter, err error) {
	failWith(w, err, nil)
}

// failWith is fail, answering proposals with the error.
func failWith(w http.ResponseWriter, err error, proposals []curation.View) {
	e := errorOf(err)
	e.Proposals = proposals
	status := http.StatusInternalServerError
	switch planqerr.KindOf(err) {
	case planqerr.Failure, planqerr.NotInitialized, planqerr.Corrupt:
	case planqerr.Invalid:
		status = http.StatusBadRequest
	case planqerr.NotFound:
		status = http.StatusNotFound
	case planqerr.Exists, planqerr.Refused:
		status = http.StatusConflict
	case planqerr.Busy:
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, e)
}

// touched are the proposals an apply or dismiss of id changed, or found
// changed, in their state now, and how many wait for a person; none when
// id names no proposal.
func (s *Server) touched(r *http.Request, id string) ([]curation.View, int) {
	views, pending, err := curation.Touched(r.Context(), s.read, s.codeRoot, id)
	if err != nil {
		return nil, 0
	}
	return views, pending
}

// applyAnswer is what an apply answers: what it did, and the proposals it
// changed (itself, and the siblings it made stale) in their state now.
type applyAnswer struct {
	curation.Applied
	Pending   int             `json:"pending"`
	Proposals []curation.View `json:"proposals"`
}

// dismissAnswer is what a dismiss answers.
type dismissAnswer struct {
	Proposal  string          `json:"proposal"`
	Version   string          `json:"version"`
	State     string          `json:"state"`
	Pending   int             `json:"pending"`
	Proposals []curation.View `json:"proposals"`
}

func (s *Server) listProposals(w http.ResponseWriter, r *http.Request) {
	views, err := curation.List(r.Context(), s.read, s.codeRoot)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"pending": curation.Pending(views), "proposals": views})
}

func (s *Server) showProposal(w http.ResponseWriter, r *http.Request) {
	v, err := curation.Show(r.Context(), s.read, s.codeRoot, r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// applyRequest is the optional body of an apply: the files as a person
// edited them, and whether the edit may remove lines (the page's Allow
// removals box).
type applyRequest struct {
	Files         map[string]string `json:"files"`
	AllowRemovals bool              `json:"allow_removals"`
}

func (s *Server) applyProposal(w http.ResponseWriter, r *http.Request) {
	var req applyRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("failed to read the request: %w", err))
		return
	}
	if len(body) > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, errors.New("the edited files are over 8 MiB"))
		return
	}
	if strings.TrimSpace(string(body)) != "" {
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Errorf(`the body is not {"files": {"<path>": "<content>"}, "allow_removals": false}: %w`, err))
			return
		}
	}
	id := r.PathValue("id")
	done, err := curation.Apply(r.Context(), s.store, s.codeRoot, s.who, id,
		curation.ApplyOptions{Edited: req.Files, AllowRemovals: req.AllowRemovals})
	views, pending := s.touched(r, id)
	if err != nil {
		failWith(w, err, views)
		return
	}
	writeJSON(w, http.StatusOK, applyAnswer{Applied: done, Pending: pending, Proposals: orEmpty(views)})
}

func (s *Server) dismissProposal(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	version, err := curation.Dismiss(r.Context(), s.store, s.who, id)
	views, pending := s.touched(r, id)
	if err != nil {
		failWith(w, err, views)
		return
	}
	writeJSON(w, http.StatusOK, dismissAnswer{Proposal: id, Version: version, State: curation.StateDismissed, Pending: pending, Proposals: orEmpty(views)})
}

func orEmpty(views []curation.View) []curation.View {
	if views == nil {
		return []curation.View{}
	}
	return views
}

// noteFilter reads a notes filter from a query: state, agent, type and
// workspace (each may repeat or hold a comma list), since and until
// (dates or RFC 3339 times), limit.
func noteFilter(q map[string][]string, defaultLimit int) (curation.NoteFilter, error) {
	list := func(key string) []string {
		var out []string
		for _, v := range q[key] {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
		return out
	}
	f := curation.NoteFilter{States: list("state"), Agents: list("agent"), Types: list("type"), Workspaces: list("workspace"), Limit: defaultLimit}
	for _, st := range f.States {
		if !slices.Contains(changelog.KindNote.Spec().Statuses, changelog.Status(st)) {
			return f, planqerr.New(planqerr.Invalid, "state", "%q is not a note's state (%s)", st, changelog.Join(changelog.KindNote.Spec().Statuses, ", "))
		}
	}
	for _, bound := range []struct {
		key string
		to  *time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		v := strings.TrimSpace(first(q[bound.key]))
		if v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, v); err != nil {
				return f, planqerr.New(planqerr.Invalid, bound.key, "%q is not a date (2026-11-25) or a time (RFC 3339)", v)
			}
		} else if bound.key == "until" {
			t = t.AddDate(0, 0, 1) // through the whole day
		}
		*bound.to = t
	}
	if v := first(q["limit"]); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return f, planqerr.New(planqerr.Invalid, "limit", "%q is not a count", v)
		}
		f.Limit = n
	}
	return f, nil
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

func (s *Server) entries(w http.ResponseWriter, r *http.Request) {
	f, err := noteFilter(r.URL.Query(), 100)
	if err != nil {
		fail(w, err)
		return
	}
	list, err := curation.Notes(s.read, f)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// Promotion is what awaits promotion, per agent, and what is disputed:
// records, and the knowledge base's articles.
type Promotion struct {
	Agents           []team.Awaiting     `json:"agents"`
	Disputed         []*changelog.Record `json:"disputed"`
	DisputedArticles []knowledge.Dispute `json:"disputed_articles"`
}

func (s *Server) promotionOf(r *http.Request) (Promotion, error) {
	p := Promotion{Disputed: []*changelog.Record{}}
	var err error
	if p.Agents, err = team.AwaitingPromotion(r.Context(), s.read); err != nil {
		return p, err
	}
	set, err := s.read.Records.All(changelog.KindLearning, changelog.KindDecision)
	if err != nil {
		return p, err
	}
	for _, rec := range set.Current() {
		if rec.Status == changelog.StatusDisputed {
			p.Disputed = append(p.Disputed, rec)
		}
	}
	p.DisputedArticles, err = disputedArticles(s.read.Repo)
	return p, err
}

func (s *Server) promotion(w http.ResponseWriter, r *http.Request) {
	p, err := s.promotionOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) promote(w http.ResponseWriter, r *http.Request) {
	a, err := s.store.Agent(r.PathValue("agent"))
	if err != nil {
		fail(w, err)
		return
	}
	res, err := session.Promote(r.Context(), s.store, a, team.PromoteOptions{})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) statusOf(r *http.Request) ([]readmodel.DomainStatus, error) {
	domains, _, err := s.read.Records.Status(r.Context(), s.Now(), readmodel.ShelfLivesOf(s.read.Project.Config.ShelfLife), "")
	return domains, err
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	domains, err := s.statusOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"domains": domains})
}
