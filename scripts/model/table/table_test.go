package table

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func sample() *Table {
	return &Table{
		Header:  Header{Name: "test", Dim: 2, Sources: []Source{{Package: "p", Version: "1", Licence: "MIT"}}},
		Tokens:  []string{"the", "database", "pg"},
		Weights: []float32{0.2, 1, 0.6},
		Scales:  []float32{0.01, 0.5, 0.25},
		Vectors: []int8{1, -2, 127, -127, 0, 5},
	}
}

func TestWriteThenReadGivesTheTableBack(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "PQEMB1\n") {
		t.Fatalf("magic %q", b.String()[:7])
	}
	got, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	if !reflect.DeepEqual(got.Tokens, want.Tokens) || !reflect.DeepEqual(got.Scales, want.Scales) ||
		!reflect.DeepEqual(got.Vectors, want.Vectors) || got.Header.Dim != 2 || got.Header.Vocab != 3 ||
		got.Header.Sources[0] != want.Header.Sources[0] {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want.Weights {
		if d := got.Weights[i] - w; d > 1.0/255 || d < -1.0/255 {
			t.Fatalf("weight %d: %g, want %g", i, got.Weights[i], w)
		}
	}
}

func TestReadRefusesDamage(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	for name, in := range map[string][]byte{
		"truncated": good[:len(good)-5],
		"flipped":   flipped,
		"magic":     append([]byte("PQEMB2\n"), good[7:]...),
		"empty":     nil,
	} {
		if _, err := Read(bytes.NewReader(in)); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

func TestWriteRefusesRowsThatDoNotMatch(t *testing.T) {
	tb := sample()
	tb.Vectors = tb.Vectors[:5]
	if err := Write(&bytes.Buffer{}, tb); err == nil {
		t.Fatal("wrote 5 vector values for 3 tokens of dimension 2")
	}
}
