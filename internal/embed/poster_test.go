//go:build unix

package embed

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeServer puts on PATH a planq-server that runs the shell script body,
// and returns the file that counts its starts, a line each.
func fakeServer(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	script := "#!/bin/sh\necho started >> '" + starts + "'\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(dir, "planq-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(func() {
		viaServer.mu.Lock()
		defer viaServer.mu.Unlock()
		if viaServer.cmd != nil {
			viaServer.stop()
		}
	})
	return starts
}

func startsOf(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestOnePlanqServerServesEveryPost: the posts of one process go through
// one planq-server, each answered in turn.
func TestOnePlanqServerServesEveryPost(t *testing.T) {
	starts := fakeServer(t, `while read -r line; do echo '{"status":200,"length":2,"body":"b2s="}'; done`)
	for i := range 3 {
		status, _, body, _, err := PostViaServer(context.Background(), PostRequest{URL: "http://endpoint.invalid/v1", Limit: 10})
		if err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		data, _ := io.ReadAll(body)
		if status != 200 || string(data) != "ok" {
			t.Fatalf("post %d: status %d, body %q; want 200 and ok", i, status, data)
		}
	}
	if n := startsOf(t, starts); n != 1 {
		t.Fatalf("planq-server started %d times for 3 posts, want once", n)
	}
}

// TestAPlanqServerThatFailsIsStartedAgain: a planq-server that ends
// without answering fails the post with what it said, and the next post
// starts another.
func TestAPlanqServerThatFailsIsStartedAgain(t *testing.T) {
	starts := fakeServer(t, `read -r line; echo 'it broke' >&2; exit 3`)
	for i := range 2 {
		_, _, _, _, err := PostViaServer(context.Background(), PostRequest{URL: "http://endpoint.invalid/v1", Limit: 10})
		if err == nil || !strings.Contains(err.Error(), "it broke") {
			t.Fatalf("post %d: %v; want planq-server's failure told", i, err)
		}
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("planq-server started %d times, want 2: once for each failed post", n)
	}
}

// TestAPostGivenUpStopsItsPlanqServer: a post whose time runs out returns
// at once, and the planq-server that was making it is stopped, not left
// answering into nothing.
func TestAPostGivenUpStopsItsPlanqServer(t *testing.T) {
	starts := fakeServer(t, `while read -r line; do sleep 10; done`)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, _, _, _, err := PostViaServer(ctx, PostRequest{URL: "http://endpoint.invalid/v1", Limit: 10})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a post past its time: %v, want context.DeadlineExceeded", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("the post took %s to give up", took)
	}
	viaServer.mu.Lock()
	running := viaServer.cmd != nil
	viaServer.mu.Unlock()
	if running {
		t.Fatal("the planq-server of the given-up post is still kept")
	}
	_, _, _, _, _ = PostViaServer(ctx, PostRequest{URL: "http://endpoint.invalid/v1", Limit: 10})
	if n := startsOf(t, starts); n != 1 {
		t.Fatalf("planq-server started %d times; a post with no time left must start none", n)
	}
}
