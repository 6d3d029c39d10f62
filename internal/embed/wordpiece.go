package embed

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenizer is the part of a Hugging Face tokenizer.json that a static
// model needs: normalise a text, cut it into words, cut each word into the
// vocabulary's pieces (WordPiece) or look it up whole (WordLevel), and
// drop what the vocabulary does not know. Its vocabulary is a table's
// (vocab), so that a table converted from the model cuts text with it.
type tokenizer struct {
	spec      tokenizerSpec
	voc       *vocab  // the vocabulary's tokens, by row
	id        []int32 // row -> the token's id in tokenizer.json; nil: the row
	size      int     // the number of ids, added tokens included
	unk       int32   // the unknown token's row, -1 if none
	maxPiece  int     // the longest token's length in bytes
	wordLevel bool
	normalize func(string) string
	split     splitter
}

// tokenizerSpec is what a table converted from a model2vec model keeps of
// its tokenizer.json beside the vocabulary: enough to cut text as the
// model does without reading tokenizer.json again.
type tokenizerSpec struct {
	Type         string          `json:"type"` // WordPiece or WordLevel
	Prefix       string          `json:"prefix,omitempty"`
	MaxChars     int             `json:"max_chars,omitempty"`
	Normalizer   json.RawMessage `json:"normalizer,omitempty"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer,omitempty"`
}

// splitter appends the words of s to dst.
type splitter func(dst []string, s string) []string

