package server

import (
	"context"
	"log"
	"log/slog"
	"strings"
)

// httpErrorLog is the net/http server's error log: its messages as slog
// records at Warn, but for failed TLS handshakes, which are logged at Debug.
// A handshake fails whenever a client refuses the certificate (every browser
// meeting the local CA's, a scanner, a health check speaking plain HTTP):
// one line per connection that says nothing about the service.
func httpErrorLog(l *slog.Logger) *log.Logger {
	return log.New(errorLogWriter{l}, "", 0)
}

type errorLogWriter struct{ l *slog.Logger }

func (w errorLogWriter) Write(p []byte) (int, error) {
	msg := strings.TrimRight(string(p), "\n")
	level := slog.LevelWarn
	if strings.HasPrefix(msg, "http: TLS handshake error") {
		level = slog.LevelDebug
	}
	w.l.Log(context.Background(), level, msg)
	return len(p), nil
}
