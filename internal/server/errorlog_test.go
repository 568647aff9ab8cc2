package server

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestHTTPErrorLogLevels(t *testing.T) {
	var buf bytes.Buffer
	l := httpErrorLog(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Printf("http: TLS handshake error from 127.0.0.1:4242: remote error: tls: unknown certificate")
	l.Printf("http: superfluous response.WriteHeader call")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "level=DEBUG") || !strings.Contains(lines[0], "TLS handshake error") ||
		!strings.Contains(lines[1], "level=WARN") || !strings.Contains(lines[1], "superfluous") {
		t.Fatalf("log:\n%s", buf.String())
	}
}
