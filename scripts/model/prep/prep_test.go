package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestHTMLLinesKeepsTextAndCodeAndDropsNavigation(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>T</title><script>var x = 1;</script><style>p{}</style></head>
<body><div class="related"><a href="x">previous</a></div>
<nav id="sidebar">Chapter list</nav>
<h1>Connection pooling<a class="headerlink" href="#x">¶</a></h1>
<p>Use <code>os</code>.path to
   join paths &amp; more.</p>
<pre>fn main() {
    println!("hi");
}</pre>
<ul><li>first</li><li>second<br>line</li></ul>
<section id="trait-implementations-list"><p>impl Clone for Vec</p></section>
</body></html>`
	got, err := htmlLines(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Connection pooling",
		"Use os.path to join paths & more.",
		"fn main() {",
		`println!("hi");`,
		"}",
		"first",
		"second",
		"line",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestIsStubTellsASourcingPageFromARealOne(t *testing.T) {
	stub := ".\\\" Copyright\n'\\\" t\n.so man3/printf.3\n"
	real := ".TH PRINTF 3\n.SH NAME\nprintf \\- formatted output\n"
	if !isStub([]byte(stub)) {
		t.Error("a page that only sources another is not a stub")
	}
	if isStub([]byte(real)) {
		t.Error("a real page is a stub")
	}
	if isStub(nil) {
		t.Error("an empty page is a stub")
	}
}

func TestRefuseHeldOutRefusesTheEvaluationAndOnlyIt(t *testing.T) {
	repo := t.TempDir()
	held := filepath.Join(repo, "search", "testdata")
	if err := os.MkdirAll(filepath.Join(held, "eval"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(repo, "search", "testdata-notes")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(held, "eval"), link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{held, filepath.Join(held, "eval", "questions.json"), link} {
		if err := refuseHeldOut(held, p); err == nil {
			t.Errorf("%s: not refused", p)
		}
	}
	for _, p := range []string{other, filepath.Join(repo, "README.md"), "/usr/share/doc"} {
		if err := refuseHeldOut(held, p); err != nil {
			t.Errorf("%s: refused: %v", p, err)
		}
	}
}

func FuzzHTMLLines(f *testing.F) {
	f.Add("<p>a<b>c</b></p><pre>x\ny</pre>")
	f.Add("<div class=related><nav>")
	f.Fuzz(func(t *testing.T, page string) {
		lines, err := htmlLines(strings.NewReader(page))
		if err != nil {
			return
		}
		for _, l := range lines {
			if l == "" || strings.TrimSpace(l) != l {
				t.Fatalf("line %q is empty or padded", l)
			}
		}
	})
}

func TestSynsetLinesPutsTheWordsBeforeTheGloss(t *testing.T) {
	data := "  1 This software and database is being provided to you, the LICENSEE, by  \n" +
		"04256520 06 n 03 sofa 0 couch 0 lounge 1 001 @ 04161981 n 0000 | an upholstered seat for more than one person  \n" +
		"00022686 29 v 02 stimulate 0 perk_up 1 000 02 + 02 00 + 08 01 | cause to be alert; \"Coffee stimulates me\"  \n"
	got, err := synsetLines(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"sofa couch lounge an upholstered seat for more than one person",
		`stimulate perk up cause to be alert; "Coffee stimulates me"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
