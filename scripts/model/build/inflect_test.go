package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRegularFormsFollowEnglishSpelling(t *testing.T) {
	for _, tc := range []struct {
		lemma string
		pos   byte
		exc   []string
		want  []string
	}{
		{"alert", 'n', nil, []string{"alerts"}},
		{"box", 'n', nil, []string{"boxes"}},
		{"match", 'n', nil, []string{"matches"}},
		{"query", 'n', nil, []string{"queries"}},
		{"key", 'n', nil, []string{"keys"}},
		{"refund", 'v', nil, []string{"refunds", "refunded", "refunding"}},
		{"retry", 'v', nil, []string{"retries", "retried", "retrying"}},
		{"save", 'v', nil, []string{"saves", "saved", "saving"}},
		{"die", 'v', nil, []string{"dies", "died", "dying"}},
		{"agree", 'v', nil, []string{"agrees", "agreed", "agreeing"}},
		{"stop", 'v', []string{"stopped", "stopping"}, []string{"stops"}},
		{"run", 'v', []string{"ran", "running"}, []string{"runs"}},
		{"quick", 'a', nil, nil},
	} {
		if got := regularForms(tc.lemma, tc.pos, tc.exc); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%c): %q, want %q", tc.lemma, tc.pos, got, tc.want)
		}
	}
}

func TestReadExceptionsPairsEachFormWithItsBases(t *testing.T) {
	var got []string
	err := readExceptions(strings.NewReader("mice mouse\n\naxes ax axis\n"), func(f, b string) { got = append(got, f+":"+b) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mice:mouse", "axes:ax", "axes:axis"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if err := readExceptions(strings.NewReader("lonely\n"), func(string, string) {}); err == nil {
		t.Fatal("a form without a base: no error")
	}
}

func TestInflectionsMapFormsToLemmas(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"data.noun": "00000001 06 n 02 alert 0 building 0 000 | a warning  \n" +
			"00000002 06 n 01 mouse 0 000 | a rodent  \n" +
			"00000003 06 n 01 axis 0 000 | a line  \n" +
			"00000004 06 n 01 ax 0 000 | a tool  \n",
		"data.verb": "00000001 29 v 02 alert 0 build 0 000 | warn  \n",
		"data.adj":  "00000001 00 a 01 big 0 000 | large  \n",
		"data.adv":  "",
		"noun.exc":  "mice mouse\naxes ax axis\n",
		"verb.exc":  "built build\n",
		"adj.exc":   "bigger big\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := inflections(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"alerts": "alert", "alerted": "alert", "alerting": "alert",
		"buildings": "building", "builds": "build", "built": "build", // "building" is a lemma
		"mice": "mouse", "mouses": "mouse", "axises": "axis", // the regular plural too: harmless
		"bigger": "big",
		// "axes" comes from two lemmas: left out.
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

func TestAddFormsGivesMissingFormsTheirLemmasRow(t *testing.T) {
	toks := []string{"alert", "alerts", "mouse"}
	weights := []float32{0.1, 0.2, 0.3}
	vecs := [][]float32{{1, 0}, {0, 1}, {0.6, 0.8}}
	forms := map[string]string{"alerts": "alert", "alerted": "alert", "alerting": "alert", "mice": "mouse"}
	toks, weights, vecs, added := addForms(toks, weights, vecs, forms, 3)
	if added != 3 || !reflect.DeepEqual(toks, []string{"alert", "alerts", "mouse", "alerted", "alerting", "mice"}) {
		t.Fatalf("added %d: %q", added, toks)
	}
	if !reflect.DeepEqual(weights[3:], []float32{0.1, 0.1, 0.3}) || !reflect.DeepEqual(vecs[5], []float32{0.6, 0.8}) {
		t.Fatalf("weights %v, vectors %v", weights, vecs)
	}
	graph := map[string][]string{}
	linkForms(graph, []string{"alert", "alerts", "mice"}, forms)
	if want := map[string][]string{"alert": {"alerts"}, "alerts": {"alert"}}; !reflect.DeepEqual(graph, want) {
		t.Fatalf("links %v, want %v", graph, want)
	}
}
