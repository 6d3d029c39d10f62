package project

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSearchConfigReads: search: reads with its defaults, survives a
// rewrite of the config, and is absent from a config that has none.
func TestSearchConfigReads(t *testing.T) {
	c, err := ParseConfig("config", []byte("project: demo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Search.ModelName() != "default" || c.Search.Endpoint != nil {
		t.Errorf("no search: read as %+v", c.Search)
	}
	if out, err := c.Marshal(); err != nil || strings.Contains(strings.SplitN(string(out), "\nproject:", 2)[1], "search") {
		t.Errorf("a config without search: writes one: %v\n%s", err, out)
	}

	text := "project: demo\nsearch:\n  model: none\n  endpoint:\n    url: http://localhost:11434/v1\n    model: nomic-embed-text\n    key_env: OLLAMA_KEY\n    timeout: 500ms\n"
	c, err = ParseConfig("config", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e := c.Search.Endpoint
	if c.Search.ModelName() != "none" || e == nil || e.URL != "http://localhost:11434/v1" || e.Model != "nomic-embed-text" || e.KeyEnv != "OLLAMA_KEY" ||
		e.TimeoutOrDefault() != 500*time.Millisecond {
		t.Fatalf("search: read as %+v, endpoint %+v", c.Search, e)
	}
	out, err := c.Marshal()
	if err != nil || !strings.Contains(string(out), "timeout: 500ms") {
		t.Fatalf("marshal: %v\n%s", err, out)
	}
	if again, err := ParseConfig("config", out); err != nil || !reflect.DeepEqual(again, c) {
		t.Errorf("a rewrite changed search: %+v, %v", again, err)
	}

	c, err = ParseConfig("config", []byte("project: demo\nsearch:\n  endpoint:\n    url: https://api.example.com/v1/\n    model: m\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Search.Endpoint.TimeoutOrDefault() != DefaultSearchTimeout || c.Search.ModelName() != "default" {
		t.Errorf("defaults: %+v", c.Search)
	}
	for _, model := range []string{"default", "minishlab/potion-base-8M", "./models/mine", "/opt/m2v"} {
		c, err := ParseConfig("config", []byte("project: demo\nsearch:\n  model: "+model+"\n"))
		if err != nil || c.Search.ModelName() != model {
			t.Errorf("model: %s read as %q, %v", model, c.Search.ModelName(), err)
		}
	}
}

// TestSearchConfigRefuses: what search: cannot act on is an error that
// names the line where it can, and never repeats a key.
func TestSearchConfigRefuses(t *testing.T) {
	endpoint := func(lines ...string) string {
		return "project: demo\nsearch:\n  endpoint:\n" + "    " + strings.Join(lines, "\n    ") + "\n"
	}
	for _, bad := range []struct{ text, want string }{
		{endpoint("url: ftp://host/v1", "model: m"), `config: line 4: search: endpoint: url: "ftp://host/v1" is not an http or https URL`},
		{endpoint("url: localhost:11434/v1", "model: m"), `line 4: search: endpoint: url: "localhost:11434/v1" is not an http or https URL`},
		{endpoint("model: m", "url: http:///v1"), `line 5: search: endpoint: url: "http:///v1" names no host`},
		{endpoint("url: https://me:sk-secret@api.example.com/v1", "model: m"), `line 4: search: endpoint: url: "https://api.example.com/v1" carries a user or a key`},
		{endpoint("url: https://api.example.com/v1?key=sk-secret", "model: m"), `line 4: search: endpoint: url: "https://api.example.com/v1" has a query`},
		{endpoint("url: [a, b]", "model: m"), `line 4: search: endpoint: url: the url is not a URL`},
		{endpoint("url: http://h/v1", "model: m", "timeout: 0s"), `line 6: search: endpoint: timeout: "0s" is not a time bound above zero`},
		{endpoint("url: http://h/v1", "model: m", "timeout: -2s"), `line 6: search: endpoint: timeout: "-2s" is not a time bound above zero`},
		{endpoint("url: http://h/v1", "model: m", "timeout: 2"), `line 6: search: endpoint: timeout: "2" is not a time bound`},
		{endpoint("url: http://h/v1", "model: m", "timeout: 2h"), `"2h" is not a time bound above zero and at most 1m0s`},
		{endpoint("url: http://h/v1", "model: m", "key_env: sk-secret-123"), `line 6: search: endpoint: key_env: is not the name of an environment variable`},
		{endpoint("url: http://h/v1", "model: m", "key: x"), `line 6: unknown key "key" (known: url, model, key_env, timeout)`},
		{endpoint("url: http://h/v1"), `search: endpoint: has no model`},
		{endpoint("model: m"), `search: endpoint: has no url`},
		{"project: demo\nsearch:\n  model: owner/m\n  endpoint:\n    url: http://h/v1\n    model: m\n", `search: names both the model "owner/m" and an endpoint`},
		{"project: demo\nsearch:\n  models: x\n", `line 3: unknown key "models" (known: model, endpoint)`},
		{"project: demo\nsearch: default\n", `line 2: wrong type: text where a mapping (model, endpoint) belongs`},
		{"project: demo\nsearch:\n  endpoint: http://h/v1\n", `line 3: wrong type: text where a mapping (url, model, key_env, timeout) belongs`},
	} {
		_, err := ParseConfig("config", []byte(bad.text))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%q: the error repeats the key: %v", bad.text, err)
		}
	}
}

// FuzzSearchConfig: a search: section either is refused or reads as one
// that planq can act on: an endpoint with an http(s) URL and a model, a
// time bound within its limits.
func FuzzSearchConfig(f *testing.F) {
	for _, seed := range []string{"model: none", "endpoint: {url: http://h/v1, model: m, timeout: 2s}", "endpoint: {url: 'https://u:p@h', model: m}",
		"endpoint: {url: http://h, model: m, timeout: 0}", "endpoint: {url: http://h, model: m, key_env: K}", "model: [x]"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, section string) {
		c, err := ParseConfig("config", []byte("project: demo\nsearch:\n  "+strings.ReplaceAll(section, "\n", "\n  ")+"\n"))
		if err != nil || c.Search.Endpoint == nil {
			return
		}
		e := c.Search.Endpoint
		u := strings.ToLower(string(e.URL))
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.TrimSpace(e.Model) == "" {
			t.Fatalf("%q read as an endpoint planq cannot call: %+v", section, e)
		}
		if d := e.TimeoutOrDefault(); d <= 0 || d > MaxSearchTimeout {
			t.Fatalf("%q read as a time bound of %s", section, d)
		}
	})
}
