package userlayer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/project"
)

func TestMain(m *testing.M) { os.Exit(testgit.RunIsolated(m)) }

func TestOpenMakesTheLayerOnceAndItHoldsRecords(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	if Exists(home) {
		t.Fatal("a layer exists before anything made it")
	}
	if _, ok, err := OpenExisting(ctx, home); err != nil || ok {
		t.Fatalf("OpenExisting on nothing = ok %v, %v; want no layer and no error", ok, err)
	}
	l, err := Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Created {
		t.Error("the first Open did not report that it made the layer")
	}
	want := filepath.Join(home, "state-repos", project.UserLayerName+".git")
	if got := l.Project.StateRepo(); got != want {
		t.Errorf("state repository = %s, want %s", got, want)
	}
	rec, err := changelog.NewLearning(changelog.LearningInput{Text: "Prefers table-driven tests with t.Run names in snake case", Type: "convention", Domain: "preferences"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.CommitGlobal(ctx, agent.GlobalChange{Writer: "user", Records: []*changelog.Record{rec}, Message: "learn"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	again, ok, err := OpenExisting(ctx, home)
	if err != nil || !ok {
		t.Fatalf("OpenExisting after Open = ok %v, %v", ok, err)
	}
	defer again.Close()
	if again.Created {
		t.Error("opening an existing layer reported making it")
	}
	set, err := again.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		t.Fatal(err)
	}
	recs := set.Current()
	if len(recs) != 1 || recs[0].Domain != "preferences" {
		t.Fatalf("the layer holds %+v, want the one preference", recs)
	}
}

func TestNoProjectCanTakeTheLayersName(t *testing.T) {
	err := project.ValidateName("project", project.UserLayerName)
	if err == nil {
		t.Fatalf("project name %q was accepted", project.UserLayerName)
	}
	if _, err := project.ParseConfig("c", []byte("project: "+project.UserLayerName+"\n")); err == nil {
		t.Fatal("a .planq/config naming the user layer was accepted")
	}
}

func TestUserConfigRoundTripsAndRefusesUnknownKeys(t *testing.T) {
	home := t.TempDir()
	if err := project.SaveUserConfig(home, project.UserConfig{Remote: "/srv/me/planq-user.git"}); err != nil {
		t.Fatal(err)
	}
	p, err := project.UserLayer(home)
	if err != nil {
		t.Fatal(err)
	}
	if p.Config.Remote != "/srv/me/planq-user.git" || !p.IsUserLayer() {
		t.Fatalf("user layer = %+v", p.Config)
	}
	if err := os.WriteFile(filepath.Join(home, project.UserConfigFile), []byte("remote: x\nbogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := project.UserLayer(home); err == nil {
		t.Fatal("an unknown key in user.yaml was accepted")
	}
}
