package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/planq-dev/planq/internal/testkit/fakeembed"
)

// benchEndpoint: a search whose project names an embeddings endpoint. planq
// posts through planq-server; the first search embeds every record, a
// call per batch, and what it costs beyond the endpoint's own time is
// planq's. No target: the figures show what a call costs planq.
func benchEndpoint(dir string) bool {
	project(dir, "endpoint", []string{"a0"}, 2000)
	var calls, served atomic.Int64
	endpoint := fakeembed.Handler(func() { calls.Add(1) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		endpoint.ServeHTTP(w, r)
		served.Add(int64(time.Since(began)))
	}))
	defer srv.Close()
	repo := filepath.Join(dir, "code")
	config := fmt.Sprintf("project: endpoint\nsearch:\n  endpoint:\n    url: %s/v1\n    model: bench\n", srv.URL)
	check(os.WriteFile(filepath.Join(repo, ".planq", "config"), []byte(config), 0o644))
	args := []string{"search", "flaky test retries", "--limit", "10"}

	first := timed(repo, planqBin, args...)
	firstCalls, firstServed := calls.Load(), time.Duration(served.Load())
	var warm []time.Duration
	calls.Store(0)
	served.Store(0)
	for i := 0; i < *runs; i++ {
		warm = append(warm, timed(repo, planqBin, args...))
	}
	warmCalls := calls.Load()
	fmt.Printf("search through an embeddings endpoint, 2,000 records: first %s (%d calls, the endpoint's own time %s: %s of planq's a call); warm median %s (%.0f calls a search)\n",
		ms(first), firstCalls, ms(firstServed), ms((first-firstServed)/time.Duration(max(firstCalls, 1))), ms(median(warm)), float64(warmCalls)/float64(*runs))
	return true
}
