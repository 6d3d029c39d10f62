package prime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/planq-dev/planq/internal/plural"
	"slices"
	"sort"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/planq-dev/planq/planqerr"
)

// Formats prime renders.
var Formats = []string{"markdown", "plain", "xml", "json"}

// TemplatePath is where a project overrides prime's layout.
const TemplatePath = ".planq/PRIME.md"

// fit marks items dropped until the rendering fits the budget: the least
// important first, and within one priority the last added first. It returns
// the rendered text.
func fit(doc *Document, opts Options) (string, error) {
	f := &fitter{doc: doc, format: opts.Format, budget: opts.Budget, tmpl: opts.Template}
	if f.budget <= 0 {
		f.budget = DefaultBudget
	}
	droppable := f.dropOrder()
	out, err := f.drop(0)
	if err != nil || len(out) <= f.budget {
		return out, err
	}
	doc.fullSize = len(out)
	// The size only shrinks as more is dropped: find the fewest drops that fit.
	lo, hi := 1, droppable
	for lo < hi {
		mid := (lo + hi) / 2
		if out, err = f.drop(mid); err != nil {
			return "", err
		}
		if len(out) <= f.budget {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	// What was left out is named in the closing, which so grows a little
	// with some drops: past the search, drop on until it fits.
	for {
		if out, err = f.drop(lo); err != nil || len(out) <= f.budget || lo >= droppable {
			return out, err
		}
		lo++
	}
}

// fitter renders doc with some of its items dropped, in order.
type fitter struct {
	doc    *Document
	format string
	budget int
	tmpl   *template.Template
	order  []int
}

// dropOrder orders the items as they are dropped: highest priority number
// first, later items before earlier; and counts those that may be (what
// must be said, priority 0, never is).
func (f *fitter) dropOrder() int {
	items := f.doc.Items
	f.order = make([]int, len(items))
	for i := range f.order {
		f.order[i] = i
	}
	sort.SliceStable(f.order, func(a, b int) bool {
		ia, ib := items[f.order[a]], items[f.order[b]]
		if ia.Priority != ib.Priority {
			return ia.Priority > ib.Priority
		}
		return f.order[a] > f.order[b]
	})
	droppable := 0
	for droppable < len(f.order) && items[f.order[droppable]].Priority > 0 {
		droppable++
	}
	return droppable
}

// drop renders the document without its first k items in drop order.
func (f *fitter) drop(k int) (string, error) {
	for i, idx := range f.order {
		f.doc.Items[idx].Dropped = i < k
	}
	return render(f.doc, f.format, f.budget, f.tmpl)
}

// Dropped counts the items left out.
func (d *Document) Dropped() int {
	n := d.Omitted
	for _, it := range d.Items {
		if it.Dropped {
			n++
		}
	}
	return n
}

type section struct {
	Title string   `json:"title"`
	Items []string `json:"items"`
}

func (d *Document) sections() []section {
	by := map[string][]string{}
	for _, it := range d.Items {
		if !it.Dropped {
			by[it.Section] = append(by[it.Section], it.Text)
		}
	}
	var out []section
	for _, name := range sectionOrder {
		if len(by[name]) > 0 {
			out = append(out, section{Title: name, Items: by[name]})
		}
		if name == sectionKnowledge { // then its topics, in the order the index lists them
			for _, it := range d.Items {
				if t := it.Section; strings.HasPrefix(t, knowledgeTopic) && len(by[t]) > 0 {
					out = append(out, section{Title: t, Items: by[t]})
					delete(by, t)
				}
			}
		}
	}
	return out
}

// closing says what was left out and the command that shows it: a budget
// that holds the whole document (nothing dropped, no closing line), and
// search for the learnings too many to make into items at all.
func (d *Document) closing(budget int) string {
	dropped := d.Dropped() - d.Omitted
	var parts []string
	if dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s %s left out to stay under %d characters; 'planq prime --budget %d' shows them all.", plural.Of(dropped, "less important item"), plural.Pick(dropped, "was", "were"), budget, d.fullSize))
	}
	if d.Omitted > 0 {
		parts = append(parts, fmt.Sprintf("%s %s never listed here; 'planq search WORDS' finds them.", plural.Of(d.Omitted, "more learning"), plural.Pick(d.Omitted, "is", "are")))
	}
	if k := d.knowledgeClosing(); k != "" {
		parts = append(parts, k)
	}
	if u := d.userClosing(); u != "" {
		parts = append(parts, u)
	}
	return strings.Join(parts, " ")
}

func render(d *Document, format string, budget int, tmpl *template.Template) (string, error) {
	if tmpl != nil {
		return renderTemplate(d, budget, tmpl)
	}
	switch format {
	case "", "markdown":
		return renderMarkdown(d, budget), nil
	case "plain":
		return renderPlain(d, budget), nil
	case "xml":
		return renderXML(d, budget), nil
	case "json":
		return renderJSON(d, budget)
	}
	return "", CheckFormat(format)
}

func renderTemplate(d *Document, budget int, tmpl *template.Template) (string, error) {
	var b bytes.Buffer
	err := tmpl.Execute(&b, map[string]any{
		"Project": d.Project, "Agent": d.Agent, "For": d.For, "Role": d.Role, "Source": d.Source,
		"Sections": d.sections(), "Closing": d.closing(budget),
	})
	if err != nil {
		return "", planqerr.New(planqerr.Invalid, TemplatePath, "%w", err).WithHint("fix the template; it uses Go's text/template syntax")
	}
	return b.String(), nil
}

func renderMarkdown(d *Document, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# planq: %s, %s\n", d.Project, d.For)
	for _, s := range d.sections() {
		fmt.Fprintf(&b, "\n## %s\n", s.Title)
		for _, it := range s.Items {
			fmt.Fprintf(&b, "- %s\n", indent(it, "  "))
		}
	}
	if c := d.closing(budget); c != "" {
		fmt.Fprintf(&b, "\n%s\n", c)
	}
	return b.String()
}

func renderPlain(d *Document, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "planq: %s, %s\n", d.Project, d.For)
	for _, s := range d.sections() {
		fmt.Fprintf(&b, "\n%s:\n", strings.ToUpper(s.Title))
		for _, it := range s.Items {
			fmt.Fprintf(&b, "  %s\n", indent(it, "  "))
		}
	}
	if c := d.closing(budget); c != "" {
		fmt.Fprintf(&b, "\n%s\n", c)
	}
	return b.String()
}

