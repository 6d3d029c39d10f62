// Package netpost is planq's HTTP client: the one package that links Go's
// net/http (and TLS), which only planq-server carries. planq starts afresh
// for every hook and agent call, and net/http's initialisation would cost
// each of those starts; planq reaches the network through planq-server
// (internal/embed's Network).
package netpost

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// client follows no redirect: one could send an endpoint's texts and its
// key to another host (a cloud's metadata address, say). The answer is
// returned as it is, its Location told, for the caller to refuse.
var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// Post posts body to address with header and returns the answer's status,
// its length (-1: not said), its body, which the caller closes, and where a
// redirect pointed (resolved against address; "" for none).
func Post(ctx context.Context, address string, header map[string]string, body io.Reader) (status int, length int64, answer io.ReadCloser, location string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, address, body)
	if err != nil {
		return 0, 0, nil, "", fmt.Errorf("failed to build the request: %w", err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, nil, "", err
	}
	if loc, lerr := resp.Location(); lerr == nil {
		location = loc.String()
	}
	return resp.StatusCode, resp.ContentLength, resp.Body, location, nil
}

// Get gets address, with bearer as its Authorization when it is not "",
// and returns the answer's status, its length (-1: not said) and its body,
// which the caller closes. Redirects are followed: a hub serves its files
// from elsewhere.
func Get(ctx context.Context, address, bearer string) (status int, length int64, body io.ReadCloser, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("failed to build the request: %w", err)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, nil, err
	}
	return resp.StatusCode, resp.ContentLength, resp.Body, nil
}
