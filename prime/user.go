package prime

import (
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/readmodel"
)

// UserLayer is what the user layer (the person's own records, kept across
// projects) gives a session start: its preferences always, and its other
// learnings and decisions found for this project. session.Project.Prime gathers
// it when the layer exists.
type UserLayer struct {
	// Preferences are its current learnings of domain PreferencesDomain,
	// ranked, at most MaxUserPreferences of PreferencesTotal.
	Preferences      []*changelog.Record
	PreferencesTotal int
	// Stack is what the project is made with (its languages, frameworks and
	// tools), detected from its files: with the agent's task, what Relevant
	// was searched for.
	Stack []string
	// Relevant are its other current learnings and decisions best for the
	// stack and the task, best first, at most MaxUserRelevant.
	Relevant []readmodel.Hit
	// Memories are the files the memory tool keeps in the user layer
	// (memtool --scope user), by path: shown as an index, never their text.
	Memories []readmodel.Memory
}

// Limits of what a session start shows of the user layer.
const (
	// PreferencesDomain is the domain of a person's preferences: every
	// current one is shown, up to MaxUserPreferences.
	PreferencesDomain  = "preferences"
	MaxUserPreferences = 20
	MaxUserRelevant    = 5
)

// LayerUser marks the items that come from the user layer (Item.Layer).
const LayerUser = "user"

// Sections of the user layer's items: their titles say where they come
// from.
const (
	sectionUserPreferences = "Your preferences (from your user layer)"
	sectionUser            = "From your user layer"
)

// What the user layer's items weigh against the project's: its
// preferences rank as the project's conventions and patterns do, its other
// records as the project's decisions; both come after the project's
// items, so that within a priority they are dropped first. So the
// project's own important items (its focus, handoff, plan, task, knowledge
// base, and learnings down to its conventions and patterns) outlast
// everything of the user layer, and a person's preferences outlast the
// project's decisions, recent work and observations.
const (
	userPreferencePriority = 4
	userRecordPriority     = 5
)

// userItems adds the user layer's items to doc.
func userItems(doc *Document, u UserLayer) {
	add := func(section string, priority int, text string) {
		doc.Items = append(doc.Items, Item{Section: section, Priority: priority, Text: text, Layer: LayerUser})
	}
	prefs := u.Preferences[:min(len(u.Preferences), MaxUserPreferences)]
	doc.userMore = max(0, u.PreferencesTotal-len(prefs))
	for _, r := range prefs {
		add(sectionUserPreferences, userPreferencePriority, teachingLine(r)+" — "+r.ID)
	}
	for _, h := range u.Relevant {
		line := readmodel.Shorten(h.Title, 160)
		if r := h.Record(); r != nil {
			line = teachingLine(r)
		}
		add(sectionUser, userRecordPriority, fmt.Sprintf("%s (%s, %s) — %s", line, h.Kind, h.Time.UTC().Format("2006-01-02"), h.ID))
	}
	userMemoryItems(add, u.Memories)
}

// userMemoryItems indexes the user layer's memory files under the user
// layer's section, as the agent's own are (memoryItems): one line each,
// never their text, after the layer's records.
func userMemoryItems(add func(section string, priority int, text string), mems []readmodel.Memory) {
	if len(mems) == 0 {
		return
	}
	intro := fmt.Sprintf("Your memory files in the user layer: %s (the memory tool with --scope user reads them; planq search --scope user WORDS finds them).",
		plural.Of(len(mems), "file"))
	if more := len(mems) - MaxMemoryIndex; more > 0 {
		intro += fmt.Sprintf(" %s not listed.", plural.Of(more, "more file"))
	}
	add(sectionUser, userRecordPriority, intro)
	for _, m := range mems[:min(len(mems), MaxMemoryIndex)] {
		add(sectionUser, userRecordPriority+1, memoryLine(m))
	}
}

// userClosing says what of the user layer was left out, and how to read
// it: the layer's records are no project's, so planq get does not reach
// them.
func (d *Document) userClosing() string {
	dropped := 0
	for _, it := range d.Items {
		if it.Dropped && it.Layer == LayerUser {
			dropped++
		}
	}
	var parts []string
	if dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s left out %s from your user layer.", plural.Of(dropped, "item"), plural.Pick(dropped, "is", "are")))
	}
	if d.userMore > 0 {
		parts = append(parts, fmt.Sprintf("%s in your user layer %s not listed.", plural.Of(d.userMore, "more preference"), plural.Pick(d.userMore, "is", "are")))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " ") + " 'planq search --scope user WORDS' finds them, 'planq user list' lists them."
}
