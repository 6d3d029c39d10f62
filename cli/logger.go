package cli

import (
	"io"
	"sync"

	"github.com/charmbracelet/log"
)

// lazyLogger is planq's logger, built on its first message: building one
// (its styles, the terminal's colour profile) costs about 0.1 ms, which a
// run that logs nothing (--version, most hooks) need not pay.
type lazyLogger struct {
	w     io.Writer
	level log.Level
	once  sync.Once
	l     *log.Logger
}

func newLazyLogger(w io.Writer) *lazyLogger { return &lazyLogger{w: w, level: log.InfoLevel} }

func (l *lazyLogger) logger() *log.Logger {
	l.once.Do(func() {
		l.l = log.NewWithOptions(l.w, log.Options{Prefix: "planq", Level: l.level})
	})
	return l.l
}

// SetLevel sets the least level logged; it is set before the first message.
func (l *lazyLogger) SetLevel(level log.Level) {
	l.level = level
	if l.l != nil {
		l.l.SetLevel(level)
	}
}

func (l *lazyLogger) Debug(msg any, keyvals ...any) {
	if l.level <= log.DebugLevel { // a message below the level builds nothing
		l.logger().Debug(msg, keyvals...)
	}
}

func (l *lazyLogger) Info(msg any, keyvals ...any) {
	if l.level <= log.InfoLevel {
		l.logger().Info(msg, keyvals...)
	}
}

func (l *lazyLogger) Warn(msg any, keyvals ...any) { l.logger().Warn(msg, keyvals...) }
