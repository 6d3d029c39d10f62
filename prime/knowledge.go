package prime

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/readmodel"
)

// Knowledge is global's knowledge base as a session start shows it, index
// first: every article's title and description with its path, grouped by
// topic, so that the agent chooses what to read; the text of the team's
// preferences, of the few articles best for its task and of any disputed
// one that matches; and what was left out, with the planq get that reads
// it.
type Knowledge struct {
	// Topics order the index: the project's topics, in its order; any
	// other topic follows, by name.
	Topics []string
	// Articles are every article on global, deprecated ones too.
	Articles []readmodel.Article
	// Relevant are the articles best for the task (its focus, branch
	// context, handoff), best first, as planq search --kind article finds
	// them: at most MaxArticleHits.
	Relevant []readmodel.Hit
}

// Limits of what a session start shows of the knowledge base.
const (
	// MaxArticleHits is how many articles the task's search returns: the
	// first MaxArticleBodies show their text, and any disputed one among
	// them too.
	MaxArticleHits = 8
	// MaxArticleBodies is how many of the articles best for the task show
	// their text.
	MaxArticleBodies = 3
	// MaxIndex is how many articles the index lists: the preferences, the
	// disputed ones and those the task found first, then the most recently
	// updated. The rest are counted, and planq get knowledge/_index.md
	// lists them all.
	MaxIndex = 25
	// maxArticleText bounds one article's text in the document; the rest
	// is named with its planq get.
	maxArticleText = 1500
	// PreferencesTopic is the topic of what the team prefers: every
	// article of it is shown whole (within maxArticleText).
	PreferencesTopic = "preferences"
)

// Sections of the knowledge base: the index's intro, then one section per
// topic ("Knowledge: decisions"), then the articles shown whole.
const (
	sectionKnowledge   = "Knowledge"
	knowledgeTopic     = "Knowledge: "
	sectionPreferences = "Preferences"
	sectionArticles    = "Relevant articles"
)

// indexPath is the file that lists every article.
var indexPath = changelog.KindArticle.Dir() + "/_index.md"

// knowledgeItems adds the knowledge base's items to doc. Priorities: the
// preferences' text is 1, as how to record is: what the team wants of
// every session; so are the index's lines of the preferences, of the
// disputed articles and of those the task found; the other lines are 2,
// and so is the text of the article best for the task, added before them
// so that it outlasts them (an agent reads the article that answers its
// task before the titles of those that do not; the index names the rest);
// the text of the other articles the task found is 3, so it goes before
// any of the index. An index line that says only the article's name
// yields to every learning (silentIndexPriority).
func knowledgeItems(doc *Document, k Knowledge) {
	kb := newKnowledgeView(k)
	if len(kb.live) == 0 {
		return
	}
	listed := kb.indexed(k.Topics)
	doc.OmittedArticles = max(0, len(kb.live)-MaxIndex)
	// The preferences first: within one priority, what is added last is
	// dropped first (sections render in their own order).
	for _, a := range kb.live {
		if a.Topic == PreferencesTopic {
			addArticle(doc, sectionPreferences, 1, a.Path, articleText(a))
		}
	}
	addArticle(doc, sectionKnowledge, 1, "", fmt.Sprintf("The team's knowledge base: %s on global, each gathering what the records say on one subject. Read one whole with planq get PATH; find more with planq search WORDS --kind article.",
		plural.Of(len(kb.live), "article")))
	// The text of the article best for the task is worth more than the
	// index lines of the articles the task did not find: it goes after
	// them, and before the other articles' text and the task's lines.
	best := ""
	if len(kb.hits) > 0 && kb.hits[0].Topic != PreferencesTopic {
		best = kb.hits[0].Path
		addArticle(doc, sectionArticles, 2, best, articleText(kb.hits[0]))
	}
	for _, a := range listed {
		priority := 2
		switch {
		case kb.key(a):
			priority = 1
		case !teaches(a):
			// Its line is its name twice: any learning says more.
			priority = silentIndexPriority
		}
		addArticle(doc, knowledgeTopic+a.Topic, priority, "", articleLine(a))
	}
	for i, a := range kb.hits {
		if a.Topic == PreferencesTopic || (i >= MaxArticleBodies && a.Status != changelog.StatusDisputed) || a.Path == best {
			continue
		}
		addArticle(doc, sectionArticles, 3, a.Path, articleText(a))
	}
}

// knowledgeView is what a session start shows of the knowledge base: the
// articles not deprecated (what all its sources no longer say: search
// finds it, prime does not), and those of them the task found, best
// first.
type knowledgeView struct {
	live  []readmodel.Article
	found map[string]bool
	hits  []readmodel.Article
}

func newKnowledgeView(k Knowledge) *knowledgeView {
	kb := &knowledgeView{live: make([]readmodel.Article, 0, len(k.Articles)), found: map[string]bool{}}
	byPath := map[string]readmodel.Article{}
	for _, a := range k.Articles {
		if a.Status != changelog.StatusDeprecated {
			kb.live = append(kb.live, a)
			byPath[a.Path] = a
		}
	}
	for _, h := range k.Relevant {
		if a, ok := byPath[h.Path]; ok && !kb.found[h.Path] {
			kb.found[h.Path] = true
			kb.hits = append(kb.hits, a)
		}
	}
	return kb
}

