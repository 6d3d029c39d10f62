package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/planq-dev/planq/planqerr"
)

const (
	// DefaultTimeout bounds one call to an embeddings endpoint: connecting,
	// sending, and reading the whole answer.
	DefaultTimeout = 2 * time.Second
	// DefaultBatch is the most texts one call sends.
	DefaultBatch = 64
	// DefaultMaxAnswer is the largest answer read from an endpoint, in bytes:
	// a full batch of 4,096-dimension vectors written out as JSON fits well
	// inside it.
	DefaultMaxAnswer = 32 << 20
	// MaxEndpointDim is the largest dimension taken from an endpoint.
	MaxEndpointDim = 16384
	// MaxTextBytes is the most of a text an endpoint is sent: a longer
	// one is cut (at a character's boundary), as models read a few
	// thousand tokens at most and some endpoints refuse more.
	MaxTextBytes = 16 << 10
)

// EndpointSettings is how to reach an OpenAI-compatible embeddings
// endpoint (OpenAI's, a local Ollama's, a llama.cpp or vLLM server's).
type EndpointSettings struct {
	// URL is the API's base, its version path included: planq posts to
	// {URL}/embeddings. A local Ollama's is http://localhost:11434/v1.
	URL string
	// Model is the model the endpoint is asked for, as it names it
	// ("nomic-embed-text", "text-embedding-3-small").
	Model string
	// KeyEnv names the environment variable that holds the bearer key the
	// endpoint wants, if any: the key itself never sits in a configuration.
	KeyEnv string
	// Timeout bounds each call; zero means DefaultTimeout.
	Timeout time.Duration
	// Batch is the most texts one call sends; zero means DefaultBatch.
	Batch int
	// MaxAnswer is the largest answer read, in bytes; zero means DefaultMaxAnswer.
	MaxAnswer int64
}

// Endpoint is a Model served by an OpenAI-compatible embeddings endpoint,
// safe for concurrent use. Its dimension is what the endpoint answers with, known after the first
// call (Open makes one); an answer of another dimension later is an error.
type Endpoint struct {
	base, model, key string
	post             string // the URL posted to
	timeout          time.Duration
	batch            int
	maxAnswer        int64
	dim              atomic.Int64
}

// NewEndpoint checks s and returns the endpoint it names, without calling it.
func NewEndpoint(s EndpointSettings) (*Endpoint, error) {
	base, post, err := endpointURL(s.URL)
	if err != nil {
		return nil, err
	}
	subject := "embeddings endpoint " + base
	if strings.TrimSpace(s.Model) == "" {
		return nil, planqerr.New(planqerr.Invalid, subject, "names no model").
			WithHint("set search: endpoint: model: in .planq/config to the model the server serves, like nomic-embed-text")
	}
	// No redirect is followed (Network.Post follows none): one could send
	// the texts and the key's request to another host (a cloud's metadata
	// address, say). The answer is read as it is and refused (redirected).
	e := &Endpoint{base: base, post: post, model: s.Model, timeout: s.Timeout, batch: s.Batch, maxAnswer: s.MaxAnswer}
	if e.timeout <= 0 {
		e.timeout = DefaultTimeout
	}
	if e.batch <= 0 {
		e.batch = DefaultBatch
	}
	if e.maxAnswer <= 0 {
		e.maxAnswer = DefaultMaxAnswer
	}
	if s.KeyEnv != "" {
		e.key = os.Getenv(s.KeyEnv)
		if e.key == "" {
			return nil, planqerr.New(planqerr.Invalid, subject, "its key is to be in $%s, which is not set", s.KeyEnv).
				WithHint("export %s=<the key>, or drop key_env from search: endpoint: in .planq/config if the server needs no key", s.KeyEnv)
		}
	}
	return e, nil
}

// URLProblem says what is wrong with an embeddings endpoint's parsed base
// URL, "" when nothing is: it must be http or https with a host, and carry
// neither a user, a query nor a fragment, where a key could hide. The
// configuration's check and the client's are this one.
func URLProblem(u *url.URL, parseErr error) string {
	switch {
	case parseErr != nil:
		return "is not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "is not an http or https URL"
	case u.Host == "":
		return "names no host"
	case u.User != nil:
		return "carries a user or a key"
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "has a query or a fragment"
	}
	return ""
}

