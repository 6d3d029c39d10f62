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
// post' reads it on stdin).
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

// PostAnswer is what planq-server answers ('planq-server post' writes it
// on stdout): the endpoint's answer, or why there was none.
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
// out.
func PostViaServer(ctx context.Context, req PostRequest) (int, int64, io.ReadCloser, string, error) {
	bin, err := platform.ServerProgram()
	if err != nil {
		return 0, 0, nil, "", err
	}
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = time.Until(deadline)
	}
	in, err := json.Marshal(req)
	if err != nil {
		return 0, 0, nil, "", fmt.Errorf("failed to encode the post: %w", err)
	}
	cmd := exec.CommandContext(ctx, bin, "post")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return 0, 0, nil, "", ctx.Err()
	}
	if err != nil {
		return 0, 0, nil, "", fmt.Errorf("%s post: %w: %s", platform.ServerProgramName, err, strings.TrimSpace(stderr.String()))
	}
	var ans PostAnswer
	if err := json.Unmarshal(out, &ans); err != nil {
		return 0, 0, nil, "", fmt.Errorf("%s post answered what planq does not read: %w", platform.ServerProgramName, err)
	}
	switch {
	case ans.TimedOut:
		return 0, 0, nil, "", fmt.Errorf("%s: %w", ans.Failed, context.DeadlineExceeded)
	case ans.Failed != "":
		return 0, 0, nil, "", errors.New(ans.Failed)
	}
	return ans.Status, ans.Length, io.NopCloser(bytes.NewReader(ans.Body)), ans.Location, nil
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
