package cli

import (
	"fmt"
	"sync"
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
	if quiet || e.quiet || !isTerminal(e.Stderr) {
		return func() {}
	}
	what := fmt.Sprintf(format, args...)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
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
					fmt.Fprint(e.Stderr, "\r\033[K") // erase the line
				}
				return
			case <-timer.C:
				shown = true
			case <-tick.C:
			}
			if shown {
				fmt.Fprintf(e.Stderr, "\r\033[Kplanq: %s %s %.1fs", what, spinner(time.Since(start)), time.Since(start).Seconds())
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			wg.Wait()
		})
	}
}

// spinner is a frame of a small animation, so a terminal shows the work is
// alive even while the count of seconds stands still.
func spinner(elapsed time.Duration) string {
	frames := []string{"|", "/", "-", "\\"}
	return frames[int(elapsed/(100*time.Millisecond))%len(frames)]
}
