// Command searcheval measures how often today's search finds the record
// that answers a question:
//
//	go run ./scripts/searcheval                  # 5,000 records, seed 1
//	go run ./scripts/searcheval -records 20000 -seed 7 -v
//	go run ./scripts/searcheval -model ~/models/potion-base-8M   # another model
//
// It generates the corpus of search/eval from the data in
// search/testdata/eval, loads it into a state repository under a temporary
// directory, asks every question through readmodel's search and prints
// recall@1, @5, @10 and MRR, of all questions and by group (among them,
// those that share a word with their answer and those that share none);
// -v adds each question's rank and the IDs it got. Run it from the
// repository's root, or say where the data is with -data.
//
// Search embeds by the model built into planq, or by -model: a table file
// (.pqemb, planq's own format) or a model2vec directory. Each channel is
// measured alone (words only; meaning only) and fused, for one phrasing and
// for three; with no model the vector channel is off and says so.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search/eval"
	"github.com/planq-dev/planq/search/eval/readside"
)

var (
	records = flag.Int("records", 5000, "records in the corpus")
	seed    = flag.Uint64("seed", 1, "corpus seed")
	verbose = flag.Bool("v", false, "print every question's rank")
	keep    = flag.Bool("keep", false, "keep the temporary directory (and print where it is)")
	data    = flag.String("data", eval.DataDir, "the directory of the evaluation's data")
	model   = flag.String("model", "", "embed by this model: a .pqemb table file or a model2vec directory (default: the one built into planq)")
)

