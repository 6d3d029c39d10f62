package embed

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// smallTable is a hand-made table of dimension 4: two pairs of synonyms
// (database, postgres; invoice, billing), a frequent word with a small
// weight (the), and the parts of an identifier.
func smallTable(t testing.TB, theWeight float32) *Table {
	t.Helper()
	tab, err := NewTable(Info{Name: "test", Sources: []string{"hand-made"}, Licence: "CC0-1.0"},
		[]string{"database", "postgres", "invoice", "billing", "the", "pgbouncer", "pg", "bouncer"},
		[]float32{1, 0.9, 1, 0.8, theWeight, 1, 0.5, 0.5},
		[][]float32{
			{1, 0, 0, 0},
			{0.9, 0.2, 0, 0.1},
			{0, 1, 0, 0},
			{0.1, 0.9, 0.1, 0},
			{0, 0, 1, 0},
			{0.7, 0, 0, 0.7},
			{0.5, 0, 0, 0.5},
			{0, 0, 0.2, 0.9},
		})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func embedOne(t testing.TB, m Model, text string) []float32 {
	t.Helper()
	vs, err := m.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || len(vs[0]) != m.Dim() {
		t.Fatalf("Embed(%q): %d vectors, want one of dimension %d", text, len(vs), m.Dim())
	}
	return vs[0]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestTablePoolsWeightedMeanOfKnownTokens(t *testing.T) {
	tab := smallTable(t, 0.05)
	// "The Database" is the database's vector plus 0.05 of the's, normalised;
	// "unknown" counts for nothing.
	db, wdb, _ := tab.Lookup("database")
	the, wthe, _ := tab.Lookup("the")
	if math.Abs(float64(wthe)-0.05) > 1e-4 || wdb != 1 {
		t.Fatalf("weights read back as %v and %v, want 0.05 and 1", wthe, wdb)
	}
	want := make([]float32, 4)
	for j := range want {
		want[j] = wdb*db[j] + wthe*the[j]
	}
	normalise(want)
	got := embedOne(t, tab, "The Database, unknown")
	for j := range want {
		if math.Abs(float64(got[j]-want[j])) > 1e-6 {
			t.Fatalf("Embed = %v, want %v", got, want)
		}
	}
	if n := dot(got, got); math.Abs(n-1) > 1e-5 {
		t.Errorf("|v|^2 = %v, want 1", n)
	}

	// The weight is what makes "the" matter less: with weight 1 it pulls
	// the vector half-way to its own.
	heavy := embedOne(t, smallTable(t, 1), "The Database, unknown")
	if dot(heavy, db) >= dot(got, db)-0.1 {
		t.Errorf("with the's weight 1 the text is as close to database (%.3f) as with 0.05 (%.3f)", dot(heavy, db), dot(got, db))
	}
	if math.Abs(dot(heavy, the)-math.Sqrt(0.5)) > 0.01 {
		t.Errorf("with equal weights, cos(text, the) = %.3f, want %.3f", dot(heavy, the), math.Sqrt(0.5))
	}
}

func TestTableSynonymsComeOutClose(t *testing.T) {
	tab := smallTable(t, 0.05)
	a := embedOne(t, tab, "the database")
	b := embedOne(t, tab, "postgres")
	c := embedOne(t, tab, "billing invoice")
	if dot(a, b) < 0.9 {
		t.Errorf("cos(the database, postgres) = %.3f, want >= .9", dot(a, b))
	}
	if dot(a, c) > 0.3 {
		t.Errorf("cos(the database, billing invoice) = %.3f, want <= .3", dot(a, c))
	}
}

func TestTableEmbedsIdentifierParts(t *testing.T) {
	tab := smallTable(t, 0.05)
	pg, _, _ := tab.Lookup("pgbouncer")
	pgp, _, _ := tab.Lookup("pg")
	bo, _, _ := tab.Lookup("bouncer")
	want := make([]float32, 4)
	for j := range want {
		want[j] = pg[j] + 0.5*pgp[j] + 0.5*bo[j]
	}
	normalise(want)
	got := embedOne(t, tab, "PgBouncer")
	for j := range want {
		if math.Abs(float64(got[j]-want[j])) > 1e-4 {
			t.Fatalf("Embed(PgBouncer) = %v, want %v (pgbouncer + pg/2 + bouncer/2)", got, want)
		}
	}
}

func TestTableUnknownTextIsZero(t *testing.T) {
	tab := smallTable(t, 0.05)
	vs, err := tab.Embed(context.Background(), []string{"", "nothing known here", "database", "!!"})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 3} {
		for _, x := range vs[i] {
			if x != 0 {
				t.Fatalf("text %d: %v, want the zero vector", i, vs[i])
			}
		}
	}
	if dot(vs[2], vs[2]) < 0.99 {
		t.Errorf("a known text: %v, want unit length", vs[2])
	}
	// A token of weight 0 counts as unknown.
	zero := smallTable(t, 0)
	if v := embedOne(t, zero, "the the"); dot(v, v) != 0 {
		t.Errorf("only weight-0 tokens: %v, want zero", v)
	}
}

func TestTableQuantisesWithinHalfAStep(t *testing.T) {
	tab := smallTable(t, 0.05)
	v, w, ok := tab.Lookup("postgres")
	if !ok || math.Abs(float64(w)-0.9) > 1e-4 {
		t.Fatalf("Lookup(postgres) = %v %v %v", v, w, ok)
	}
	step := 0.9 / 127
	for j, x := range []float32{0.9, 0.2, 0, 0.1} {
		if math.Abs(float64(v[j]-x)) > step/2+1e-7 {
			t.Errorf("component %d: %v, want %v within %v", j, v[j], x, step/2)
		}
	}
	if _, _, ok := tab.Lookup("nope"); ok {
		t.Error("Lookup of an unknown token: ok")
	}
	if tab.Len() != 8 || tab.Dim() != 4 || tab.Info().Licence != "CC0-1.0" {
		t.Errorf("Len %d Dim %d Info %+v", tab.Len(), tab.Dim(), tab.Info())
	}
	if !strings.HasPrefix(tab.ID(), "test@") || len(tab.ID()) != len("test@")+12 {
		t.Errorf("ID %q, want test@ and 12 hex digits", tab.ID())
	}
	if smallTable(t, 0.05).ID() != tab.ID() || smallTable(t, 0.5).ID() == tab.ID() {
		t.Error("the ID does not follow the table's contents")
	}
}

func TestTableHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := smallTable(t, 0.05).Embed(ctx, []string{"database"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v", err)
	}
}

func TestNewTableRefusesBadInput(t *testing.T) {
	ok := Info{Name: "t"}
	v1 := [][]float32{{1, 0}}
	for _, c := range []struct {
		name    string
		info    Info
		tokens  []string
		weights []float32
		vectors [][]float32
		want    string
	}{
		{"no name", Info{}, []string{"a"}, []float32{1}, v1, "name"},
		{"@ in name", Info{Name: "a@b"}, []string{"a"}, []float32{1}, v1, "name"},
		{"no tokens", ok, nil, nil, nil, "no tokens"},
		{"counts differ", ok, []string{"a", "b"}, []float32{1}, v1, "one of each"},
		{"dimension 0", ok, []string{"a"}, []float32{1}, [][]float32{{}}, "dimension 0"},
		{"uppercase token", ok, []string{"Db"}, []float32{1}, v1, "not one that Tokens makes"},
		{"joined token", ok, []string{"dry-run"}, []float32{1}, v1, "not one that Tokens makes"},
		{"space in token", ok, []string{"a b"}, []float32{1}, v1, "not one that Tokens makes"},
		{"long token", ok, []string{strings.Repeat("a", 41)}, []float32{1}, v1, "not one that Tokens makes"},
		{"twice", ok, []string{"a", "a"}, []float32{1, 1}, [][]float32{{1, 0}, {0, 1}}, "twice"},
		{"weight > 1", ok, []string{"a"}, []float32{1.5}, v1, "weight"},
		{"weight NaN", ok, []string{"a"}, []float32{float32(math.NaN())}, v1, "weight"},
		{"ragged", ok, []string{"a", "b"}, []float32{1, 1}, [][]float32{{1, 0}, {1}}, "dimension 1"},
		{"inf", ok, []string{"a"}, []float32{1}, [][]float32{{float32(math.Inf(1)), 0}}, "Inf"},
	} {
		_, err := NewTable(c.info, c.tokens, c.weights, c.vectors)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
