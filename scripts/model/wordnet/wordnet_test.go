package wordnet

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Lines in the format of WordNet 3.0's data files, made up for the tests.
const (
	nounLine = "04256520 06 n 03 sofa 0 couch 0 lounge 1 002 @ 04161981 n 0000 + 01528357 v 0301 | an upholstered seat for more than one person  "
	verbLine = "00022686 29 v 02 stimulate 0 perk_up 1 001 @ 00019448 v 0000 02 + 02 00 + 08 01 | cause to be alert; \"Coffee stimulates me\"  "
	adjLine  = "00001740 00 a 02 able(a) 0 capable(p) 3 001 ! 00002098 a 0101 | having the necessary means  "
)

func TestParseReadsWordsPointersAndGloss(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Synset
	}{
		{nounLine, Synset{
			Offset: 4256520, POS: 'n',
			Words: []Word{{"sofa", 0}, {"couch", 0}, {"lounge", 1}},
			Pointers: []Pointer{
				{Symbol: "@", Offset: 4161981, POS: 'n'},
				{Symbol: "+", Offset: 1528357, POS: 'v', Source: 3, Target: 1},
			},
			Gloss: "an upholstered seat for more than one person",
		}},
		{verbLine, Synset{ // the sentence frames after the pointers are skipped
			Offset: 22686, POS: 'v',
			Words:    []Word{{"stimulate", 0}, {"perk_up", 1}},
			Pointers: []Pointer{{Symbol: "@", Offset: 19448, POS: 'v'}},
			Gloss:    `cause to be alert; "Coffee stimulates me"`,
		}},
		{adjLine, Synset{ // syntactic markers are dropped
			Offset: 1740, POS: 'a',
			Words:    []Word{{"able", 0}, {"capable", 3}},
			Pointers: []Pointer{{Symbol: "!", Offset: 2098, POS: 'a', Source: 1, Target: 1}},
			Gloss:    "having the necessary means",
		}},
		{"00000010 00 s 0b word 0 word 0 word 0 word 0 word 0 word 0 word 0 word 0 word 0 word 0 word 0 000 | eleven words, counted in hex", Synset{
			Offset: 10, POS: 's', Words: slices.Repeat([]Word{{"word", 0}}, 11), Pointers: []Pointer{},
			Gloss: "eleven words, counted in hex",
		}},
	} {
		got, err := Parse(tc.line)
		if err != nil {
			t.Fatalf("%q: %v", tc.line, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseRefusesBrokenLines(t *testing.T) {
	for _, line := range []string{
		"",
		"04256520 06 n 01 sofa 0 000",                                // no gloss
		"x 06 n 01 sofa 0 000 | g",                                   // offset
		"1 06 q 01 sofa 0 000 | g",                                   // part of speech
		"1 06 n 00 000 | g",                                          // no words
		"1 06 n 05 sofa 0 000 | g",                                   // fewer words than counted
		"1 06 n 01 sofa 0 | g",                                       // no pointer count
		"1 06 n 01 sofa 0 002 @ 2 n 0000 | g",                        // fewer pointers than counted
		"1 06 n 01 sofa 0 001 @ 2 n 00 | g",                          // short source/target
		"1 06 n 01 sofa 0 001 @ 2 x 0000 | g",                        // pointer part of speech
		"1 06 n 01 sofa 0 001 @ 2 n 0201 | g",                        // from a word the synset lacks
		"1 06 n 01 sofa z 000 | g",                                   // lex_id
		"99999999999999999999 06 n 01 sofa 0 000 | g",                // offset out of range
		"1 06 n 01 sofa 0 001 @ 99999999999999999999 n 0000 x x | g", // pointer offset out of range
	} {
		if s, err := Parse(line); err == nil {
			t.Errorf("%q: parsed as %+v", line, s)
		}
	}
}

func TestReadSkipsTheLicenceLines(t *testing.T) {
	file := "  1 This software and database is being provided to you, the LICENSEE, by  \n" +
		"  2 Princeton University under the following license.  \n" +
		nounLine + "\n" + verbLine + "\n"
	got, err := Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Offset != 4256520 || got[1].Offset != 22686 {
		t.Fatalf("got %+v", got)
	}
	if _, err := Read(strings.NewReader(nounLine + "\nnot a synset\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a broken line: error %v, want one naming line 2", err)
	}
}

func TestPairsRelatesSynonymsAndTheChosenPointers(t *testing.T) {
	synsets := []Synset{
		{Offset: 1, POS: 'n', Words: []Word{{"sofa", 0}, {"couch", 0}}, Pointers: []Pointer{
			{Symbol: "@", Offset: 2, POS: 'n'},
			{Symbol: "+", Offset: 3, POS: 'v', Source: 2, Target: 1},
			{Symbol: "@", Offset: 99, POS: 'n'}, // not in the list
		}},
		{Offset: 2, POS: 'n', Words: []Word{{"seat", 0}}},
		{Offset: 3, POS: 'v', Words: []Word{{"couch", 0}, {"frame", 0}}},
	}
	collect := func(symbols ...string) []string {
		set := map[string]bool{}
		for _, s := range symbols {
			set[s] = true
		}
		var got []string
		Pairs(synsets, set, func(a, b Sense) {
			got = append(got, fmt.Sprintf("%s%d:%s%d", a.Lemma, a.Synset.Offset, b.Lemma, b.Synset.Offset))
		})
		slices.Sort(got)
		return got
	}
	if got, want := collect(), []string{"couch3:frame3", "sofa1:couch1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("synonyms only: %q, want %q", got, want)
	}
	if got, want := collect("@", "+"), []string{"couch1:couch3", "couch1:seat2", "couch3:frame3", "sofa1:couch1", "sofa1:seat2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with hypernyms and derivations: %q, want %q", got, want)
	}
}

func TestKeyFoldsSatellitesIntoAdjectives(t *testing.T) {
	if KeyOf('s', 7) != KeyOf('a', 7) || KeyOf('n', 7) == KeyOf('v', 7) {
		t.Fatal("keys")
	}
	if Text("perk_up") != "perk up" {
		t.Fatal(Text("perk_up"))
	}
}

func FuzzParse(f *testing.F) {
	for _, l := range []string{nounLine, verbLine, adjLine, "1 06 n 01 sofa 0 001 @ 2 n 0201 | g"} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s, err := Parse(line)
		if err != nil {
			return
		}
		if len(s.Words) == 0 || !strings.Contains("nvasr", string(s.POS)) {
			t.Fatalf("%q: %+v", line, s)
		}
		for _, p := range s.Pointers {
			if p.Source > len(s.Words) || p.Source < 0 || p.Target < 0 || p.Target > 0xff {
				t.Fatalf("%q: pointer %+v", line, p)
			}
		}
		// Pairs must not fail on whatever parsed, even pointing at itself.
		if len(s.Pointers) > 0 {
			s.Offset, s.POS = s.Pointers[0].Offset, s.Pointers[0].POS
		}
		Pairs([]Synset{s}, map[string]bool{"@": true, "!": true, "+": true}, func(_, _ Sense) {})
	})
}

