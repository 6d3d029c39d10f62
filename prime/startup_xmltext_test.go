package prime

import (
	"bytes"
	"encoding/xml"
	"testing"
)

var xmlTextSeeds = []string{
	"", "plain", `a "quoted" 'word' & <tag> > more`, "tab\tnew\nline\r\ncr", "\x00\x01\x08\x0b\x0c\x1f\x7f",
	"invalid \xff\xfe utf-8 \xc3", "\uFFFD literal replacement", "\uFFFE\uFFFF", "\U0001F600 emoji", "\ud7ff\ue000",
	"<planq-context project=\"x\">]]>", "é ü 日本",
}

// TestXMLTextMatchesEncodingXML: without encoding/xml, the XML format of
// prime and expertise escapes text exactly as xml.EscapeText did.
func TestXMLTextMatchesEncodingXML(t *testing.T) {
	for _, s := range xmlTextSeeds {
		checkXMLText(t, s)
	}
}

// FuzzXMLText: whatever the text, xmlText writes what xml.EscapeText writes.
func FuzzXMLText(f *testing.F) {
	for _, s := range xmlTextSeeds {
		f.Add(s)
	}
	f.Fuzz(checkXMLText)
}

func checkXMLText(t *testing.T, s string) {
	var want bytes.Buffer
	if err := xml.EscapeText(&want, []byte(s)); err != nil {
		t.Fatal(err)
	}
	if got := xmlText(s); got != want.String() {
		t.Fatalf("xmlText(%q) = %q, xml.EscapeText gives %q", s, got, want.String())
	}
}
