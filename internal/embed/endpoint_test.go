package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeEndpoint is an OpenAI-compatible embeddings server: the vector of a
// text is its length, its count of 'a's and 1, scaled by 2 (so that the
// client's normalising shows), unless answer says otherwise.
type fakeEndpoint struct {
	t *testing.T
	// answer writes the answer to a request's inputs; nil answers well.
	answer func(w http.ResponseWriter, inputs []string)
	mu     sync.Mutex
	calls  [][]string // the inputs of each call
	auth   []string   // the Authorization header of each call
}

func (f *fakeEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, fmt.Sprintf("no route %s %s", r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "tiny-embed" {
		http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, req.Input)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.mu.Unlock()
	if f.answer != nil {
		f.answer(w, req.Input)
		return
	}
	writeVectors(w, req.Input, false)
}

// rawVector is the fake model's vector of a text, before normalising.
func rawVector(text string) []float64 {
	return []float64{2 * float64(len(text)), 2 * float64(strings.Count(text, "a")), 2}
}

// writeVectors answers the inputs' vectors, in reverse order if asked.
func writeVectors(w http.ResponseWriter, inputs []string, reverse bool) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	var data []item
	for i, in := range inputs {
		data = append(data, item{"embedding", i, rawVector(in)})
	}
	if reverse {
		for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
			data[i], data[j] = data[j], data[i]
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "tiny-embed",
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

func startEndpoint(t *testing.T, answer func(http.ResponseWriter, []string)) (*fakeEndpoint, string) {
	t.Helper()
	f := &fakeEndpoint{t: t, answer: answer}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/v1"
}

func newTestEndpoint(t *testing.T, s EndpointSettings) *Endpoint {
	t.Helper()
	if s.Model == "" {
		s.Model = "tiny-embed"
	}
	e, err := NewEndpoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// wantUnit checks that got is text's fake vector, normalised.
func wantUnit(t *testing.T, text string, got []float32) {
	t.Helper()
	raw := rawVector(text)
	var norm float64
	for _, x := range raw {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	if len(got) != len(raw) {
		t.Fatalf("vector of %q has %d dimensions, want %d", text, len(got), len(raw))
	}
	for i := range raw {
		if math.Abs(float64(got[i])-raw[i]/norm) > 1e-6 {
			t.Fatalf("vector of %q = %v, want %v normalised", text, got, raw)
		}
	}
}

func TestEndpointEmbedsInBatchesInOrder(t *testing.T) {
	f, base := startEndpoint(t, nil)
	t.Setenv("PLANQ_TEST_EMBED_KEY", "sk-test-123")
	e := newTestEndpoint(t, EndpointSettings{URL: base + "/", KeyEnv: "PLANQ_TEST_EMBED_KEY", Batch: 2})
	if e.Dim() != 0 || e.ID() != "openai:"+base+"#tiny-embed" {
		t.Fatalf("before a call: Dim %d, ID %q", e.Dim(), e.ID())
	}
	texts := []string{"a", "banana", "  ", "cab", "aardvark", "", "x"}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	for i, text := range texts {
		if strings.TrimSpace(text) == "" {
			if len(got[i]) != 3 || got[i][0] != 0 || got[i][1] != 0 || got[i][2] != 0 {
				t.Errorf("blank text %q: vector %v, want the zero vector", text, got[i])
			}
			continue
		}
		wantUnit(t, text, got[i])
	}
	// Blank texts are not sent; five texts in batches of two.
	want := [][]string{{"a", "banana"}, {"cab", "aardvark"}, {"x"}}
	if fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Errorf("calls %q, want %q", f.calls, want)
	}
	for _, a := range f.auth {
		if a != "Bearer sk-test-123" {
			t.Errorf("Authorization %q, want the key from $PLANQ_TEST_EMBED_KEY", a)
		}
	}
	if e.Dim() != 3 || e.ID() != "openai:"+base+"#tiny-embed@3d" {
		t.Errorf("after a call: Dim %d, ID %q", e.Dim(), e.ID())
	}
}

func TestEndpointReordersByIndex(t *testing.T) {
	_, base := startEndpoint(t, func(w http.ResponseWriter, inputs []string) { writeVectors(w, inputs, true) })
	e := newTestEndpoint(t, EndpointSettings{URL: base})
	texts := []string{"one", "banana", "aaaaaaaaaa"}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		wantUnit(t, text, got[i])
	}
}

func TestEndpointCutsLongTexts(t *testing.T) {
	f, base := startEndpoint(t, nil)
	e := newTestEndpoint(t, EndpointSettings{URL: base})
	long := strings.Repeat("a", MaxTextBytes-1) + "é and more"
	if _, err := e.Embed(context.Background(), []string{long, "short"}); err != nil {
		t.Fatal(err)
	}
	if sent := f.calls[0][0]; sent != strings.Repeat("a", MaxTextBytes-1) {
		t.Errorf("a long text was sent as %d bytes ending %q", len(sent), sent[len(sent)-4:])
	}
	if f.calls[0][1] != "short" {
		t.Errorf("a short text was sent as %q", f.calls[0][1])
	}
}

func TestEndpointOnlyBlankTextsProbeTheDimension(t *testing.T) {
	f, base := startEndpoint(t, nil)
	e := newTestEndpoint(t, EndpointSettings{URL: base})
	got, err := e.Embed(context.Background(), []string{"", " \n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0]) != 3 || len(got[1]) != 3 || len(f.calls) != 1 {
		t.Fatalf("vectors %v after calls %q: want two zero vectors of 3 dimensions after one probe", got, f.calls)
	}
	if got, err := e.Embed(context.Background(), nil); err != nil || len(got) != 0 || len(f.calls) != 1 {
		t.Fatalf("no text: %v, %v after %d calls", got, err, len(f.calls))
	}
}

// TestEndpointFailuresAreErrors: whatever the endpoint does wrong, Embed
// returns an error that says what, soon, and no vector.
func TestEndpointFailuresAreErrors(t *testing.T) {
	vectors := func(vs ...string) func(http.ResponseWriter, []string) {
		return func(w http.ResponseWriter, _ []string) {
			_, _ = io.WriteString(w, `{"data":[`+strings.Join(vs, ",")+`]}`)
		}
	}
	cases := []struct {
		name   string
		answer func(http.ResponseWriter, []string)
		texts  []string
		want   string
	}{
		{"garbage", func(w http.ResponseWriter, _ []string) { _, _ = io.WriteString(w, "<html>hello</html>") }, []string{"a"}, "not an embeddings answer"},
		{"not a list", func(w http.ResponseWriter, _ []string) { _, _ = io.WriteString(w, `{"data":"x"}`) }, []string{"a"}, "not an embeddings answer"},
		{"base64", vectors(`{"index":0,"embedding":"AAAA"}`), []string{"a"}, "not an embeddings answer"},
		{"cut short", func(w http.ResponseWriter, _ []string) {
			_, _ = io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2`)
		}, []string{"a"}, "not an embeddings answer"},
		{"too few", vectors(`{"index":0,"embedding":[1,2]}`), []string{"a", "b"}, "1 vectors for 2 texts"},
		{"too many", vectors(`{"index":0,"embedding":[1]}`, `{"index":1,"embedding":[1]}`), []string{"a"}, "2 vectors for 1 texts"},
		{"two dimensions", vectors(`{"index":0,"embedding":[1,2]}`, `{"index":1,"embedding":[1,2,3]}`), []string{"a", "b"}, "of 2 and of 3 dimensions"},
		{"no dimension", vectors(`{"index":0,"embedding":[]}`), []string{"a"}, "0 dimensions"},
		{"index twice", vectors(`{"index":0,"embedding":[1]}`, `{"index":0,"embedding":[2]}`), []string{"a", "b"}, "two vectors of index 0"},
		{"index out of range", vectors(`{"index":2,"embedding":[1]}`), []string{"a"}, "index 2 for 1 texts"},
		{"beyond float32", vectors(`{"index":0,"embedding":[1e39,1]}`), []string{"a"}, "holding 1e+39"},
		{"NaN", func(w http.ResponseWriter, _ []string) {
			_, _ = io.WriteString(w, `{"data":[{"index":0,"embedding":[NaN]}]}`)
		}, []string{"a"}, "not an embeddings answer"},
		{"500", func(w http.ResponseWriter, _ []string) {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"error":{"message":"model crashed","type":"server_error"}}`)
		}, []string{"a"}, `answered HTTP 500: "model crashed"`},
		{"ollama's error", func(w http.ResponseWriter, _ []string) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":"model \"tiny-embed\" not found, try pulling it first"}`)
		}, []string{"a"}, `answered HTTP 404: "model \"tiny-embed\" not found`},
		{"401", func(w http.ResponseWriter, _ []string) { w.WriteHeader(http.StatusUnauthorized) }, []string{"a"}, "answered HTTP 401"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, base := startEndpoint(t, c.answer)
			e := newTestEndpoint(t, EndpointSettings{URL: base})
			got, err := e.Embed(context.Background(), c.texts)
			if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
				t.Fatalf("Embed = %v, %v; want an error saying %q", got, err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "embeddings endpoint "+base+": ") {
				t.Errorf("error %q does not name the endpoint", err)
			}
		})
	}
}

func TestEndpointChangingDimensionIsAnError(t *testing.T) {
	calls := 0
	_, base := startEndpoint(t, func(w http.ResponseWriter, _ []string) {
		calls++
		_, _ = fmt.Fprintf(w, `{"data":[{"index":0,"embedding":%s}]}`, map[bool]string{true: "[1,2,3]", false: "[1,2]"}[calls == 1])
	})
	e := newTestEndpoint(t, EndpointSettings{URL: base})
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.Embed(context.Background(), []string{"b"})
	if err == nil || !strings.Contains(err.Error(), "vectors of 2 dimensions after vectors of 3") {
		t.Fatalf("second answer of another dimension: %v", err)
	}
	if e.Dim() != 3 {
		t.Errorf("Dim %d after a refused answer, want 3", e.Dim())
	}
}

// TestEndpointSlowIsBounded: an endpoint that sends nothing, or its
// headers and then nothing, costs the time bound, not the test's timeout.
func TestEndpointSlowIsBounded(t *testing.T) {
	var release chan struct{}
	stall := func(_ http.ResponseWriter, r *http.Request) {
		// Read to the end, so that the server sees the client hang up.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	cases := map[string]http.HandlerFunc{
		"no answer": stall,
		"headers then nothing": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"data":[`)
			w.(http.Flusher).Flush()
			stall(w, r)
		},
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			release = make(chan struct{})
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(release) }) // before the server closes: cleanups run last first
			e := newTestEndpoint(t, EndpointSettings{URL: srv.URL + "/v1", Timeout: 100 * time.Millisecond})
			start := time.Now()
			_, err := e.Embed(context.Background(), []string{"a"})
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), "gave no answer within 100ms") {
				t.Fatalf("Embed: %v", err)
			}
			if took > 2*time.Second {
				t.Errorf("Embed took %s with a bound of 100ms", took)
			}
		})
	}
}

func TestEndpointCallerCancels(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	e := newTestEndpoint(t, EndpointSettings{URL: srv.URL, Timeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := e.Embed(ctx, []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Embed after the caller's deadline: %v", err)
	}
}

func TestEndpointDownIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1"
	srv.Close()
	e := newTestEndpoint(t, EndpointSettings{URL: base})
	_, err := e.Embed(context.Background(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("Embed against a closed port: %v", err)
	}
}

// TestEndpointHugeAnswerIsCut: an answer past the limit is refused after
// reading the limit, whether announced or streamed without end.
func TestEndpointHugeAnswerIsCut(t *testing.T) {
	cases := map[string]func(http.ResponseWriter, []string){
		"streamed": func(w http.ResponseWriter, _ []string) {
			_, _ = io.WriteString(w, `{"data":[{"index":0,"embedding":[`)
			chunk := []byte(strings.Repeat("0.5,", 1024))
			for range 1 << 20 { // 4 GiB unless the client hangs up
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		},
		"announced": func(w http.ResponseWriter, _ []string) {
			w.Header().Set("Content-Length", "1000000000")
			_, _ = io.WriteString(w, `{"data":[`)
		},
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			_, base := startEndpoint(t, answer)
			e := newTestEndpoint(t, EndpointSettings{URL: base, MaxAnswer: 64 << 10})
			start := time.Now()
			_, err := e.Embed(context.Background(), []string{"a"})
			if err == nil || !strings.Contains(err.Error(), "answered more than 65536 bytes") {
				t.Fatalf("Embed: %v", err)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("refusing a huge answer took %s", took)
			}
		})
	}
}

func TestNewEndpointRefuses(t *testing.T) {
	t.Setenv("PLANQ_TEST_NO_KEY", "")
	cases := []struct {
		s    EndpointSettings
		want string
	}{
		{EndpointSettings{URL: "", Model: "m"}, "no URL"},
		{EndpointSettings{URL: "ftp://host/v1", Model: "m"}, "not an http or https URL"},
		{EndpointSettings{URL: "localhost:11434/v1", Model: "m"}, "not an http or https URL"},
		{EndpointSettings{URL: "http:///v1", Model: "m"}, "names no host"},
		{EndpointSettings{URL: "https://user:sk-secret@host/v1", Model: "m"}, "carries a user or a key"},
		{EndpointSettings{URL: "https://host/v1?key=sk-secret", Model: "m"}, "has a query"},
		{EndpointSettings{URL: "http://host/v1"}, "names no model"},
		{EndpointSettings{URL: "http://host/v1", Model: "m", KeyEnv: "PLANQ_TEST_NO_KEY"}, "$PLANQ_TEST_NO_KEY, which is not set"},
	}
	for _, c := range cases {
		_, err := NewEndpoint(c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewEndpoint(%+v) = %v, want %q", c.s, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("the error repeats the secret: %v", err)
		}
	}
}

// FuzzParseAnswer: any answer is either refused or gives n vectors of one
// dimension, each of unit length or zero.
func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":1,"embedding":[1,2]},{"index":0,"embedding":[0,0]}]}`), 2)
	f.Add([]byte(`{"data":[{"embedding":[3,4]}]}`), 1)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1e38,1e38]}]}`), 1)
	f.Add([]byte(`{"data":null}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		vecs, dim, err := parseAnswer(data, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d texts", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) != dim || dim < 1 || dim > MaxEndpointDim {
				t.Fatalf("a vector of %d dimensions, dim %d", len(v), dim)
			}
			var sum float64
			for _, x := range v {
				sum += float64(x) * float64(x)
			}
			if sum != 0 && math.Abs(sum-1) > 1e-4 {
				t.Fatalf("vector %v has squared norm %v", v, sum)
			}
		}
	})
}

