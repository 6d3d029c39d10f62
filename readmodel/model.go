package readmodel

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/search"
)

// ModelLoader opens the embedding model by which searches find records
// described in other words than their own. A reader calls it at its first
// search, once, and never for a view that does not search: a command that
// lists or counts pays nothing for a model. (nil, nil) means the project
// wants none.
type ModelLoader func(ctx context.Context) (embed.Model, error)

// ProjectModel opens the embedding model of p's searches: the one its
// config's search: names (EmbedSettings), by default the one built into
// planq. It is a variable so that a test build can see who loads it.
var ProjectModel = func(ctx context.Context, p *project.Project) (embed.Model, error) {
	return embed.Open(ctx, EmbedSettings(p))
}

// EmbedSettings are the settings of the model p's search embeds with: its
// config's search: section, relative directories read from the code
// checkout, fetched models under $PLANQ_HOME/models.
func EmbedSettings(p *project.Project) embed.Settings {
	s := embed.Settings{Model: p.Config.Search.Model, Root: p.Root, ModelsDir: project.ModelsDir(p.Home)}
	if e := p.Config.Search.Endpoint; e != nil {
		s.Endpoint = &embed.EndpointSettings{URL: string(e.URL), Model: e.Model, KeyEnv: string(e.KeyEnv), Timeout: e.TimeoutOrDefault()}
	}
	return s
}

// UseModel has rd's searches embed by the model load opens (see
// ModelLoader); a reader without one searches by words alone.
func (rd *Reader) UseModel(load ModelLoader) {
	rd.modelMu.Lock()
	defer rd.modelMu.Unlock()
	rd.loadModel, rd.modelLoaded, rd.model, rd.modelErr = load, false, nil, nil
}

// VectorStatus says whether a search ranked records by their meaning as
// well as by their words: the model it embedded by, or why it did not.
type VectorStatus struct {
	// Model is the ID of the model, when the vector channel ranked.
	Model string `json:"model,omitempty"`
	// Off says why it did not: no model, or the model failed.
	Off string `json:"off,omitempty"`
	// Warn is the failure, when a model was wanted and failed (a model
	// file that did not read, an endpoint down): what the front end says
	// once. nil when there is simply no model.
	Warn error `json:"-"`
}

// searchModel is the model rd's searches embed by, opened at the first
// search; nil with the status that says why when there is none.
func (rd *Reader) searchModel(ctx context.Context) (embed.Model, VectorStatus) {
	rd.modelMu.Lock()
	defer rd.modelMu.Unlock()
	if !rd.modelLoaded && rd.loadModel != nil {
		m, err := rd.loadModel(ctx)
		if ctx.Err() == nil { // a cancelled load is no answer: the next search asks again
			rd.modelLoaded, rd.model, rd.modelErr = true, m, err
		} else if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, offStatus(err)
		}
	}
	switch {
	case rd.modelErr != nil:
		return nil, offStatus(rd.modelErr)
	case rd.model == nil:
		return nil, VectorStatus{Off: "no embedding model is configured"}
	case rd.modelFailed != nil && time.Since(rd.modelFailedAt) < modelRetry:
		return nil, VectorStatus{Off: rd.modelFailed.Error()} // told already
	}
	return rd.model, VectorStatus{Model: rd.model.ID()}
}

// modelRetry is how long a reader searches by words alone after its model
// failed to embed (an endpoint down, say), rather than wait on it at every
// search: an MCP server's searches stay fast, and use the model again once
// it is back.
const modelRetry = time.Minute

// offStatus is the status of a search whose model did not open or failed:
// a warning, unless there is no model to fail (the config says none, or
// the build carries no model of its own).
func offStatus(err error) VectorStatus {
	if errors.Is(err, embed.ErrOff) || errors.Is(err, embed.ErrNoDefaultModel) {
		return VectorStatus{Off: err.Error()}
	}
	return VectorStatus{Off: err.Error(), Warn: fmt.Errorf("search matches words only: %w", err)}
}

// VectorWarning is the failure of the embedding model that left a search
// of rd to words alone, the first time it is asked after that search; nil
// when there is none, or it was told already. A front end says it once,
// however many searches meet it (an MCP server's many).
func (rd *Reader) VectorWarning() error {
	rd.modelMu.Lock()
	defer rd.modelMu.Unlock()
	w := rd.modelWarn
	if w == nil || rd.modelWarned[w.Error()] {
		return nil
	}
	if rd.modelWarned == nil {
		rd.modelWarned = map[string]bool{}
	}
	rd.modelWarned[w.Error()] = true
	return w
}

// noteVector keeps a search's warning for VectorWarning; failed is the
// model's failure to embed, when it failed so.
func (rd *Reader) noteVector(st VectorStatus, failed error) {
	rd.modelMu.Lock()
	defer rd.modelMu.Unlock()
	if failed != nil {
		rd.modelFailed, rd.modelFailedAt = failed, time.Now()
	}
	if st.Warn != nil {
		rd.modelWarn = st.Warn
	}
}

// Meanings are the vectors by which rd's searches find recs: each record's
// searched text (search.DocOf) embedded by the search model, in the order
// of recs, for callers that compare records by meaning as search does
// (dedupe, the knowledge base's grouping). With no model, or a model that
// failed, they are nil and the status says why.
func (rd *Reader) Meanings(ctx context.Context, recs []*changelog.Record) ([][]float32, VectorStatus) {
	m, st := rd.searchModel(ctx)
	if m == nil {
		return nil, st
	}
	texts := make([]string, len(recs))
	for i, r := range recs {
		texts[i] = search.DocOf(r).Text()
	}
	vecs, err := m.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
	}
	if err != nil {
		st = offStatus(err)
		rd.noteVector(st, err)
		return nil, st
	}
	return vecs, st
}