func main() {
	flag.Parse()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "searcheval:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	tmp, err := os.MkdirTemp("", "planq-searcheval-")
	if err != nil {
		return fmt.Errorf("failed to make a temporary directory: %w", err)
	}
	if *keep {
		fmt.Println("corpus in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	// git reads no config of the user's: their hooks, templates or
	// fsmonitor have no say in what is measured.
	if err := isolateGit(tmp); err != nil {
		return err
	}

	material, err := eval.ReadData(os.DirFS(*data))
	if err != nil {
		return fmt.Errorf("%w (run from the repository's root, or pass -data)", err)
	}
	start := time.Now()
	set, err := material.Corpus(*records, *seed)
	if err != nil {
		return err
	}
	generated := time.Since(start)
	start = time.Now()
	repo, err := eval.Load(ctx, filepath.Join(tmp, "state.git"), set)
	if err != nil {
		return err
	}
	loaded := time.Since(start)
	m, why, err := loadModel(*model)
	if err != nil {
		return err
	}
	words := readmodel.Open(repo, filepath.Join(tmp, "cache"))
	rd := readmodel.Open(repo, filepath.Join(tmp, "cache"))
	if m != nil {
		rd.UseModel(func(context.Context) (embed.Model, error) { return m, nil })
	}
	start = time.Now()
	report, err := eval.Measure(ctx, set, readside.Search(rd, false).One()) // the first embeds the records
	if err != nil {
		return err
	}
	measured := time.Since(start)
	agentReport, err := eval.MeasureAgent(ctx, set, readside.Search(rd, false))
	if err != nil {
		return err
	}
	primeReport, err := eval.Measure(ctx, set, readside.PrimeSearch(rd, prime.MaxRelevant))
	if err != nil {
		return err
	}
	// The spread questions: today's prime, then prime once the knowledge
	// base's update made the articles.
	spreadToday, err := eval.MeasureSpread(ctx, set, readside.PrimeSearch(rd, prime.MaxRelevant), nil)
	if err != nil {
		return err
	}
	start = time.Now()
	if _, err := knowledge.Update(ctx, readside.Store(repo, rd), knowledge.Options{}); err != nil {
		return err
	}
	kbUpdate := time.Since(start)
	spreadKB, err := eval.MeasureSpread(ctx, set, nil, readside.PrimeArticles(rd, repo))
	if err != nil {
		return err
	}
	type channel struct {
		name       string
		one, three eval.Report
	}
	var channels []channel
	if m != nil {
		wordsOne, err := eval.Measure(ctx, set, readside.Search(words, false).One())
		if err != nil {
			return err
		}
		wordsThree, err := eval.MeasureAgent(ctx, set, readside.Search(words, false))
		if err != nil {
			return err
		}
		meaningOne, err := eval.Measure(ctx, set, readside.Search(rd, true).One())
		if err != nil {
			return err
		}
		meaningThree, err := eval.MeasureAgent(ctx, set, readside.Search(rd, true))
		if err != nil {
			return err
		}
		channels = []channel{{"words only", wordsOne, wordsThree}, {"meaning only", meaningOne, meaningThree}, {"fused", report, agentReport}}
	}

	superseded := 0
	for _, q := range set.Questions {
		if len(q.Superseded) > 0 {
			superseded++
		}
	}
	fmt.Printf("corpus: %d records, %d domains, seed %d; %d questions (%d with a superseded older version)\n",
		len(set.Entries), len(set.Domains()), set.Seed, len(set.Questions), superseded)
	if m != nil {
		fmt.Printf("vector channel: on, model %s (dimension %d)\n", m.ID(), m.Dim())
	} else {
		fmt.Printf("vector channel: off (%s): words alone ranked\n", why)
	}
	fmt.Printf("time: generate %s, load %s, search %s (%s a question; the first search embeds the records)\n\n",
		round(generated), round(loaded), round(measured), round(measured/time.Duration(max(1, len(set.Questions)))))

	fmt.Printf("%-26s %9s %9s %9s %9s %6s\n", "questions", "recall@1", "recall@5", "recall@10", "MRR", "n")
	printMetrics("all", report.Metrics)
	var ident, para, sup []eval.Rank
	for _, r := range report.Ranks {
		if r.Question.Identifier {
			ident = append(ident, r)
		} else {
			para = append(para, r)
		}
		if len(r.Question.Superseded) > 0 {
			sup = append(sup, r)
		}
	}
	printMetrics("in other words", eval.Summarize(para))
	printMetrics("naming an identifier", eval.Summarize(ident))
	printMetrics("with an older version", eval.Summarize(sup))
	printMetrics("sharing a word with it", report.SharingAWord)
	printMetrics("sharing no word with it", report.SharingNoWord)
	fmt.Println()
	fmt.Println("asked as an agent asks, following planq_search's instruction: the question")
	fmt.Println("and two more phrasings, one naming the identifiers it expects (written")
	fmt.Println("without seeing the answers; see search/testdata/eval/README.md)")
	printMetrics("all, three phrasings", agentReport.Metrics)
	printMetrics("sharing a word, three", agentReport.SharingAWord)
	printMetrics("sharing no word, three", agentReport.SharingNoWord)
	fmt.Println()
	fmt.Printf("prime, with the question as the agent's focus: its \"relevant to your task\" part\n")
	fmt.Printf("holds the answer for %.3f of the questions (search's recall@5 with one phrasing: %.3f)\n",
		primeReport.Recall5, report.Recall5)
	fmt.Printf("prime by group: %.3f of the %d sharing a word with their answer, %.3f of the %d sharing none\n",
		primeReport.SharingAWord.Recall5, primeReport.SharingAWord.Questions,
		primeReport.SharingNoWord.Recall5, primeReport.SharingNoWord.Questions)

	fmt.Println()
	fmt.Printf("%d questions whose answer is spread over several records of one subject, the focus set to the question:\n", spreadToday.Questions)
	fmt.Printf("  today's prime shows a record of the subject among the task's records for %.3f\n", spreadToday.Record)
	fmt.Printf("  with the knowledge base (kb update took %s), prime shows the article gathering them\n", round(kbUpdate))
	fmt.Printf("  whole for %.3f, whole or by its index line for %.3f\n", spreadKB.Body, spreadKB.Listed)

	if len(channels) > 0 {
		fmt.Println()
		fmt.Println("each channel alone and fused (recall@5; all, sharing a word, sharing none)")
		fmt.Printf("%-14s %26s %26s\n", "", "one phrasing", "three phrasings")
		for _, c := range channels {
			fmt.Printf("%-14s %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n", c.name,
				c.one.Recall5, c.one.SharingAWord.Recall5, c.one.SharingNoWord.Recall5,
				c.three.Recall5, c.three.SharingAWord.Recall5, c.three.SharingNoWord.Recall5)
		}
	}

	if *verbose {
		fmt.Println()
		for i, r := range spreadKB.Ranks {
			fmt.Printf("record %-5v body %-5v listed %-5v %-28s %q\n", spreadToday.Ranks[i].Record, r.Body, r.Listed, r.Question.Key, r.Question.Text)
		}
		fmt.Println()
		for i, r := range report.Ranks {
			fmt.Printf("%4s %4s  %-28s %s  %q\n", rankText(r), rankText(agentReport.Ranks[i]), r.Question.Key, r.Question.AnswerID, r.Question.Text)
			if r.Question.SharesNoWord() {
				fmt.Println("      shares no word with its answer")
			}
			if r.Rank != 1 {
				fmt.Printf("      got: %s\n", strings.Join(r.Results, " "))
			}
		}
	}
	return nil
}

// rankText is where a question's answer ranked: a number, "old" when an
// older version came first, "-" when it was not found.
func rankText(r eval.Rank) string {
	switch {
	case r.Stale:
		return "old"
	case r.Rank > 0:
		return fmt.Sprint(r.Rank)
	}
	return "-"
}

func printMetrics(name string, m eval.Metrics) {
	fmt.Printf("%-26s %9.3f %9.3f %9.3f %9.3f %6d\n", name, m.Recall1, m.Recall5, m.Recall10, m.MRR, m.Questions)
}

// loadModel opens the model to measure: the table file or model2vec
// directory at path, or the one built into planq; with none, it says why.
func loadModel(path string) (embed.Model, string, error) {
	if path == "" {
		t, err := embed.Default()
		if err != nil {
			return nil, "no model: " + err.Error(), nil
		}
		return t, "", nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, "", fmt.Errorf("-model: %w", err)
	}
	if info.IsDir() {
		m, err := embed.LoadModel2Vec(path)
		if err != nil {
			return nil, "", fmt.Errorf("-model: %w", err)
		}
		return m, "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("-model: %w", err)
	}
	defer f.Close()
	t, err := embed.ReadTable(f)
	if err != nil {
		return nil, "", fmt.Errorf("-model %s: %w", path, err)
	}
	return t, "", nil
}

func isolateGit(tmp string) error {
	cfg := filepath.Join(tmp, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = searcheval\n\temail = searcheval@localhost\n"), 0o644); err != nil {
		return fmt.Errorf("failed to write git config: %w", err)
	}
	for k, v := range map[string]string{"GIT_CONFIG_GLOBAL": cfg, "GIT_CONFIG_NOSYSTEM": "1"} {
		if err := os.Setenv(k, v); err != nil {
			return fmt.Errorf("failed to set %s: %w", k, err)
		}
	}
	return nil
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}
