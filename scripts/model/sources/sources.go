// Package sources is the one table of what planq's default search model is
// trained from: the Debian packages (pinned to exact versions), which of
// their files are read and how, and the licence each is under. The text
// preparation reads it to find its input, the table builder writes it into
// the model's header, and train.sh installs exactly these packages.
package sources

import (
	"fmt"
	"regexp"
)

// Kind says how a source's files are turned into text.
type Kind int

const (
	// HTML files: text of the page without scripts, styles and navigation;
	// code blocks kept line by line.
	HTML Kind = iota
	// Man pages (gzip-compressed roff), rendered with groff to plain text.
	Man
	// WordNet data files: a line per synset, its words then its gloss.
	WordNet
)

func (k Kind) String() string {
	switch k {
	case HTML:
		return "html"
	case Man:
		return "man"
	case WordNet:
		return "wordnet"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Source is one Debian package whose files feed the training text.
type Source struct {
	Package string
	Version string // exact Debian version, checked before any file is read
	Licence string // as the package's copyright file states it, summarised
	Kind    Kind
	Include *regexp.Regexp // a file of the package is read if its path matches this...
	Exclude *regexp.Regexp // ...and not this (nil: nothing excluded)
}

// Texts are the packages whose text the model learns from, in the order
// their text is written.
var Texts = []Source{
	{
		Package: "python3.11-doc", Version: "3.11.2-6+deb12u7", Kind: HTML,
		Licence: "PSF-2.0 (Python Software Foundation License Version 2)",
		Include: regexp.MustCompile(`^/usr/share/doc/python3\.11/html/.+\.html$`),
		Exclude: regexp.MustCompile(`/_(static|sources|images|downloads)/|/(genindex[^/]*|search|py-modindex|contents|copyright|license)\.html$`),
	},
	{
		Package: "postgresql-doc-15", Version: "15.18-0+deb12u1", Kind: HTML,
		Licence: "PostgreSQL (a BSD-style permissive licence)",
		Include: regexp.MustCompile(`^/usr/share/doc/postgresql-doc-15/html/.+\.html$`),
		Exclude: regexp.MustCompile(`/(bookindex|legalnotice)\.html$`),
	},
	{
		Package: "golang-1.19-doc", Version: "1.19.8-2", Kind: HTML,
		Licence: "BSD-3-Clause (the Go licence)",
		Include: regexp.MustCompile(`^/usr/share/doc/golang-1\.19-doc/html/.+\.html$`),
		Exclude: regexp.MustCompile(`/go1\.17_spec\.html$`), // an older copy of go_spec.html
	},
	{
		Package: "rust-doc", Version: "1.63.0+dfsg1-2", Kind: HTML,
		Licence: "MIT OR Apache-2.0",
		// The books and the standard library's documentation; core and
		// alloc repeat std's text, src is source code, print.html repeats
		// a whole book on one page.
		Include: regexp.MustCompile(`^/usr/share/doc/rust-doc/html/(book|reference|rust-by-example|nomicon|edition-guide|embedded-book|rustc|rustdoc|std)/.+\.html$`),
		Exclude: regexp.MustCompile(`/(print|toc|404)\.html$`),
	},
	{
		Package: "manpages", Version: "6.03-2", Kind: Man,
		Licence: "mostly GPL-2+; some pages BSD-2/3/4-Clause, Expat, GPL-1+, GPL-2, Linux-man-pages-copyleft",
		Include: regexp.MustCompile(`^/usr/share/man/man[1-8]/[^/]+\.gz$`),
	},
	{
		Package: "manpages-dev", Version: "6.03-2", Kind: Man,
		Licence: "mostly GPL-2+; some pages BSD-2/3/4-Clause, Expat, GPL-1+, GPL-2, Linux-man-pages-copyleft",
		Include: regexp.MustCompile(`^/usr/share/man/man[1-8]/[^/]+\.gz$`),
	},
	{
		Package: "debian-reference-en", Version: "2.100", Kind: HTML,
		Licence: "GPL-2+",
		Include: regexp.MustCompile(`^/usr/share/debian-reference/.+\.en\.html$`),
	},
	{
		Package: "debian-handbook", Version: "11.20220922", Kind: HTML,
		Licence: "GPL-2.0+ or CC-BY-SA-3.0",
		Include: regexp.MustCompile(`^/usr/share/doc/debian-handbook/html/en-US/.+\.html$`),
	},
	{
		Package: "git-doc", Version: "1:2.39.5-0+deb12u3", Kind: HTML,
		Licence: "GPL-2 (git's documentation; a few parts GPL-2+, LGPL-2.1+, Expat)",
		Include: regexp.MustCompile(`^/usr/share/doc/git-doc/(howto/|technical/)?[^/]+\.html$`),
	},
	{
		// Everyday words and what they mean: each synset's words beside
		// its definition and examples. The table builder also pulls the
		// vectors of the words WordNet relates together.
		Package: "wordnet-base", Version: "1:3.0-37", Kind: WordNet,
		Licence: "WordNet 3.0 licence (Princeton University; use, copy, modify and distribute for any purpose with its notice)",
		Include: regexp.MustCompile(`^/usr/share/wordnet/data\.(noun|verb|adj|adv)$`),
	},
}

// Tool is a Debian package the pipeline runs, pinned like the texts
// because its output is part of the model.
type Tool struct {
	Package string
	Version string
	Why     string
}

// Tools are the programs that turn the texts into the model.
var Tools = []Tool{
	{Package: "fasttext", Version: "0.9.2+ds-1+b1", Why: "trains the word vectors"},
	{Package: "groff-base", Version: "1.22.4-10", Why: "renders the man pages to text"},
}
