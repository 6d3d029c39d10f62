package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/planq-dev/planq/hooks"
)

// randomSettings builds a settings document the way people write them: some
// keys, nested objects, maybe their own hook groups and MCP servers, compact
// or indented, with or without a final newline.
func randomSettings(rng *rand.Rand) []byte {
	doc := map[string]any{}
	for i := 0; i < rng.Intn(5); i++ {
		doc[fmt.Sprintf("key%d", rng.Intn(100))] = rng.Intn(1000)
	}
	if rng.Intn(2) == 0 {
		groups := map[string]any{}
		for _, ev := range []string{"SessionStart", "PostToolUse", "PreCompact"} {
			if rng.Intn(2) == 0 {
				groups[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "./own-" + ev}}}}
			}
		}
		if rng.Intn(3) == 0 || len(groups) == 0 {
			// An empty container the user wrote and planq filled cannot be
			// told from one planq made: remove would drop it. Not generated.
			groups["enabled"] = true
		}
		doc["hooks"] = groups
	}
	if rng.Intn(2) == 0 {
		doc["mcpServers"] = map[string]any{"other": map[string]any{"command": "other"}}
	}
	var data []byte
	if rng.Intn(2) == 0 {
		data, _ = json.MarshalIndent(doc, "", strings.Repeat(" ", 1+rng.Intn(4)))
	} else {
		data, _ = json.Marshal(doc)
	}
	if rng.Intn(2) == 0 {
		data = append(data, '\n')
	}
	return data
}

// TestJSONEntriesRoundTrip: for random settings, install adds planq's
// entries and keeps every other value, installing twice changes nothing, and
// remove gives back the original bytes.
func TestJSONEntriesRoundTrip(t *testing.T) {
	hooks.JSON = Editor{}
	t.Cleanup(func() { hooks.JSON = nil })
	edits := []hooks.JSONEntries{}
	for _, agent := range []string{"claude", "gemini", "codex", "copilot", "opencode"} {
		recipe, err := hooks.Recipe(agent, hooks.Target{Root: "/project"})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range recipe {
			if j, ok := e.(hooks.JSONEntries); ok {
				edits = append(edits, j)
			}
		}
	}
	for seed := int64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		orig := randomSettings(rng)
		for _, e := range edits {
			installed, err := e.Install(orig, true)
			if err != nil {
				t.Fatalf("seed %d %s: install: %v\n%s", seed, e.Path, err, orig)
			}
			if !json.Valid(installed) {
				t.Fatalf("seed %d %s: install wrote invalid JSON:\n%s", seed, e.Path, installed)
			}
			// planq's own entries are there: an install that changed nothing
			// would pass every check below.
			for path := range e.Members {
				if !gjson.GetBytes(installed, path).Exists() {
					t.Fatalf("seed %d %s: install did not set %s:\n%s", seed, e.Path, path, installed)
				}
			}
			for path := range e.Elements {
				found := false
				for _, el := range gjson.GetBytes(installed, path).Array() {
					found = found || strings.Contains(el.Raw, "planq hook ")
				}
				if !found {
					t.Fatalf("seed %d %s: install did not add planq's hook to %s:\n%s", seed, e.Path, path, installed)
				}
			}
			var before, after map[string]any
			_ = json.Unmarshal(orig, &before)
			_ = json.Unmarshal(installed, &after)
			for k, v := range before {
				if k == "hooks" || k == "mcpServers" || k == "servers" || k == "mcp" {
					continue // planq adds beside these; checked below
				}
				if fmt.Sprint(after[k]) != fmt.Sprint(v) {
					t.Fatalf("seed %d %s: install changed %q", seed, e.Path, k)
				}
			}
			for _, own := range []string{"./own-SessionStart", "./own-PostToolUse", "./own-PreCompact", `"other"`} {
				if bytes.Contains(orig, []byte(own)) && !bytes.Contains(installed, []byte(own)) {
					t.Fatalf("seed %d %s: install lost the user's %s", seed, e.Path, own)
				}
			}
			again, err := e.Install(installed, true)
			if err != nil || !bytes.Equal(again, installed) {
				t.Fatalf("seed %d %s: installing twice changed the file (%v):\n%s\n---\n%s", seed, e.Path, err, installed, again)
			}
			removed, _, err := e.Remove(installed)
			if err != nil {
				t.Fatalf("seed %d %s: remove: %v", seed, e.Path, err)
			}
			if !bytes.Equal(removed, orig) {
				t.Fatalf("seed %d %s: remove did not restore the file\noriginal:\n%s\nremoved:\n%s", seed, e.Path, orig, removed)
			}
		}
	}
}