// TestEndpointFollowsNoRedirect: an endpoint that answers with a redirect
// (to another host, here another server standing in for a cloud's metadata
// address) is an error that names where it pointed, and the other host is
// never called: a redirect could send the texts, or a GET, anywhere.
func TestEndpointFollowsNoRedirect(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var reached atomic.Int32
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				reached.Add(1)
				writeVectors(w, []string{"a"}, false)
			}))
			t.Cleanup(other.Close)
			target := other.URL + "/latest/meta-data/embeddings"
			_, base := startEndpoint(t, func(w http.ResponseWriter, _ []string) {
				w.Header().Set("Location", target+"?key=s3cr3t")
				w.WriteHeader(status)
			})
			e := newTestEndpoint(t, EndpointSettings{URL: base, KeyEnv: ""})
			got, err := e.Embed(context.Background(), []string{"a"})
			if err == nil || got != nil {
				t.Fatalf("Embed = %v, %v; want an error", got, err)
			}
			if n := reached.Load(); n != 0 {
				t.Errorf("the redirect's target was called %d times", n)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "embeddings endpoint "+base+": ") || !strings.Contains(msg, "redirected to "+target) {
				t.Errorf("error %q does not say the endpoint redirected to %s", msg, target)
			}
			if strings.Contains(msg, "s3cr3t") {
				t.Errorf("error %q shows the redirect's query", msg)
			}
		})
	}
}
