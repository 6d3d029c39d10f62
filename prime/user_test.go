package prime

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// userLayer is what a user layer gives a session: two preferences, and a
// learning and a decision found for the project's stack.
func userLayer() UserLayer {
	found := learning("pq-u3", "go", changelog.TypeConvention, "Wrap errors with %w and say what failed")
	return UserLayer{
		Preferences: []*changelog.Record{
			learning("pq-u1", PreferencesDomain, changelog.TypeConvention, "Answer in British English"),
			learning("pq-u2", PreferencesDomain, changelog.TypePattern, "Table-driven tests, one t.Run per case"),
		},
		PreferencesTotal: 2,
		Stack:            []string{"go", "cobra"},
		Relevant: []readmodel.Hit{
			{ID: found.ID, Path: found.Path, Kind: changelog.KindLearning, Agent: "user", Time: t0, Title: found.Title()},
			{ID: "pq-u4", Path: "decisions/pq-u4.md", Kind: changelog.KindDecision, Agent: "user", Time: t0, Title: "Use cobra for every CLI"},
		},
	}
}

// TestUserLayerItemsAreLabelled: the user layer's preferences and records
// render in sections that name it, each marked as the user layer's in the
// document, after what is relevant to the task; none counts as a use of
// the project's records.
func TestUserLayerItemsAreLabelled(t *testing.T) {
	in := full()
	in.User = userLayer()
	doc := build(t, in, Options{})
	want := []string{"Handoff", "Focus", "Plan", "Branch", "Relevant to your task", sectionUserPreferences, sectionUser, "Learnings", "Decisions", "Your recent work", "Other agents", "Recording"}
	if got := sectionsOf(doc); !slices.Equal(got, want) {
		t.Errorf("sections\n got %q\nwant %q", got, want)
	}
	var user []string
	for _, it := range doc.Items {
		fromUser := it.Section == sectionUserPreferences || it.Section == sectionUser
		if fromUser != (it.Layer == LayerUser) {
			t.Errorf("item %q of %s is marked layer %q", it.Text, it.Section, it.Layer)
		}
		if fromUser {
			user = append(user, it.Text)
		}
	}
	wantUser := []string{
		"[preferences/convention] Answer in British English — pq-u1",
		"[preferences/pattern] Table-driven tests, one t.Run per case — pq-u2",
		"Wrap errors with %w and say what failed (learning, 2026-11-02) — " + in.User.Relevant[0].ID,
		"Use cobra for every CLI (decision, 2026-11-02) — pq-u4",
	}
	if !slices.Equal(user, wantUser) {
		t.Errorf("user layer items\n got %q\nwant %q", user, wantUser)
	}
	for _, id := range doc.Shown() {
		if strings.HasPrefix(id, "pq-u") {
			t.Errorf("the user layer's %s counted as a use of the project's records", id)
		}
	}
	if !strings.Contains(doc.Text, "\n## Your preferences (from your user layer)\n- [preferences/convention] Answer in British English — pq-u1\n") {
		t.Errorf("markdown has no labelled section of preferences:\n%s", doc.Text)
	}
	js := build(t, in, Options{Format: "json"})
	var out struct {
		Sections []section `json:"sections"`
	}
	if err := json.Unmarshal([]byte(js.Text), &out); err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range out.Sections {
		titles = append(titles, s.Title)
	}
	if !slices.Contains(titles, sectionUser) || !slices.Contains(titles, sectionUserPreferences) {
		t.Errorf("the JSON form's sections %q do not name the user layer", titles)
	}
	items, err := json.Marshal(doc.Items)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(items), `"layer":"user"`); n != len(wantUser) {
		t.Errorf("%d items marked \"layer\":\"user\" in the document's JSON, want %d", n, len(wantUser))
	}
}

