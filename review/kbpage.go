package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// Knowledge is the page's Knowledge section: the index by topic, the
// article asked for (?article=SLUG) rendered, and the disputed articles
// with both sides.
type Knowledge struct {
	Topics   []topicEntries            `json:"topics"`
	Article  *articleView              `json:"article,omitempty"`
	Disputed []session.DisputedArticle `json:"disputed"`
	// Problem says why the article asked for cannot be shown.
	Problem string `json:"problem,omitempty"`
}

type topicEntries struct {
	Topic    string                 `json:"topic"`
	Articles []session.ArticleEntry `json:"articles"`
}

// articleView is an article as the page shows it: rendered, with its
// sources, and its file as a person edits it.
type articleView struct {
	session.Article
	HTML template.HTML `json:"-"`
	// File is the article's file, Blob the version of it the page
	// opened: an edit commits only over that version.
	File string `json:"file"`
	Blob string `json:"blob"`
}

func (s *Server) knowledgeOf(ctx context.Context, slug string) (Knowledge, error) {
	k := Knowledge{Topics: []topicEntries{}}
	entries, _, err := s.svc.KBList(ctx, session.KBListInput{})
	if err != nil {
		return k, err
	}
	for _, e := range entries {
		if n := len(k.Topics); n == 0 || k.Topics[n-1].Topic != e.Topic {
			k.Topics = append(k.Topics, topicEntries{Topic: e.Topic})
		}
		k.Topics[len(k.Topics)-1].Articles = append(k.Topics[len(k.Topics)-1].Articles, e)
	}
	if k.Disputed, err = s.svc.KBDisputed(ctx); err != nil {
		return k, err
	}
	if slug == "" {
		return k, nil
	}
	view, err := s.article(ctx, slug)
	if err != nil {
		if planqerr.KindOf(err) == planqerr.Failure {
			return k, err
		}
		k.Problem = err.Error()
		return k, nil
	}
	k.Article = view
	return k, nil
}

// article reads one article as the page shows it.
func (s *Server) article(ctx context.Context, slug string) (*articleView, error) {
	shown, err := s.svc.KBShow(ctx, slug)
	if err != nil {
		return nil, err
	}
	opened, err := s.svc.KBOpen(ctx, slug, "")
	if err != nil {
		return nil, err
	}
	cited := map[string]bool{}
	for _, c := range shown.Sources {
		cited[c.Source] = true
	}
	body, err := markdown(shown.Body, cited)
	if err != nil {
		return nil, err
	}
	return &articleView{Article: shown, HTML: body, File: string(opened.Data), Blob: opened.Blob.String()}, nil
}

func (s *Server) showArticle(w http.ResponseWriter, r *http.Request) {
	view, err := s.article(r.Context(), r.PathValue("slug"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, view)
}

// decodeBody reads a JSON body of at most maxBody bytes into v, refusing
// keys it does not know; the answer is written when it fails.
func decodeBody(w http.ResponseWriter, r *http.Request, v any, shape string) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("failed to read the request: %w", err))
		return false
	}
	if len(body) > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, errors.New("the request is over 8 MiB"))
		return false
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("the body is not %s: %w", shape, err))
		return false
	}
	return true
}

// editRequest is a person's new text of an article, and the version of
// it they edited.
type editRequest struct {
	Text string `json:"text"`
	Blob string `json:"blob"`
}

// editArticle commits a person's text of an article as 'planq kb edit'
// does: as them (git's user.name and user.email), never over a version
// they did not see.
func (s *Server) editArticle(w http.ResponseWriter, r *http.Request) {
	var req editRequest
	if !decodeBody(w, r, &req, `{"text": "<the article>", "blob": "<the version edited>"}`) {
		return
	}
	slug := r.PathValue("slug")
	opened, err := s.svc.KBOpen(r.Context(), slug, "")
	if err != nil {
		fail(w, err)
		return
	}
	if req.Blob != opened.Blob.String() {
		fail(w, planqerr.New(planqerr.Refused, "article "+slug, "changed on global since you opened it; nothing was written").
			WithHint("load the page again and make your change there"))
		return
	}
	if len(req.Text) > changelog.MaxArticleSize {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("the article is over %d bytes", changelog.MaxArticleSize))
		return
	}
	res, err := s.svc.KBEdit(r.Context(), session.KBEditInput{Was: opened, Text: []byte(req.Text), Name: "the page's text"})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

type resolveRequest struct {
	Keep string `json:"keep"`
}

// resolveArticle settles a disputed article as 'planq kb resolve' does.
func (s *Server) resolveArticle(w http.ResponseWriter, r *http.Request) {
	var req resolveRequest
	if !decodeBody(w, r, &req, `{"keep": "<source>"}`) {
		return
	}
	res, err := s.svc.KBResolve(r.Context(), session.KBResolveInput{Slug: r.PathValue("slug"), Keep: req.Keep})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
