package main

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestLexiconLinksOneTokenWordsBothWays(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"noun": "  1 licence line  \n" +
			"00000001 06 n 04 sofa 0 couch 0 lounge 1 love_seat 0 001 @ 00000002 n 0000 | an upholstered seat  \n" +
			"00000002 06 n 02 seat 0 Seat 1 000 | furniture to sit on  \n",
		"verb": "00000001 29 v 02 refund 0 repay 0 001 + 00000001 n 0101 | pay back  \n",
		"adj":  "00000001 00 a 02 e-mail 0 quick(a) 0 000 | made-up  \n",
		"adv":  "",
	}
	index := map[string]string{ // couch's first meaning is another synset
		"noun": "  1 licence line  \ncouch n 2 0 2 0 00000003 00000001  \nlounge n 1 0 1 0 00000001  \nsofa n 1 0 1 0 00000001  \n",
		"verb": "refund v 1 0 1 0 00000001  \nrepay v 1 0 1 0 00000001  \n",
		"adj":  "",
		"adv":  "",
	}
	for pos, text := range files {
		if err := os.WriteFile(filepath.Join(dir, "data."+pos), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "index."+pos), []byte(index[pos]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	graph, err := lexicon(dir, symbolSet("+"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		// love_seat is two tokens, Seat a name, e-mail three tokens: all left
		// out; the hypernym (@) was not asked for; refund:sofa is the
		// derivation (+) from refund, word 1, to sofa, word 1 of noun 1.
		"sofa":   {"couch", "lounge", "refund"},
		"couch":  {"lounge", "sofa"},
		"lounge": {"couch", "sofa"},
		"refund": {"repay", "sofa"},
		"repay":  {"refund"},
	}
	if !reflect.DeepEqual(graph, want) {
		t.Fatalf("got  %v\nwant %v", graph, want)
	}
	graph, err = lexicon(dir, symbolSet("+"), 1)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string][]string{ // couch only through its first meaning
		"sofa":   {"lounge", "refund"},
		"lounge": {"sofa"},
		"refund": {"repay", "sofa"},
		"repay":  {"refund"},
	}
	if !reflect.DeepEqual(graph, want) {
		t.Fatalf("first meanings only: got  %v\nwant %v", graph, want)
	}
	if _, err := lexicon(t.TempDir(), nil, 0); err == nil {
		t.Fatal("a directory without WordNet: no error")
	}
}

func TestRetrofitPullsNeighboursTogetherAndLeavesTheRest(t *testing.T) {
	const d = 2
	toks := []string{"sofa", "couch", "lamp"}
	x := []float64{1, 0, 0, 1, 1, 0}
	graph := map[string][]string{"sofa": {"couch", "absent"}, "couch": {"sofa"}, "chair": {"lamp"}}
	cos := func(i, j int) float64 { return x[i*d]*x[j*d] + x[i*d+1]*x[j*d+1] }
	before := cos(0, 1)
	moved := retrofit(x, 3, d, toks, graph, 1, 10)
	if moved != 2 {
		t.Errorf("moved %d rows, want 2", moved)
	}
	if after := cos(0, 1); after <= before+0.5 {
		t.Errorf("sofa·couch went from %.2f to %.2f", before, after)
	}
	if x[4] != 1 || x[5] != 0 {
		t.Errorf("lamp moved: %v", x[4:])
	}
	for i := range 3 {
		if n := cos(i, i); math.Abs(n-1) > 1e-12 {
			t.Errorf("row %d has length² %g", i, n)
		}
	}
	// With a huge alpha a row keeps its own vector.
	x = []float64{1, 0, 0, 1, 1, 0}
	retrofit(x, 3, d, toks, graph, 1e9, 10)
	if cos(0, 1) > 1e-6 {
		t.Errorf("alpha 1e9: sofa·couch %.2f", cos(0, 1))
	}
}

func TestNormaliseScalesRowsAndSparesZeroRows(t *testing.T) {
	x := []float64{3, 4, 0, 0}
	normalise(x, 2, 2)
	if !reflect.DeepEqual(x, []float64{0.6, 0.8, 0, 0}) {
		t.Fatal(x)
	}
}