// TestBudgetDropsTheUserLayerBeforeTheProjectsImportantItems: whatever the
// budget, no item of the project's up to its conventions and patterns is
// dropped while one of the user layer's is kept; the user layer's
// preferences outlast the project's decisions and recent work; and the
// closing says how many of the items left out are the user layer's, with
// the commands that read them.
func TestBudgetDropsTheUserLayerBeforeTheProjectsImportantItems(t *testing.T) {
	in := full()
	for i := range 30 {
		in.Summary.Team = append(in.Summary.Team, learning(fmt.Sprintf("pq-p%02d", i), "api", changelog.TypePattern, fmt.Sprintf("Project pattern %d, with words enough to fill a line of the index", i)))
	}
	in.Summary.TeamTotal = len(in.Summary.Team)
	in.User = userLayer()
	for i := range 3 { // items larger than the closing line that dropping them adds
		in.User.Relevant = append(in.User.Relevant, readmodel.Hit{ID: fmt.Sprintf("pq-v%d", i), Kind: changelog.KindLearning, Time: t0,
			Title: fmt.Sprintf("User learning %d: %s", i, strings.Repeat("a record of the user layer that says a lot ", 3))})
	}
	whole := build(t, in, Options{Budget: 1 << 20})
	// The project's important items: its learnings down to its conventions
	// and patterns, and all it says of the task.
	important := readmodel.Priority(learning("pq-x", "api", changelog.TypePattern, "x"))
	sawUserDropped := false
	for budget := len(whole.Text); budget > 1000; budget -= 11 {
		doc := build(t, in, Options{Budget: budget})
		var userDropped, userKept int
		var prefDropped, recordDropped bool
		for _, it := range doc.Items {
			if it.Layer == LayerUser {
				if it.Dropped {
					userDropped++
					prefDropped = prefDropped || it.Section == sectionUserPreferences
					recordDropped = recordDropped || it.Section == sectionUser
				} else {
					userKept++
				}
			}
		}
		for _, it := range doc.Items {
			switch {
			case it.Layer == LayerUser:
			case it.Dropped && it.Priority > 0 && it.Priority <= important && userKept > 0:
				t.Errorf("budget %d: dropped the project's %s/%d %q while keeping %d items of the user layer", budget, it.Section, it.Priority, it.Text, userKept)
			case !it.Dropped && prefDropped && slices.Contains([]string{"Decisions", "Your recent work", "Other agents"}, it.Section):
				t.Errorf("budget %d: kept the project's %s %q but dropped a preference of the user layer", budget, it.Section, it.Text)
			case !it.Dropped && recordDropped && slices.Contains([]string{"Your recent work", "Other agents"}, it.Section):
				t.Errorf("budget %d: kept the project's %s %q but dropped a record of the user layer", budget, it.Section, it.Text)
			}
		}
		note := fmt.Sprintf("%d items left out are from your user layer. 'planq search --scope user WORDS' finds them, 'planq user list' lists them.", userDropped)
		if userDropped == 1 {
			note = strings.Replace(note, "1 items left out are", "1 item left out is", 1)
		}
		if got := strings.Contains(doc.Text, note); got != (userDropped > 0) {
			t.Errorf("budget %d: %d items of the user layer dropped, closing says %q: %v\n%s", budget, userDropped, note, got, doc.Text)
		}
		sawUserDropped = sawUserDropped || userDropped == len(in.User.Preferences)+len(in.User.Relevant)
	}
	if !sawUserDropped {
		t.Error("no budget dropped the whole user layer: the test proves nothing")
	}
}

// TestUserPreferencesBeyondTheLimitAreCounted: past MaxUserPreferences,
// the preferences not listed are counted in the closing, which says how to
// read them, even when nothing was dropped for the budget.
func TestUserPreferencesBeyondTheLimitAreCounted(t *testing.T) {
	in := &Input{Summary: summary()}
	for i := range MaxUserPreferences {
		in.User.Preferences = append(in.User.Preferences, learning(fmt.Sprintf("pq-u%02d", i), PreferencesDomain, changelog.TypeConvention, fmt.Sprintf("Preference %d", i)))
	}
	in.User.PreferencesTotal = MaxUserPreferences + 7
	doc := build(t, in, Options{})
	if doc.Dropped() != 0 {
		t.Fatalf("%d items dropped under the default budget", doc.Dropped())
	}
	want := "7 more preferences in your user layer are not listed. 'planq search --scope user WORDS' finds them, 'planq user list' lists them.\n"
	if !strings.HasSuffix(doc.Text, "\n"+want) {
		t.Errorf("closing is not %q:\n%s", want, doc.Text)
	}
	if n := strings.Count(doc.Text, "[preferences/convention] Preference"); n != MaxUserPreferences {
		t.Errorf("%d preferences listed, want %d", n, MaxUserPreferences)
	}
}