func TestReadIndexRanksEachLemmasSenses(t *testing.T) {
	index := "  1 licence line  \n" +
		"word n 3 2 @ ~ 3 2 06286395 07140348 06643408  \n" +
		"quick a 2 1 & 2 1 00979366 00981083  \n"
	var got []string
	err := ReadIndex(strings.NewReader(index), func(lemma string, k Key, rank int) {
		got = append(got, fmt.Sprintf("%s %c%d %d", lemma, k.POS, k.Offset, rank))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"word n6286395 1", "word n7140348 2", "word n6643408 3", "quick a979366 1", "quick a981083 2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	for _, line := range []string{
		"word n 3 2 @ ~ 3 2 06286395 07140348", // fewer synsets than counted
		"word n 1 0 1 1 x",                     // offset
		"word q 1 0 1 1 1",                     // part of speech
		"word n 0 0 0 0",                       // no synsets
		"word n",                               // short
	} {
		if err := ReadIndex(strings.NewReader(line+"\n"), func(string, Key, int) {}); err == nil {
			t.Errorf("%q: no error", line)
		}
	}
}

func FuzzReadIndex(f *testing.F) {
	f.Add("word n 3 2 @ ~ 3 2 06286395 07140348 06643408  ")
	f.Add("quick a 2 1 & 2 1 00979366 00981083")
	f.Fuzz(func(t *testing.T, line string) {
		last := 0
		_ = ReadIndex(strings.NewReader(line), func(lemma string, k Key, rank int) {
			if rank == 1 {
				last = 0 // the next lemma
			}
			if lemma == "" || rank != last+1 || k.POS == 's' {
				t.Fatalf("%q: sense %q %+v %d after %d", line, lemma, k, rank, last)
			}
			last = rank
		})
	})
}
