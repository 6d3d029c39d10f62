package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testproject"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// inUse is the name of the model marked in use, "" if none.
func inUse(models []session.Model) string {
	for _, m := range models {
		if m.InUse {
			return m.Name
		}
	}
	return ""
}

// TestModelsThroughTheService: the models fetched under $PLANQ_HOME are
// listed, and not what else is there (tables converted from models, a
// download under way); the one in use is the default outside a project and
// the one search: names in one.
func TestModelsThroughTheService(t *testing.T) {
	p := testproject.New(t, nil)
	outside := serviceAt(t, t.TempDir())
	home, err := outside.Home()
	if err != nil {
		t.Fatal(err)
	}
	models := filepath.Join(home, "models")
	for path, content := range map[string]string{
		"owner/tiny/model.safetensors":    "weights",
		"owner/tiny/tokenizer.json":       "{}",
		"owner/.fetch-next-1/config.json": "{}",
		".tables/0123-4567.pqemb":         "table",
	} {
		full := filepath.Join(models, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	list, err := outside.Models()
	if err != nil || list.Unusable != nil || len(list.Models) != 2 || inUse(list.Models) != session.ModelDefault {
		t.Fatalf("outside a project: %+v, %v", list, err)
	}
	if tiny := list.Models[1]; tiny.Name != "owner/tiny" || tiny.Kind != "hub" || tiny.Bytes != 9 || tiny.Dir != filepath.Join(models, "owner", "tiny") {
		t.Errorf("the fetched model: %+v", tiny)
	}

	config := filepath.Join(p.Code, ".planq", "config")
	for model, want := range map[string]string{"owner/tiny": "owner/tiny", "none": "none", "owner/absent": ""} {
		if err := os.WriteFile(config, []byte("project: demo\nsearch:\n  model: "+model+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		list, err := serviceAt(t, p.Code).Models()
		if err != nil || inUse(list.Models) != want || (want == "") != (list.Unusable != nil) {
			t.Errorf("search: model: %s: %+v, %v; want %q in use", model, list, err, want)
		}
		if c, err := serviceAt(t, p.Code).SearchModel(); (err == nil) != (want != "") || err == nil && c.Name != want {
			t.Errorf("search: model: %s: SearchModel = %+v, %v", model, c, err)
		}
	}
}

// TestFetchModelRefusesANameBeforeAsking: a name that is not the hub's is
// refused before any hub is asked or directory made.
func TestFetchModelRefusesANameBeforeAsking(t *testing.T) {
	testproject.New(t, nil)
	t.Setenv("HF_ENDPOINT", "http://127.0.0.1:9")
	svc := serviceAt(t, t.TempDir())
	if _, err := svc.FetchModel(context.Background(), "../../etc", false); !planqerr.Is(err, planqerr.Invalid) {
		t.Errorf("FetchModel(../../etc) = %v, want refused as invalid", err)
	}
	home, _ := svc.Home()
	if _, err := os.Stat(filepath.Join(home, "models")); !os.IsNotExist(err) {
		t.Errorf("the models directory: %v, want none made", err)
	}
}