// tokenizerFile is what planq reads of tokenizer.json.
type tokenizerFile struct {
	Model struct {
		Type                    string          `json:"type"`
		UnkToken                *string         `json:"unk_token"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    *int            `json:"max_input_chars_per_word"`
		Vocab                   json.RawMessage `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
	} `json:"model"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	AddedTokens  []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
	} `json:"added_tokens"`
}

// errUnsupported marks a tokenizer planq cannot reproduce: the caller
// names the file and suggests another model.
type errUnsupported struct{ what string }

func (e errUnsupported) Error() string { return e.what }

// parseTokenizer reads a tokenizer.json of a WordPiece or WordLevel model
// with BERT's or a simpler normaliser and pre-tokeniser. A token of more
// than 255 bytes, which no table holds, is left out: no word of at most
// max_input_chars_per_word characters of a real vocabulary meets one.
func parseTokenizer(data []byte) (*tokenizer, error) {
	var f tokenizerFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a tokenizer.json: %w", err)
	}
	spec, err := f.spec()
	if err != nil {
		return nil, err
	}
	m := f.Model
	var vocab map[string]int32
	if err := json.Unmarshal(m.Vocab, &vocab); err != nil {
		return nil, fmt.Errorf("tokenizer vocabulary: %w", err)
	}
	if len(vocab) == 0 {
		return nil, fmt.Errorf("tokenizer vocabulary: empty")
	}
	byID, err := numberTokens(vocab, f)
	if err != nil {
		return nil, err
	}
	var text []byte
	ids := make([]int32, 0, len(vocab))
	for id, tok := range byID {
		if _, ok := vocab[tok]; ok && tok != "" && len(tok) <= 255 {
			text = append(append(text, byte(len(tok))), tok...)
			ids = append(ids, int32(id))
		}
	}
	voc, _, _ := newVocab(string(text), len(ids)) // the tokens are a map's keys: no two alike
	t, err := spec.over(voc)
	if err != nil {
		return nil, err
	}
	t.id, t.size = ids, len(byID)
	if m.UnkToken != nil {
		if r, ok := voc.row(*m.UnkToken); ok {
			t.unk = r
		}
	}
	return t, nil
}

func (f *tokenizerFile) spec() (*tokenizerSpec, error) {
	m := f.Model
	spec := &tokenizerSpec{Type: m.Type, MaxChars: 100, Normalizer: f.Normalizer, PreTokenizer: f.PreTokenizer}
	if spec.Type == "" && m.ContinuingSubwordPrefix != nil && m.Merges == nil {
		spec.Type = "WordPiece" // files of older tokenizers name no type
	}
	switch spec.Type {
	case "WordPiece":
		spec.Prefix = "##"
		if m.ContinuingSubwordPrefix != nil {
			spec.Prefix = *m.ContinuingSubwordPrefix
		}
		if m.MaxInputCharsPerWord != nil {
			spec.MaxChars = *m.MaxInputCharsPerWord
		}
	case "WordLevel":
		spec.MaxChars = 0
	case "":
		return nil, errUnsupported{"its model names no type"}
	default:
		return nil, errUnsupported{fmt.Sprintf("a %s tokenizer: planq reads WordPiece and WordLevel tokenizers only", spec.Type)}
	}
	return spec, nil
}

// numberTokens checks that the ids of the vocabulary's tokens and of the
// added tokens outside it are 0 to n-1, each once (a model's rows are
// numbered by both), and returns the tokens by id.
func numberTokens(vocab map[string]int32, f tokenizerFile) ([]string, error) {
	extra := map[int]string{}
	for _, a := range f.AddedTokens {
		if id, ok := vocab[a.Content]; ok {
			if int(id) != a.ID {
				return nil, fmt.Errorf("tokenizer: added token %q has id %d, the vocabulary %d", a.Content, a.ID, id)
			}
			continue
		}
		if c, ok := extra[a.ID]; ok && c != a.Content {
			return nil, fmt.Errorf("tokenizer: added tokens %q and %q have one id, %d", c, a.Content, a.ID)
		}
		extra[a.ID] = a.Content
	}
	byID := make([]string, len(vocab)+len(extra))
	seen := make([]bool, len(byID))
	mark := func(tok string, id int) error {
		if id < 0 || id >= len(byID) {
			return fmt.Errorf("tokenizer: token %q has id %d, but there are %d tokens: not numbered from 0", tok, id, len(byID))
		}
		if seen[id] {
			return fmt.Errorf("tokenizer: token %q has id %d, another token's", tok, id)
		}
		seen[id], byID[id] = true, tok
		return nil
	}
	for tok, id := range vocab {
		if err := mark(tok, int(id)); err != nil {
			return nil, err
		}
	}
	for id, tok := range extra {
		if err := mark(tok, id); err != nil {
			return nil, err
		}
	}
	return byID, nil
}

// over is the tokenizer spec describes, over the vocabulary voc; none
// for no spec: a table planq trained is cut by Tokens.
func (spec *tokenizerSpec) over(voc *vocab) (*tokenizer, error) {
	if spec == nil {
		return nil, nil
	}
	if spec.Type != "WordPiece" && spec.Type != "WordLevel" {
		return nil, errUnsupported{fmt.Sprintf("a %q tokenizer: planq reads WordPiece and WordLevel tokenizers only", spec.Type)}
	}
	t := &tokenizer{spec: *spec, voc: voc, unk: -1, wordLevel: spec.Type == "WordLevel"}
	for r := range voc.len() {
		t.maxPiece = max(t.maxPiece, len(voc.token(r)))
	}
	var err error
	if t.normalize, err = parseNormalizer(spec.Normalizer); err != nil {
		return nil, err
	}
	if t.split, err = parsePreTokenizer(spec.PreTokenizer); err != nil {
		return nil, err
	}
	return t, nil
}

// component is a normaliser or pre-tokeniser of tokenizer.json: a type and
// its options.
type component struct {
	Type string `json:"type"`
	// BertNormalizer
	CleanText          *bool `json:"clean_text"`
	HandleChineseChars *bool `json:"handle_chinese_chars"`
	StripAccents       *bool `json:"strip_accents"`
	Lowercase          *bool `json:"lowercase"`
	// Sequence
	Normalizers   []json.RawMessage `json:"normalizers"`
	PreTokenizers []json.RawMessage `json:"pretokenizers"`
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

// parseNormalizer returns the normaliser raw describes. Unicode
// normalisation forms are taken as already met, as text mostly is (NFC);
// stripping accents decomposes the Latin, Greek and Cyrillic letters.
func parseNormalizer(raw json.RawMessage) (func(string) string, error) {
	if isNull(raw) {
		return unchanged, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("tokenizer normalizer: %w", err)
	}
	if n, ok := plainNormalizers[c.Type]; ok {
		return n, nil
	}
	switch c.Type {
	case "BertNormalizer":
		return bertNormalizer(c), nil
	case "Sequence":
		var seq []func(string) string
		for _, r := range c.Normalizers {
			n, err := parseNormalizer(r)
			if err != nil {
				return nil, err
			}
			seq = append(seq, n)
		}
		return func(s string) string {
			for _, n := range seq {
				s = n(s)
			}
			return s
		}, nil
	}
	return nil, errUnsupported{fmt.Sprintf("a %q normalizer: planq reads BertNormalizer, Lowercase, StripAccents, Strip, the NF forms and Sequences of them", c.Type)}
}

func unchanged(s string) string { return s }

var plainNormalizers = map[string]func(string) string{
	"Lowercase": strings.ToLower, "StripAccents": stripAccents, "Strip": strings.TrimSpace,
	"NFC": unchanged, "NFD": unchanged, "NFKC": unchanged, "NFKD": unchanged,
}

func bertNormalizer(c component) func(string) string {
	clean, chinese, lower := boolOr(c.CleanText, true), boolOr(c.HandleChineseChars, true), boolOr(c.Lowercase, true)
	strip := boolOr(c.StripAccents, lower) // unset: as lowercase says, as BERT does
	return func(s string) string {
		if clean {
			s = cleanText(s)
		}
		if chinese {
			s = padChinese(s)
		}
		if strip {
			s = stripAccents(s)
		}
		if lower {
			s = strings.ToLower(s)
		}
		return s
	}
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// parsePreTokenizer returns the splitter raw describes.
func parsePreTokenizer(raw json.RawMessage) (splitter, error) {
	if isNull(raw) {
		return func(dst []string, s string) []string {
			if s == "" {
				return dst
			}
			return append(dst, s)
		}, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("tokenizer pre_tokenizer: %w", err)
	}
	switch c.Type {
	case "BertPreTokenizer":
		return splitBert, nil
	case "Whitespace":
		return splitWhitespaceRegexp, nil
	case "WhitespaceSplit":
		return func(dst []string, s string) []string { return append(dst, strings.Fields(s)...) }, nil
	case "Sequence":
		var seq []splitter
		for _, r := range c.PreTokenizers {
			p, err := parsePreTokenizer(r)
			if err != nil {
				return nil, err
			}
			seq = append(seq, p)
		}
		return func(dst []string, s string) []string {
			words := []string{s}
			for _, p := range seq {
				var next []string
				for _, w := range words {
					next = p(next, w)
				}
				words = next
			}
			return append(dst, words...)
		}, nil
	}
	return nil, errUnsupported{fmt.Sprintf("a %q pre_tokenizer: planq reads BertPreTokenizer, Whitespace, WhitespaceSplit and Sequences of them", c.Type)}
}

// splitBert splits at white space, and makes each punctuation character a
// word of its own.
func splitBert(dst []string, s string) []string {
	start := -1
	for i, r := range s {
		space, punct := unicode.IsSpace(r), isBertPunct(r)
		if !space && !punct {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			dst = append(dst, s[start:i])
			start = -1
		}
		if punct {
			dst = append(dst, s[i:i+utf8.RuneLen(r)])
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// isBertPunct: ASCII's non-alphanumeric printable characters, and
// Unicode's punctuation.
func isBertPunct(r rune) bool {
	return r >= 33 && r <= 47 || r >= 58 && r <= 64 || r >= 91 && r <= 96 || r >= 123 && r <= 126 || unicode.IsPunct(r)
}

// splitWhitespaceRegexp keeps runs of word characters and runs of other
// non-space characters, as the pattern \w+|[^\w\s]+ does.
func splitWhitespaceRegexp(dst []string, s string) []string {
	start, startWord := -1, false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
			continue
		}
		w := isRegexpWord(r)
		if start >= 0 && w != startWord {
			dst = append(dst, s[start:i])
			start = -1
		}
		if start < 0 {
			start, startWord = i, w
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

func isRegexpWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Nl, r)
}

// cleanText drops NUL, U+FFFD and control characters, and turns white
// space into plain spaces.
func cleanText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case r == 0 || r == utf8.RuneError || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co):
			return -1
		case unicode.IsSpace(r):
			return ' '
		}
		return r
	}, s)
}

// padChinese puts spaces around CJK ideographs, so that each is a word.
func padChinese(s string) string {
	if !strings.ContainsFunc(s, isCJK) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isCJK(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2CEAF || r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}

// stripAccents drops combining marks and takes accented letters to their
// base letter.
func stripAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		if r < 0xC0 || r > 0xFFFF {
			return r
		}
		if i, ok := slices.BinarySearch(accented[:], uint16(r)); ok {
			return rune(accentBase[i])
		}
		return r
	}, s)
}

// rows appends the rows of text's tokens to dst, leaving out what the
// vocabulary does not know.
func (t *tokenizer) rows(dst []int32, text string, words []string, buf []byte) ([]int32, []string, []byte) {
	words = t.split(words[:0], t.normalize(text))
	for _, w := range words {
		if t.wordLevel {
			if r, ok := t.voc.row(w); ok && r != t.unk {
				dst = append(dst, r)
			}
			continue
		}
		if utf8.RuneCountInString(w) > t.spec.MaxChars {
			continue // the unknown token
		}
		mark := len(dst)
		for start := 0; start < len(w); {
			// No token is longer than maxPiece: the longest match is
			// searched from there, so a long word costs linear time.
			end, found := min(len(w), start+t.maxPiece), int32(-1)
			for end > start && end < len(w) && !utf8.RuneStart(w[end]) {
				end--
			}
			for start < end {
				buf = buf[:0]
				if start > 0 {
					buf = append(buf, t.spec.Prefix...)
				}
				buf = append(buf, w[start:end]...)
				if r, ok := t.voc.row(string(buf)); ok {
					found = r
					break
				}
				_, size := utf8.DecodeLastRuneInString(w[start:end])
				end -= size
			}
			if found < 0 {
				dst = dst[:mark] // a word with a piece no token matches is one unknown token
				break
			}
			if found != t.unk {
				dst = append(dst, found)
			}
			start = end
		}
	}
	return dst, words, buf
}
