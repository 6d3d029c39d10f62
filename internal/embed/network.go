package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/internal/platform"
)

// Net is how this process reaches the network: an embeddings endpoint's
// calls, a model's download. planq links no HTTP client (net/http and TLS
// would cost every one of its starts their initialisation): planq-server
// sets Network to its own (internal/netpost), and planq, whose Network is
// the zero Net, posts through planq-server (PostViaServer) and hands
// 'model fetch' to it.
type Net struct {
	// Post posts body to address with header: the answer's status, its
	// length (-1: not said), its body, and where a redirect pointed.
	Post func(ctx context.Context, address string, header map[string]string, body io.Reader) (status int, length int64, answer io.ReadCloser, location string, err error)
	// Get gets address (bearer: its key, "" for none), following
	// redirects: the answer's status, its length (-1: not said) and body.
	Get func(ctx context.Context, address, bearer string) (status int, length int64, body io.ReadCloser, err error)
}

// Network is this process's Net; see Net.
var Network Net

// post is Network.Post, else PostViaServer.
func post(ctx context.Context, address string, header map[string]string, body []byte, limit int64) (int, int64, io.ReadCloser, string, error) {
	if Network.Post != nil {
		return Network.Post(ctx, address, header, bytes.NewReader(body))
	}
	return PostViaServer(ctx, PostRequest{URL: address, Header: header, Body: body, Limit: limit})
}

// PostRequest is one post planq asks planq-server to make ('planq-server
// post' reads them on stdin, one after another).
type PostRequest struct {
	URL    string            `json:"url"`
	Header map[string]string `json:"header,omitempty"`
	Body   []byte            `json:"body"`
	// Limit is the most bytes of the answer planq reads; planq-server
	// sends one more, so that planq sees it was more.
	Limit int64 `json:"limit"`
	// Timeout is what is left of the caller's time.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// PostAnswer is what planq-server answers ('planq-server post' writes one
// on stdout for each PostRequest): the endpoint's answer, or why there was
// none.
type PostAnswer struct {
	Status   int    `json:"status,omitempty"`
	Length   int64  `json:"length"`
	Body     []byte `json:"body,omitempty"`
	Location string `json:"location,omitempty"`
	// Failed says why no answer came; TimedOut, that the time ran out.
	Failed   string `json:"failed,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// PostViaServer makes req through planq-server, a process of its own:
// what planq's Network is when it is planq. The answer's body is read
// whole (at most Limit and one byte), its status and redirect as they
// came; no answer is an error, context.DeadlineExceeded when the time ran
// out. One planq-server serves every post of this process (a vector build
// posts once a batch): it starts with the first and ends with this
// process, whose end closes its stdin.
func PostViaServer(ctx context.Context, req PostRequest) (int, int64, io.ReadCloser, string, error) {
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = time.Until(deadline)
	}
	ans, err := viaServer.post(ctx, req)
	switch {
	case err != nil:
		return 0, 0, nil, "", err
	case ans.TimedOut:
		return 0, 0, nil, "", fmt.Errorf("%s: %w", ans.Failed, context.DeadlineExceeded)
	case ans.Failed != "":
		return 0, 0, nil, "", errors.New(ans.Failed)
	}
	return ans.Status, ans.Length, io.NopCloser(bytes.NewReader(ans.Body)), ans.Location, nil
}

// viaServer is this process's planq-server for posts.
var viaServer poster

// poster is a 'planq-server post' kept running: it reads one PostRequest
// after another on its stdin and answers each with a PostAnswer on its
// stdout, one at a time.
type poster struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	stderr *lockedBuffer
}

type posted struct {
	ans PostAnswer
	err error
}

// post sends req and waits for its answer, or for ctx: a post given up
// on, or a planq-server that failed, is stopped, and the next post starts
// another.
func (p *poster) post(ctx context.Context, req PostRequest) (PostAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return PostAnswer{}, err // no time left to start one
	}
	if p.cmd == nil {
		if err := p.start(); err != nil {
			return PostAnswer{}, err
		}
	}
	in, out := p.in, p.out
	done := make(chan posted, 1)
	go func() {
		var r posted
		if r.err = json.NewEncoder(in).Encode(req); r.err == nil {
			r.err = out.Decode(&r.ans)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.err != nil {
			p.stop() // and so its stderr is all read
			why := strings.TrimSpace(p.stderr.String())
			return PostAnswer{}, fmt.Errorf("%s post: %w: %s", platform.ServerProgramName, r.err, why)
		}
		return r.ans, nil
	case <-ctx.Done():
		p.stop()
		return PostAnswer{}, ctx.Err()
	}
}

func (p *poster) start() error {
	bin, err := platform.ServerProgram()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, "post")
	p.stderr = &lockedBuffer{}
	cmd.Stderr = p.stderr
	// A stopped planq-server whose stderr something else still holds
	// open must not hold up the post that stopped it.
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("failed to start %s post: %w", platform.ServerProgramName, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("failed to start %s post: %w", platform.ServerProgramName, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("failed to start %s post: %w", platform.ServerProgramName, err)
	}
	p.cmd, p.in, p.out = cmd, in, json.NewDecoder(out)
	return nil
}

// stop ends the planq-server, whatever it was doing.
func (p *poster) stop() {
	_ = p.in.Close()
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	p.cmd, p.in, p.out = nil, nil, nil
}

// lockedBuffer is planq-server's stderr, written by exec's copying while a
// failed post reads it; it keeps the first maxStderr bytes, for the
// planq-server serves a whole process.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(data []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxStderr - b.buf.Len(); room > 0 {
		b.buf.Write(data[:min(len(data), room)])
	}
	return len(data), nil
}

const maxStderr = 64 << 10

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ServePost makes req with post (planq-server's Network.Post) and says
// what came, as PostViaServer reads it: 'planq-server post'.
func ServePost(ctx context.Context, req PostRequest, post func(ctx context.Context, address string, header map[string]string, body io.Reader) (int, int64, io.ReadCloser, string, error)) PostAnswer {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	status, length, body, location, err := post(ctx, req.URL, req.Header, bytes.NewReader(req.Body))
	if err != nil {
		return PostAnswer{Failed: err.Error(), TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded)}
	}
	defer func() { _ = body.Close() }()
	data, err := io.ReadAll(io.LimitReader(body, req.Limit+1))
	if err != nil {
		return PostAnswer{Failed: err.Error(), TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded)}
	}
	return PostAnswer{Status: status, Length: length, Body: data, Location: location}
}
