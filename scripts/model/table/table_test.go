package table

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func sample(t *testing.T) *Table {
	t.Helper()
	tb, err := New(Info{Name: "test", Sources: []string{"p 1 (MIT)"}},
		[]string{"the", "database", "pg"},
		[]float32{0.2, 1, 0.6},
		[][]float32{{0.5, -1}, {2, -2}, {0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestNewQuantisesRowsToTheirLargestComponent(t *testing.T) {
	tb := sample(t)
	if !reflect.DeepEqual(tb.Vectors, []int8{64, -127, 127, -127, 0, 0}) {
		t.Fatalf("vectors %v", tb.Vectors)
	}
	if tb.Scales[0] != float32(1.0/127) || tb.Scales[2] != 0 {
		t.Fatalf("scales %v", tb.Scales)
	}
	if tb.Weights[1] != 65535 || tb.Weights[0] != 13107 {
		t.Fatalf("weights %v", tb.Weights)
	}
}

func TestWriteThenReadGivesTheTableBack(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "PQEMB1\n") {
		t.Fatalf("magic %q", b.String()[:7])
	}
	got, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if want := sample(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadRefusesDamage(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample(t)); err != nil {
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

func TestNewRefusesRowsThatDoNotMatch(t *testing.T) {
	if _, err := New(Info{Name: "x"}, []string{"a", "b"}, []float32{1, 1}, [][]float32{{1, 2}, {1}}); err == nil {
		t.Fatal("built a table with vectors of two dimensions")
	}
	if _, err := New(Info{Name: "x"}, []string{"a"}, []float32{2}, [][]float32{{1}}); err == nil {
		t.Fatal("built a table with a weight above 1")
	}
}
