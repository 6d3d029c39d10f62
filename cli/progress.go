package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay is how long work runs before it shows progress: quick work
// stays silent.
const progressDelay = 300 * time.Millisecond

// progress shows, on a terminal's stderr, that long work is under way: what
// it does and for how long, on one line redrawn in place, erased when the
// work ends. Where stderr is no terminal (a hook, a pipe, a log file), with
// --json or --quiet, it shows nothing. Call the returned function when the
// work is done.
func (e *Env) progress(quiet bool, format string, args ...any) (done func()) {
	what := fmt.Sprintf(format, args...)
	return e.progressOf(quiet, func() string { return what })
}

// progressOf is progress with a description read at each redraw, for work
// that counts what it has done.
func (e *Env) progressOf(quiet bool, describe func() string) (done func()) {
	if quiet || e.quiet || !isTerminal(e.Stderr) {
		return func() {}
	}
	e.statusOnce.Do(func() { e.status = &statusLine{w: e.Stderr} })
	return e.status.begin(describe)
}

// statusLine is stderr's one line of progress, shared by the work under way:
// a promote, say, and inside it a build of the read model, shown as
// "promoting a's records: reading 12,000 records from git".
type statusLine struct {
	w     io.Writer
	mu    sync.Mutex
	tasks []*task // under way, outermost first
	stop  chan struct{}
	wg    sync.WaitGroup
}

type task struct{ describe func() string }

func (s *statusLine) begin(describe func() string) (done func()) {
	t := &task{describe}
	s.mu.Lock()
	s.tasks = append(s.tasks, t)
	if len(s.tasks) == 1 {
		s.stop = make(chan struct{})
		s.wg.Add(1)
		go s.draw(s.stop)
	}
	s.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { s.end(t) }) }
}

func (s *statusLine) end(t *task) {
	s.mu.Lock()
	for i, u := range s.tasks {
		if u == t {
			s.tasks = append(s.tasks[:i], s.tasks[i+1:]...)
			break
		}
	}
	last := len(s.tasks) == 0
	stop := s.stop
	s.mu.Unlock()
	if last {
		close(stop)
		s.wg.Wait() // the line is erased before whatever the command prints next
	}
}

// draw redraws the line every tenth of a second, once the work has run
// for progressDelay, until stop; then it erases what it drew.
func (s *statusLine) draw(stop chan struct{}) {
	defer s.wg.Done()
	start := time.Now()
	timer := time.NewTimer(progressDelay)
	defer timer.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	shown := false
	for {
		select {
		case <-stop:
			if shown {
				fmt.Fprint(s.w, "\r\033[K") // erase the line
			}
			return
		case <-timer.C:
			shown = true
		case <-tick.C:
		}
		if shown {
			s.mu.Lock()
			parts := make([]string, 0, len(s.tasks))
			for _, t := range s.tasks {
				parts = append(parts, t.describe())
			}
			s.mu.Unlock()
			elapsed := time.Since(start)
			fmt.Fprintf(s.w, "\r\033[Kplanq: %s %s %.1fs", strings.Join(parts, ": "), spinner(elapsed), elapsed.Seconds())
		}
	}
}

// spinner is a frame of a small animation, so a terminal shows the work is
// alive even while the count of seconds stands still.
func spinner(elapsed time.Duration) string {
	frames := []string{"|", "/", "-", "\\"}
	return frames[int(elapsed/(100*time.Millisecond))%len(frames)]
}

// buildProgress shows a build of the read model from git (a new machine, a
// deleted cache, a new format: seconds at tens of thousands of records) on
// the status line, with the count of records read so far. It is a
// readmodel.Progress.
type buildProgress struct {
	env    *Env
	quiet  bool
	parsed atomic.Int64
	mu     sync.Mutex
	done   func() // while a build is shown
}

func (b *buildProgress) Parsed(n int) {
	b.parsed.Store(int64(n))
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done == nil {
		b.done = b.env.progressOf(b.quiet, func() string {
			return fmt.Sprintf("reading records from git into the read model: %s", thousands(b.parsed.Load()))
		})
	}
}

func (b *buildProgress) Built() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done != nil {
		b.done()
		b.done = nil
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
