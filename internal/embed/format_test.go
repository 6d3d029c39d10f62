package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func tableBytes(t testing.TB, tab *Table) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTable(&buf, tab); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWriteReadTableRoundTrip(t *testing.T) {
	tab := smallTable(t, 0.05)
	data := tableBytes(t, tab)
	if !bytes.HasPrefix(data, []byte("PQEMB1\n")) {
		t.Fatalf("file starts %q", data[:8])
	}
	got, err := ReadTable(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != tab.ID() || got.Dim() != tab.Dim() || got.Len() != tab.Len() {
		t.Fatalf("read back %s dim %d len %d, wrote %s dim %d len %d", got.ID(), got.Dim(), got.Len(), tab.ID(), tab.Dim(), tab.Len())
	}
	if info := got.Info(); info.Name != "test" || !slices.Equal(info.Sources, []string{"hand-made"}) || info.Licence != "CC0-1.0" {
		t.Errorf("info read back as %+v", info)
	}
	for _, text := range []string{"the database", "PgBouncer", "billing invoice", "unknown"} {
		if a, b := embedOne(t, tab, text), embedOne(t, got, text); !slices.Equal(a, b) {
			t.Errorf("Embed(%q): %v before writing, %v after reading", text, a, b)
		}
	}
	if again := tableBytes(t, got); !bytes.Equal(again, data) {
		t.Error("writing a table read back gives other bytes")
	}
	// The ID is the name and the file's checksum.
	h := data[len(data)-sha256.Size:]
	if want := "test@" + hexString(h)[:12]; got.ID() != want {
		t.Errorf("ID %q, want %q", got.ID(), want)
	}
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

func TestReadTableRefusesEveryTruncation(t *testing.T) {
	data := tableBytes(t, smallTable(t, 0.05))
	for n := range len(data) {
		if _, err := ReadTable(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("a file cut at byte %d of %d read without error", n, len(data))
		}
	}
	_, err := ReadTable(bytes.NewReader(data[:len(data)-100]))
	if !errors.Is(err, errTruncated) {
		t.Errorf("cut in the vectors: %v, want it to say truncated", err)
	}
}

func TestReadTableRefusesEveryFlippedByte(t *testing.T) {
	data := tableBytes(t, smallTable(t, 0.05))
	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 0x20
		if _, err := ReadTable(bytes.NewReader(bad)); err == nil {
			t.Fatalf("a file with byte %d changed read without error", i)
		}
	}
	bad := slices.Clone(data)
	bad[len(bad)-sha256.Size-1] ^= 1 // the last vector component
	if _, err := ReadTable(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("a changed vector: %v, want a checksum mismatch", err)
	}
}

// rewrite returns data with its header changed by edit and its checksum
// made right again, so that only the header's lie is left to find.
func rewrite(t *testing.T, data []byte, edit func(map[string]any)) []byte {
	t.Helper()
	hl := int(binary.LittleEndian.Uint32(data[len(magic):]))
	start := len(magic) + 4
	var h map[string]any
	if err := json.Unmarshal(data[start:start+hl], &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	hdr, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(magic), binary.LittleEndian.AppendUint32(nil, uint32(len(hdr)))...)
	out = append(out, hdr...)
	out = append(out, data[start+hl:len(data)-sha256.Size]...)
	return withChecksum(out)
}

func withChecksum(payload []byte) []byte {
	sum := sha256.Sum256(payload)
	return append(slices.Clip(payload), sum[:]...)
}

func TestReadTableRefusesBadFiles(t *testing.T) {
	data := tableBytes(t, smallTable(t, 0.05))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"not ours", []byte("hello, world\n"), "not a planq embeddings file"},
		{"safetensors", append(binary.LittleEndian.AppendUint64(nil, 2), "{}"...), "not a planq embeddings file"},
		{"version 2", append([]byte("PQEMB2\n"), data[len(magic):]...), `version "2"`},
		{"header too long", append([]byte(magic), 0xff, 0xff, 0xff, 0xff), "damaged"},
		{"header not JSON", withChecksum(append([]byte(magic), 2, 0, 0, 0, '{', '{')), "header"},
		{"another dimension", rewrite(t, data, func(h map[string]any) { h["dim"] = 5 }), "dimension 4, not the 5"},
		{"a smaller dimension", rewrite(t, data, func(h map[string]any) { h["dim"] = 2 }), "longer than it should be"},
		{"absurd dimension", rewrite(t, data, func(h map[string]any) { h["dim"] = 1 << 40 }), "dimension"},
		{"absurd vocabulary", rewrite(t, data, func(h map[string]any) { h["vocab"] = 1 << 50 }), "truncated"},
		{"no vocabulary", rewrite(t, data, func(h map[string]any) { h["vocab"] = 0 }), "0 tokens"},
		{"fewer tokens", rewrite(t, data, func(h map[string]any) { h["vocab"] = 7 }), "longer than it should be"},
		{"other quantisation", rewrite(t, data, func(h map[string]any) { h["vectors"] = "float16" }), "this planq reads vectors"},
		{"no name", rewrite(t, data, func(h map[string]any) { delete(h, "name") }), "name"},
		{"trailing bytes", withChecksum(append(slices.Clone(data[:len(data)-sha256.Size]), 0, 0, 0)), "longer than it should be"},
		{"bad checksum", append(slices.Clone(data[:len(data)-1]), data[len(data)-1]^1), "checksum mismatch"},
	} {
		_, err := ReadTable(bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestReadTableRefusesDuplicateTokens(t *testing.T) {
	tab := smallTable(t, 0.05)
	tab2 := *tab
	tokens := tokensOf(tab)
	tokens[1] = tokens[0] // two rows named "database", same length as "postgres"
	// Written as it is, without the index that would refuse it.
	text := vocabText(tokens)
	tab2.voc = &vocab{text: text, start: make([]uint32, len(tokens))}
	for i, q := 0, 0; i < len(tokens); i++ {
		tab2.voc.start[i] = uint32(q + 1)
		q += 1 + int(text[q])
	}
	if _, err := ReadTable(bytes.NewReader(tableBytes(t, &tab2))); err == nil || !strings.Contains(err.Error(), `token "database" occurs twice: damaged`) {
		t.Errorf("a token twice: %v", err)
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after < len(p) {
		return 0, errors.New("disk full")
	}
	w.after -= len(p)
	return len(p), nil
}

func TestWriteTableReportsWriteErrors(t *testing.T) {
	tab := randomTable(t, 3000, 32, 1)
	size := len(tableBytes(t, tab))
	for _, after := range []int{0, 100, size / 2, size - 10} {
		if err := WriteTable(&failingWriter{after: after}, tab); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("a writer failing after %d bytes: %v", after, err)
		}
	}
}

// randomTable is a table of n made-up tokens of dimension dim.
func randomTable(t testing.TB, n, dim int, seed uint64) *Table {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	tokens := make([]string, n)
	weights := make([]float32, n)
	vectors := make([][]float32, n)
	for i := range n {
		tokens[i] = tokenName(i)
		weights[i] = rng.Float32()
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		vectors[i] = v
	}
	tab, err := NewTable(Info{Name: "random"}, tokens, weights, vectors)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// tokenName is a distinct lowercase word for each i: a, b, ..., ba, bb, ...
func tokenName(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			break
		}
	}
	slices.Reverse(b)
	return string(b)
}

func FuzzReadTable(f *testing.F) {
	small := tableBytes(f, smallTable(f, 0.05))
	f.Add(small[:len(small)-sha256.Size])
	f.Add(tableBytes(f, randomTable(f, 30, 3, 2)))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// As it comes, and with its checksum made right, so that the
		// parser's checks past the checksum are reached too.
		for _, in := range [][]byte{data, withChecksum(slices.Clone(data))} {
			tab, err := ReadTable(bytes.NewReader(in))
			if err != nil {
				continue
			}
			if tab.Dim() < 1 || tab.Dim() > MaxDim || tab.Len() < 1 {
				t.Fatalf("read a table of dimension %d and %d tokens", tab.Dim(), tab.Len())
			}
			texts := tokensOf(tab)
			vs, err := tab.Embed(context.Background(), append(texts, strings.Join(texts, " ")))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if n := dot(v, v); n != 0 && (n < 0.999 || n > 1.001) {
					t.Fatalf("a vector of squared length %v", n)
				}
			}
			back, err := ReadTable(bytes.NewReader(tableBytes(t, tab)))
			if err != nil || back.Len() != tab.Len() || back.Dim() != tab.Dim() {
				t.Fatalf("a table read, written and read again: %v", err)
			}
		}
	})
}

func BenchmarkReadTable(b *testing.B) {
	// About 10 MB: 100,000 tokens of dimension 90, the most planq ships.
	data := tableBytes(b, randomTable(b, 100_000, 90, 3))
	b.Run("checked", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadTable(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(data))/1e6, "MB")
	})
	// As Default reads the table built into planq: from bytes in memory,
	// trusting the checksum a test has checked.
	b.Run("built-in", func(b *testing.B) {
		for b.Loop() {
			if _, err := parseTable(slices.Clone(data), false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEmbedQuery(b *testing.B) {
	// Ten words the table knows, as a question of ten words would mostly be.
	tab := randomTable(b, 50_000, 64, 4)
	var words []string
	for i := range 10 {
		words = append(words, tab.Token(i*4999))
	}
	query := []string{strings.Join(words, " ")}
	for b.Loop() {
		if _, err := tab.Embed(context.Background(), query); err != nil {
			b.Fatal(err)
		}
	}
}

// tokensOf is every token of tab, by row.
func tokensOf(tab *Table) []string {
	out := make([]string, tab.Len())
	for i := range out {
		out[i] = tab.Token(i)
	}
	return out
}