// endpointURL checks a base URL and returns it without a trailing slash,
// and the URL to post to.
func endpointURL(raw string) (base, post string, err error) {
	problem := ""
	u, perr := url.Parse(strings.TrimSpace(raw))
	if strings.TrimSpace(raw) == "" {
		problem = "no URL"
	} else {
		problem = URLProblem(u, perr)
	}
	if problem != "" {
		subject := "embeddings endpoint"
		if perr == nil && raw != "" {
			// Only what names the place: a user, a query or a fragment may hold a key.
			subject += fmt.Sprintf(" %q", (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, Opaque: u.Opaque}).String())
		}
		return "", "", planqerr.New(planqerr.Invalid, subject, "%s", problem).
			WithHint("give the API's base URL, its version path included, like http://localhost:11434/v1 for a local Ollama; a key goes in the variable key_env names")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	base = u.String()
	u.Path += "/embeddings"
	return base, u.String(), nil
}

// ID names the endpoint, the model and, once an answer told it, the dimension.
func (e *Endpoint) ID() string {
	id := "openai:" + e.base + "#" + e.model
	if d := e.Dim(); d > 0 {
		id += "@" + strconv.Itoa(d) + "d"
	}
	return id
}

// Dim is the dimension of the endpoint's vectors, 0 until a call told it.
func (e *Endpoint) Dim() int { return int(e.dim.Load()) }

// Embed asks the endpoint for the texts' vectors, at most Batch a call, each
// call within the timeout, and returns them L2-normalised in the texts'
// order. A blank text is not sent: its vector is zero; a text longer than
// MaxTextBytes is sent cut to that. Any failure of the
// endpoint is an error, and no vector is returned.
func (e *Endpoint) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var sent []int // the texts that are not blank
	for i, t := range texts {
		if strings.TrimFunc(t, unicode.IsSpace) != "" {
			sent = append(sent, i)
		}
	}
	for start := 0; start < len(sent); start += e.batch {
		part := sent[start:min(start+e.batch, len(sent))]
		batch := make([]string, len(part))
		for j, i := range part {
			batch[j] = cutText(texts[i])
		}
		vecs, err := e.call(ctx, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range part {
			out[i] = vecs[j]
		}
	}
	if len(sent) < len(texts) && e.Dim() == 0 {
		if err := e.probe(ctx); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, e.Dim())
		}
	}
	return out, nil
}

// cutText is text, or its first MaxTextBytes bytes, ending where a
// character does.
func cutText(text string) string {
	if len(text) <= MaxTextBytes {
		return text
	}
	cut := MaxTextBytes
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut]
}