func renderXML(d *Document, budget int) string {
	var b strings.Builder
	if d.global {
		fmt.Fprintf(&b, "<planq-context project=%q for=%q>\n", xmlText(d.Project), xmlText(d.For))
	} else {
		fmt.Fprintf(&b, "<planq-context project=%q agent=%q>\n", xmlText(d.Project), xmlText(d.Agent))
	}
	for _, s := range d.sections() {
		fmt.Fprintf(&b, "<section name=%q>\n", xmlText(s.Title))
		for _, it := range s.Items {
			fmt.Fprintf(&b, "<item>%s</item>\n", xmlText(it))
		}
		b.WriteString("</section>\n")
	}
	if c := d.closing(budget); c != "" {
		fmt.Fprintf(&b, "<omitted>%s</omitted>\n", xmlText(c))
	}
	b.WriteString("</planq-context>\n")
	return b.String()
}

func renderJSON(d *Document, budget int) (string, error) {
	type out struct {
		Project  string    `json:"project"`
		Agent    string    `json:"agent"`
		For      string    `json:"for"`
		Role     string    `json:"role"`
		Source   string    `json:"source"`
		Sections []section `json:"sections"`
		Omitted  int       `json:"omitted"`
		Closing  string    `json:"closing,omitempty"`
	}
	data, err := json.MarshalIndent(out{d.Project, d.Agent, d.For, d.Role, d.Source, d.sections(), d.Dropped(), d.closing(budget)}, "", "  ")
	if err != nil {
		return "", fmt.Errorf("failed to encode prime: %w", err)
	}
	return string(data) + "\n", nil
}

// CheckFormat is nil for a format prime renders, else the error that says
// which ones it does.
func CheckFormat(format string) error {
	if format == "" || slices.Contains(Formats, format) {
		return nil
	}
	return planqerr.New(planqerr.Invalid, "--format", "unknown format %q", format).
		WithHint("use one of %s", strings.Join(Formats, ", "))
}

func indent(s, prefix string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+prefix)
}

// xmlText escapes s as encoding/xml's EscapeText does (a test holds it
// to that), without linking encoding/xml, whose init every planq process
// would pay for: the characters XML reserves, tab and line ends as
// character references, and what XML cannot hold (invalid UTF-8, control
// characters) as U+FFFD.
func xmlText(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if xmlChar(r) && (r != utf8.RuneError || width != 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
	return b.String()
}

// xmlChar says whether XML 1.0 can hold r (its Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// ParseTemplate reads a layout (the project's PRIME.md) for
// Options.Template: a Go text/template over .Project, .Agent, .For (whom
// the document is for, as Document.For), .Role, .Source, .Sections (each a .Title and its .Items) and .Closing.
func ParseTemplate(text string) (*template.Template, error) {
	t, err := template.New("PRIME.md").Parse(text)
	if err != nil {
		return nil, planqerr.New(planqerr.Invalid, TemplatePath, "%w", err).WithHint("fix the template; it uses Go's text/template syntax")
	}
	return t, nil
}
