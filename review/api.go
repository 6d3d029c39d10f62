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
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
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
	Error     string                 `json:"error"`
	Hint      string                 `json:"hint,omitempty"`
	Proposals []session.ProposalView `json:"proposals,omitempty"`
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
	if errors.Is(err, session.ErrProposalStale) {
		e.Hint = "use this proposal's Dismiss button, then propose again from the file as it is (planq curate)"
	}
	return e
}

// fail answers err with the status its kind calls for.
func fail(w http.ResponseWriter, err error) {
	failWith(w, err, nil)
}

// failWith is fail, answering proposals with the error.
func failWith(w http.ResponseWriter, err error, proposals []session.ProposalView) {
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

// applyAnswer is what an apply answers: what it did, and the proposals it
// changed (itself, and the siblings it made stale) in their state now.
type applyAnswer struct {
	session.ProposalApplied
	Pending   int                    `json:"pending"`
	Proposals []session.ProposalView `json:"proposals"`
}

// dismissAnswer is what a dismiss answers.
type dismissAnswer struct {
	Proposal  string                 `json:"proposal"`
	Version   string                 `json:"version"`
	State     string                 `json:"state"`
	Pending   int                    `json:"pending"`
	Proposals []session.ProposalView `json:"proposals"`
}

func (s *Server) listProposals(w http.ResponseWriter, r *http.Request) {
	views, err := s.svc.Proposals(r.Context(), false)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"pending": session.PendingProposals(views), "proposals": views})
}

func (s *Server) showProposal(w http.ResponseWriter, r *http.Request) {
	v, err := s.svc.Proposal(r.Context(), r.PathValue("id"))
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
	done, err := s.svc.ApplyProposal(r.Context(), session.ApplyInput{ID: id, Edited: req.Files, AllowRemovals: req.AllowRemovals, By: s.who})
	views, pending := s.svc.TouchedProposals(r.Context(), id)
	if err != nil {
		failWith(w, err, views)
		return
	}
	writeJSON(w, http.StatusOK, applyAnswer{ProposalApplied: done, Pending: pending, Proposals: orEmpty(views)})
}

func (s *Server) dismissProposal(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	version, err := s.svc.DismissProposal(r.Context(), id, s.who)
	views, pending := s.svc.TouchedProposals(r.Context(), id)
	if err != nil {
		failWith(w, err, views)
		return
	}
	writeJSON(w, http.StatusOK, dismissAnswer{Proposal: id, Version: version, State: session.ProposalDismissed, Pending: pending, Proposals: orEmpty(views)})
}

func orEmpty(views []session.ProposalView) []session.ProposalView {
	if views == nil {
		return []session.ProposalView{}
	}
	return views
}

// noteFilter reads a notes filter from a query: state, agent, type and
// workspace (each may repeat or hold a comma list), since and until
// (dates or RFC 3339 times), limit.
func noteFilter(q map[string][]string, defaultLimit int) (session.NoteFilter, error) {
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
	f := session.NoteFilter{States: list("state"), Agents: list("agent"), Types: list("type"), Workspaces: list("workspace"), Limit: defaultLimit}
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
	list, err := s.svc.Notes(r.Context(), f)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) promotion(w http.ResponseWriter, r *http.Request) {
	p, err := s.svc.Promotion(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) promote(w http.ResponseWriter, r *http.Request) {
	res, err := s.svc.Promote(r.Context(), session.PromoteInput{Agent: r.PathValue("agent")})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	st, err := s.svc.Status(r.Context(), false)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"domains": st.Domains})
}