// probe learns the endpoint's dimension, and that it answers, with one call.
func (e *Endpoint) probe(ctx context.Context) error {
	_, err := e.call(ctx, []string{"planq"})
	return err
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

// call sends one batch and reads its answer.
func (e *Endpoint) call(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingsRequest{Model: e.model, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("failed to encode the embeddings request: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	header := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	if e.key != "" {
		header["Authorization"] = "Bearer " + e.key
	}
	status, length, answer, location, err := post(cctx, e.post, header, body, e.maxAnswer)
	if err != nil {
		return nil, e.failed(ctx, cctx, err)
	}
	defer func() { _ = answer.Close() }()
	if length > e.maxAnswer {
		return nil, e.tooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(answer, e.maxAnswer+1))
	if err != nil {
		return nil, e.failed(ctx, cctx, err)
	}
	if int64(len(data)) > e.maxAnswer {
		return nil, e.tooLarge()
	}
	if status >= 300 && status <= 399 {
		return nil, e.redirected(status, location)
	}
	if status < 200 || status > 299 {
		return nil, e.httpError(status, data)
	}
	vecs, dim, err := parseAnswer(data, len(texts))
	if err != nil {
		return nil, planqerr.New(planqerr.Failure, e.subject(), "%w", err).
			WithHint("check that %s is an OpenAI-compatible embeddings API; its answer is {\"data\":[{\"index\",\"embedding\"}]}", e.post)
	}
	if !e.dim.CompareAndSwap(0, int64(dim)) && e.Dim() != dim {
		return nil, planqerr.New(planqerr.Failure, e.subject(), "answered vectors of %d dimensions after vectors of %d", dim, e.Dim()).
			WithHint("the model behind the endpoint changed: run planq again, and its records are embedded anew")
	}
	return vecs, nil
}

// httpError says what an error answer means, with what to do about it.
func (e *Endpoint) httpError(status int, data []byte) error {
	err := planqerr.New(planqerr.Failure, e.subject(), "answered HTTP %d%s", status, serverMessage(data))
	switch status {
	case 401, 403: // unauthorised, forbidden
		return err.WithHint("give the endpoint's key in a variable and name it in search: endpoint: key_env: in .planq/config")
	case 404, 400: // not found, bad request
		return err.WithHint("check that %s serves the model %q (for a local Ollama: ollama pull %s; its URL ends in /v1)", e.base, e.model, e.model)
	}
	return err.WithHint("check the server's log; until it answers, search uses words alone")
}

// redirected refuses a redirect, naming where it pointed without its
// query or user part, where a key could hide (url.URL escapes the path's
// control characters).
func (e *Endpoint) redirected(status int, location string) error {
	where := "elsewhere"
	if loc, err := url.Parse(location); err == nil && loc.Host != "" {
		where = "to " + (&url.URL{Scheme: loc.Scheme, Host: loc.Host, Path: loc.Path}).String()
	}
	return planqerr.New(planqerr.Failure, e.subject(), "redirected %s (HTTP %d); planq follows no redirect", where, status).
		WithHint("if that is the endpoint, set search: endpoint: url: in .planq/config to its base URL (the part before /embeddings)")
}

func (e *Endpoint) subject() string { return "embeddings endpoint " + e.base }

func (e *Endpoint) tooLarge() error {
	return planqerr.New(planqerr.Failure, e.subject(), "answered more than %d bytes", e.maxAnswer).
		WithHint("check that %s is an embeddings API; planq sends at most %d texts a call", e.post, e.batch)
}

// failed says why a call got no answer: the caller's context ended, the
// time bound passed, or the endpoint could not be reached.
func (e *Endpoint) failed(ctx, cctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("failed to call the embeddings endpoint: %w", ctx.Err())
	case errors.Is(cctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return planqerr.New(planqerr.Failure, e.subject(), "gave no answer within %s", e.timeout).
			WithHint("check the server, or give it longer: search: endpoint: timeout: in .planq/config")
	}
	return planqerr.New(planqerr.Failure, e.subject(), "cannot be reached: %w", err).
		WithHint("start the server (for a local Ollama: ollama serve), or leave search: endpoint: out of .planq/config")
}

// serverMessage is the error message an error answer carries, as OpenAI
// writes it ({"error":{"message"}}, Ollama {"error":"..."}), or its first
// line, quoted and cut short.
func serverMessage(data []byte) string {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	msg := ""
	if json.Unmarshal(data, &v) == nil && len(v.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &obj) != nil || obj.Message == "" {
			_ = json.Unmarshal(v.Error, &msg)
		} else {
			msg = obj.Message
		}
	}
	if msg == "" {
		msg, _, _ = strings.Cut(string(data), "\n")
	}
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return ""
	}
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return ": " + strconv.Quote(msg)
}

// embeddingsAnswer is what an OpenAI-compatible endpoint answers.
type embeddingsAnswer struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// parseAnswer reads an answer to n texts: one vector per text, placed by
// its index (its position when it has none), all of one dimension,
// finite, and returns them L2-normalised with their dimension.
func parseAnswer(data []byte, n int) ([][]float32, int, error) {
	var ans embeddingsAnswer
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, 0, fmt.Errorf("answered what is not an embeddings answer: %w", err)
	}
	if len(ans.Data) != n {
		return nil, 0, fmt.Errorf("answered %d vectors for %d texts", len(ans.Data), n)
	}
	out := make([][]float32, n)
	dim := 0
	for pos, d := range ans.Data {
		i := pos
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= n {
			return nil, 0, fmt.Errorf("answered a vector of index %d for %d texts", i, n)
		}
		if out[i] != nil {
			return nil, 0, fmt.Errorf("answered two vectors of index %d", i)
		}
		if pos == 0 {
			dim = len(d.Embedding)
		}
		if len(d.Embedding) != dim {
			return nil, 0, fmt.Errorf("answered vectors of %d and of %d dimensions", dim, len(d.Embedding))
		}
		if dim == 0 || dim > MaxEndpointDim {
			return nil, 0, fmt.Errorf("answered vectors of %d dimensions (1 to %d are taken)", dim, MaxEndpointDim)
		}
		v, err := unitVector(d.Embedding)
		if err != nil {
			return nil, 0, err
		}
		out[i] = v
	}
	return out, dim, nil
}

func unitVector(e []float64) ([]float32, error) {
	v := make([]float32, len(e))
	var sum float64
	for k, x := range e {
		v[k] = float32(x)
		if math.IsNaN(float64(v[k])) || math.IsInf(float64(v[k]), 0) {
			return nil, fmt.Errorf("answered a vector holding %v", x)
		}
		sum += float64(v[k]) * float64(v[k])
	}
	if norm := math.Sqrt(sum); norm > 0 && !math.IsInf(norm, 0) {
		for k := range v {
			v[k] = float32(float64(v[k]) / norm)
		}
	}
	return v, nil
}
