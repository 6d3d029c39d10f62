package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testgit"
)

// TestUIServesUntilInterrupted runs planq ui: it prints its URL with the
// token on stdout, opens no browser when stdout is no terminal, answers
// with the token and refuses without, and exits 0 when interrupted.
func TestUIServesUntilInterrupted(t *testing.T) {
	testgit.Isolate(t)
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, dir, "init", "-q")
	testgit.Run(t, dir, "commit", "-q", "--allow-empty", "-m", "init")
	for _, args := range [][]string{{"init", "--project", "demo"}, {"create", "auth", "--here"}, {"note", "overlay tests need --race"}} {
		var stderr bytes.Buffer
		if code := Run(context.Background(), append([]string{"-C", dir}, args...), strings.NewReader(""), io.Discard, &stderr); code != 0 {
			t.Fatalf("planq %v: exit %d\n%s", args, code, stderr.String())
		}
	}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	out, stdout := io.Pipe()
	var stderr bytes.Buffer
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, []string{"-C", dir, "ui"}, strings.NewReader(""), stdout, &stderr, launch{servers: &testServers})
		_ = stdout.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL on stdout: %v\n%s", err, stderr.String())
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/?token=") {
		t.Fatalf("URL %q", url)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	client := &http.Client{Timeout: 10 * time.Second}
	res, err := client.Get(url + "&state=raw")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), "overlay tests need --race") {
		t.Errorf("the page: %d\n%s", res.StatusCode, page)
	}
	res, err = client.Get(strings.SplitN(url, "?", 2)[0] + "api/learnings/demo/proposals")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the API without the token: %d, want 401", res.StatusCode)
	}
	interrupt()
	select {
	case code := <-exited:
		if code != ExitOK && code != ExitInterrupted {
			t.Errorf("planq ui exited %d when interrupted\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("planq ui did not stop when interrupted")
	}
	if strings.Contains(stderr.String(), "could not open a browser") {
		t.Error("planq ui tried to open a browser with stdout not a terminal")
	}
}