// key says the index lists a first, and at priority 1: the task found it,
// it is a preference, or disputed.
func (kb *knowledgeView) key(a readmodel.Article) bool {
	return kb.found[a.Path] || a.Topic == PreferencesTopic || a.Status == changelog.StatusDisputed
}

// indexed is the articles the index lists: the key ones, then the most
// recently updated, up to MaxIndex; by topic (in the order of topics),
// then path.
func (kb *knowledgeView) indexed(topics []string) []readmodel.Article {
	listed := slices.Clone(kb.live)
	slices.SortStableFunc(listed, func(x, y readmodel.Article) int {
		if kx, ky := kb.key(x), kb.key(y); kx != ky {
			if kx {
				return -1
			}
			return 1
		}
		return y.Updated.Compare(x.Updated)
	})
	listed = listed[:min(len(listed), MaxIndex)]
	order := topicOrder(topics, listed)
	slices.SortStableFunc(listed, func(x, y readmodel.Article) int {
		if c := order[x.Topic] - order[y.Topic]; c != 0 {
			return c
		}
		return strings.Compare(x.Path, y.Path)
	})
	return listed
}

func addArticle(doc *Document, section string, priority int, path, text string) {
	doc.Items = append(doc.Items, Item{Section: section, Priority: priority, Text: text, Article: path})
}

// silentIndexPriority is an index line's that teaches nothing: after
// every learning (readmodel.Priority is 8 at most).
const silentIndexPriority = 9

// articleLine is an article as the index lists it: its title and, when it
// says more, its description.
func articleLine(a readmodel.Article) string {
	line := readmodel.Shorten(a.Title, 80)
	if teaches(a) {
		line += " — " + readmodel.Shorten(a.Description, 120)
	}
	if a.Status == changelog.StatusDisputed {
		line += " [disputed]"
	}
	return line + " — planq get " + a.Path
}

// teaches reports whether an article's description says more than its
// title: one that repeats it in other case or punctuation (a mulch
// pattern's name, made slug, title and description at once) does not.
func teaches(a readmodel.Article) bool {
	d := wordsOf(a.Description)
	return d != "" && d != wordsOf(a.Title) && d != wordsOf(a.Slug)
}

// wordsOf is s in lower-case letters and digits, one space between words.
func wordsOf(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// topicOrder numbers the topics of the articles: decisions first (what
// the team decided is what an agent must not undo), then the project's in
// its order, then the others by name.
func topicOrder(topics []string, articles []readmodel.Article) map[string]int {
	order := map[string]int{"decisions": 0}
	for _, t := range topics {
		if _, ok := order[t]; !ok {
			order[t] = len(order)
		}
	}
	var others []string
	for _, a := range articles {
		if _, ok := order[a.Topic]; !ok && !slices.Contains(others, a.Topic) {
			others = append(others, a.Topic)
		}
	}
	slices.Sort(others)
	for _, t := range others {
		order[t] = len(order)
	}
	return order
}

// articleText is an article shown whole: its title, where it is and how it
// stands, then its body, cut at maxArticleText with the planq get that
// reads the rest.
func articleText(a readmodel.Article) string {
	head := fmt.Sprintf("%s (%s, updated %s, %s confidence", a.Title, a.Path, a.Updated.UTC().Format("2006-01-02"), a.Confidence)
	if a.Status == changelog.StatusDisputed {
		head += ", disputed: the team's sources disagree, see its Conflict section"
	}
	body := strings.TrimSpace(a.Body)
	if short := readmodel.Shorten(body, maxArticleText); short != body {
		body = short + "\n(cut short: planq get " + a.Path + " reads it whole)"
	}
	return head + "):\n" + body
}

// knowledgeClosing says what of the knowledge base was left out: the text
// of the articles dropped for the budget, each with its planq get, and the
// articles the index does not list.
func (d *Document) knowledgeClosing() string {
	var texts []string
	lines := 0
	for _, it := range d.Items {
		switch {
		case !it.Dropped:
		case it.Article != "":
			texts = append(texts, "planq get "+it.Article)
		case strings.HasPrefix(it.Section, knowledgeTopic):
			lines++
		}
	}
	var parts []string
	if len(texts) > 0 {
		parts = append(parts, fmt.Sprintf("Left out, the text of %s: %s.", plural.Of(len(texts), "article"), strings.Join(texts, ", ")))
	}
	if more := lines + d.OmittedArticles; more > 0 {
		parts = append(parts, fmt.Sprintf("%s of the knowledge base %s not listed; planq get %s lists them all.", plural.Of(more, "more article"),
			plural.Pick(more, "is", "are"), indexPath))
	}
	return strings.Join(parts, " ")
}
