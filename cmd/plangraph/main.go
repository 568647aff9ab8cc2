// Command plangraph is the whole service in one binary: the API, the
// workers, and local tools.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/internal/store"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `plangraph — construction drawings as structured data.

Usage:
  plangraph serve     API, workers and web app in one process (the default)
  plangraph api       API and web app only
  plangraph worker    workers only
  plangraph keys create --org NAME [--name LABEL]
                      make an API key (prints only the key)
  plangraph migrate   create or update the database schema
  plangraph reindex [--project ID]
                      rebuild the search index of every project (or one) from what is stored
  plangraph ingest FILE
                      read a drawing file into sheets locally, without a server
  plangraph parse FILE [--legend-dir DIR] [--out result.json] [--csv counts.csv]
                      find and count legend symbols locally, without a server
  plangraph compare OLD NEW [--out report.md] [--pdf report.pdf] [--json result.json]
                    [--images DIR] [--markup markup.pdf]
                      compare two revisions of a drawing set locally, without a server
  plangraph synth --out DIR [--seed N] [--sheets K] [--revision [--revision-motion small|large|turn]] [--page 36x24|42x30|24x18]
                      write synthetic drawing sets (vector PDF) with ground truth JSON
  plangraph bench api measure the API against a bare net/http + pgx handler
  plangraph bench render FILE
                      our 300 DPI render against pdftoppm on the same page
  plangraph bench sesyd DIR [--plans N]
                      symbol matching precision/recall/F1 per label, time per plan, peak RSS
  plangraph bench synth [--seeds N] [--sheets K] [--dpi D] [--out DIR]
                      plangraph parse on synthetic sheets (legends read from the sheets):
                      symbol P/R/F1 per label, legend entries right, time per sheet, peak RSS
  plangraph bench compare [--seeds N] [--motion small|large|turn] [--page SIZE]
                      plangraph compare on synthetic revision pairs: change recall/precision,
                      alignment error, false changes on a moved-only pair, time against render
  plangraph bench search [--seeds N] [--sheets K] [--latency-sheets N]
                      ask over parsed and compared synthetic sets with known answers: exact
                      answers, citations, invented numbers per question type; with
                      --latency-sheets, search/ask p50/p95 on a project of N seeded sheets
                      (no rendering) on SQLite and PostgreSQL, and index build per sheet
  plangraph version   print the version

Run 'plangraph COMMAND --help' for the flags of a command. Every flag has a
PLANGRAPH_* environment equivalent (--database-url = PLANGRAPH_DATABASE_URL).
`

func main() {
	tuneEnv()
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "plangraph:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		cmd, args = "help", nil
	} else if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, "serve", args, stderr, true, true)
	case "api":
		return serve(ctx, "api", args, stderr, true, false)
	case "worker":
		return serve(ctx, "worker", args, stderr, false, true)
	case "keys":
		if len(args) == 0 || args[0] != "create" {
			return fmt.Errorf("usage: plangraph keys create --org NAME [--name LABEL]")
		}
		return keysCreate(ctx, args[1:], stdout, stderr)
	case "ingest":
		return ingestCmd(ctx, args, stdout, stderr)
	case "parse":
		return parseCmd(ctx, args, stdout, stderr)
	case "compare":
		return compareCmd(ctx, args, stdout, stderr)
	case "synth":
		return synthCmd(ctx, args, stdout, stderr)
	case "bench":
		return benchCmd(ctx, args, stdout, stderr)
	case "migrate":
		return migrate(ctx, args, stdout, stderr)
	case "reindex":
		return reindexCmd(ctx, args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionString())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return "plangraph " + v
}

// parse reads cfg's flags (and any extra ones) for command name.
func parse(name string, args []string, stderr io.Writer, cfg *config.Config, extra func(*flag.FlagSet)) error {
	fs := flag.NewFlagSet("plangraph "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg.Flag(fs)
	if extra != nil {
		extra(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: plangraph %s [flags]\n\nFlags:\n", name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg.Resolve()
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}))
}

func serve(ctx context.Context, name string, args []string, stderr io.Writer, api, worker bool) error {
	var cfg config.Config
	if err := parse(name, args, stderr, &cfg, nil); err != nil {
		return err
	}
	if !api && cfg.RedisURL == "" {
		return fmt.Errorf("a worker alone needs a shared queue: set --redis-url (the in-process Redis is only reachable inside 'serve')")
	}
	if !api && cfg.DatabaseURL == "" {
		slog.Warn("worker on the embedded SQLite database: only processes on this machine can share it")
	}
	log := newLogger(stderr, cfg.LogLevel)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// PLANGRAPH_CPU_PROFILE=FILE profiles the process until it stops (`bench load --profile-dir`)
	stopProfile, err := startCPUProfile(os.Getenv("PLANGRAPH_CPU_PROFILE"))
	if err != nil {
		return err
	}
	defer stopProfile()

	app, err := server.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer app.Close()
	for _, w := range app.Store.ServerWarnings(ctx) {
		log.Warn(w)
	}

	if worker {
		w, err := app.StartWorker()
		if err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		// runs after the API has drained, so accepted requests' tasks finish
		defer w.Shutdown()
		log.Info("worker started", "concurrency", cfg.Concurrency)
	}
	if !api {
		<-ctx.Done()
		log.Info("shutting down")
		return nil
	}
	ln, tc, err := app.Listen()
	if err != nil {
		return err
	}
	attrs := []any{"url", cfg.PublicURL, "addr", ln.Addr().String(), "database", map[bool]string{true: "sqlite", false: "postgres"}[cfg.Embedded()],
		"redis", map[bool]string{true: "embedded", false: "external"}[app.Redis.Embedded]}
	if tc.CAFile != "" {
		attrs = append(attrs, "ca", tc.CAFile)
	}
	log.Info("plangraph listening", attrs...)
	fmt.Fprintf(stderr, "\nplangraph is serving %s (HTTPS only)\n", cfg.PublicURL)
	if tc.CAFile != "" {
		fmt.Fprintf(stderr, "  trust its certificate: %s\n", tc.CAFile)
	}
	fmt.Fprintf(stderr, "  make an API key:       plangraph keys create --org NAME --data-dir %s\n", cfg.DataDir)
	fmt.Fprintf(stderr, "  try it:                curl --cacert %s -H \"Authorization: Bearer $KEY\" %s/v1/projects\n\n", tc.CAFile, cfg.PublicURL)
	err = app.Serve(ctx, ln)
	log.Info("shutting down")
	return err
}

func keysCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		cfg       config.Config
		org, name string
	)
	err := parse("keys create", args, stderr, &cfg, func(fs *flag.FlagSet) {
		fs.StringVar(&org, "org", "", "organization name (created when missing)")
		fs.StringVar(&name, "name", "", "a label for the key")
	})
	if err != nil {
		return err
	}
	if org == "" {
		return fmt.Errorf("--org is required")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	st, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	key, rec, err := auth.CreateKey(ctx, st.Client, org, name)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, key)
	fmt.Fprintf(stderr, "created key %s for organization %q (%s); it is shown only now\n", rec.ID, org, rec.OrgID)
	return nil
}

// openMigrated opens cfg's database and brings its schema up to date.
func openMigrated(ctx context.Context, cfg config.Config) (*store.Store, error) {
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	if err := st.Migrate(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg config.Config
	if err := parse("migrate", args, stderr, &cfg, nil); err != nil {
		return err
	}
	st, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintln(stdout, "database schema is up to date")
	return nil
}
