package embed

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/netpost"
)

// The package's tests reach their test servers as planq-server does.
func TestMain(m *testing.M) {
	Network = Net{Post: netpost.Post, Get: netpost.Get}
	os.Exit(m.Run())
}

// TestServePostSaysWhatCame: 'planq-server post' answers planq with the
// endpoint's status and body (one byte past the limit at most, so that
// planq sees it was more), a redirect's Location (never followed), and,
// when no answer came, why, and whether the time ran out.
func TestServePostSaysWhatCame(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/embeddings":
			if r.Header.Get("Authorization") != "Bearer k" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(strings.Repeat("x", 100)))
		case "/moved":
			http.Redirect(w, r, "http://elsewhere.example/v1", http.StatusFound)
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		}
	}))
	defer srv.Close()
	post := func(req PostRequest) PostAnswer { return ServePost(ctx, req, Network.Post) }

	got := post(PostRequest{URL: srv.URL + "/v1/embeddings", Header: map[string]string{"Authorization": "Bearer k"}, Limit: 10})
	if got.Status != 200 || len(got.Body) != 11 || got.Failed != "" {
		t.Errorf("an answer past the limit: %+v; want status 200 and 11 bytes", got)
	}
	if got := post(PostRequest{URL: srv.URL + "/v1/embeddings", Limit: 10}); got.Status != 401 {
		t.Errorf("without the key: %+v, want 401", got)
	}
	if got := post(PostRequest{URL: srv.URL + "/moved", Limit: 10}); got.Status != 302 || got.Location != "http://elsewhere.example/v1" {
		t.Errorf("a redirect: %+v; want 302 and its Location, not followed", got)
	}
	if got := post(PostRequest{URL: srv.URL + "/slow", Limit: 10, Timeout: 50 * time.Millisecond}); !got.TimedOut || got.Failed == "" {
		t.Errorf("a slow endpoint: %+v; want timed out", got)
	}
	if got := post(PostRequest{URL: "http://127.0.0.1:9/v1", Limit: 10, Timeout: time.Second}); got.Failed == "" || got.TimedOut {
		t.Errorf("nothing listening: %+v; want a failure that is no timeout", got)
	}
}
