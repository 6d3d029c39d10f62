// Package fakeembed is an OpenAI-compatible embeddings endpoint for tests
// and benchmarks: each text's vector counts its letters in Dim buckets, so
// texts of the same words are near, and a search through it ranks by
// meaning of a kind a test can foresee.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files and scripts may import (a depguard rule in .golangci.yml).
package fakeembed

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Dim is the dimension of the vectors the endpoint answers with.
const Dim = 8

// Handler answers POST /v1/embeddings ({"input": [texts]}) with a vector
// for each text, and calls answered after each answer; anything else is a
// bad request.
func Handler(answered func()) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "not an embeddings request", http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var ans struct {
			Data []item `json:"data"`
		}
		for i, text := range req.Input {
			v := make([]float64, Dim)
			for _, c := range strings.ToLower(text) {
				if c >= 'a' && c <= 'z' {
					v[(c-'a')%Dim]++
				}
			}
			ans.Data = append(ans.Data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(ans)
		answered()
	})
}
