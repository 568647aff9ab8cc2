package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/internal/service/drawings"
	"github.com/plangraph/plangraph/internal/service/files"
	parsesvc "github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
)

// local is a throwaway embedded instance (SQLite, in-process queue, files
// under a directory) running the pipelines for the local commands.
type local struct {
	app *server.App
	w   *jobs.Worker
	// ctx carries the instance's one organization
	ctx     context.Context
	project string
	cleanup []func()
}

// localCmd is the flag set of a command that runs a pipeline on local
// files in a throwaway instance (ingest, parse: one FILE; compare: OLD and
// NEW): --dpi, --data-dir and --cpuprofile beside the command's own flags,
// and its file arguments.
type localCmd struct {
	fs         *flag.FlagSet
	files      []string // the names of the file arguments
	dpi        *int
	dataDir    *string
	cpuProfile *string
}

// newLocalCmd makes the flag set of command name, whose usage says about,
// taking the file arguments named files (FILE when none are named).
func newLocalCmd(name, about string, stderr io.Writer, files ...string) *localCmd {
	if len(files) == 0 {
		files = []string{"FILE"}
	}
	fs := flag.NewFlagSet("plangraph "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &localCmd{
		fs:         fs,
		files:      files,
		dpi:        fs.Int("dpi", 300, "render DPI (72 to 600)"),
		dataDir:    fs.String("data-dir", "", "keep the instance's data here (default: a temporary directory, removed after)"),
		cpuProfile: fs.String("cpuprofile", "", "write a CPU profile of the run to this file"),
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: plangraph %s [flags] %s\n\n%s\n\nFlags:\n", name, strings.Join(files, " "), about)
		fs.PrintDefaults()
	}
	return c
}

// parse reads the flags in args and returns the one FILE.
func (c *localCmd) parse(args []string) (string, error) {
	paths, err := c.parseFiles(args)
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// parseFiles reads the flags in args and returns the file arguments.
func (c *localCmd) parseFiles(args []string) ([]string, error) {
	if err := c.fs.Parse(args); err != nil {
		return nil, err
	}
	if c.fs.NArg() != len(c.files) {
		c.fs.Usage()
		return nil, fmt.Errorf("the arguments are %s", strings.Join(c.files, " "))
	}
	return c.fs.Args(), nil
}

// open starts the CPU profile and the instance the flags ask for; done
// stops both.
func (c *localCmd) open(ctx context.Context, stderr io.Writer) (_ *local, done func(), err error) {
	return openProfiled(ctx, *c.cpuProfile, *c.dataDir, *c.dpi, stderr)
}

// openProfiled starts a CPU profile into cpuProfile (none when empty), then
// an instance in dir that renders at dpi (see openLocal); done stops both.
func openProfiled(ctx context.Context, cpuProfile, dir string, dpi int, stderr io.Writer) (_ *local, done func(), err error) {
	stop, err := startCPUProfile(cpuProfile)
	if err != nil {
		return nil, nil, err
	}
	l, err := openLocal(ctx, dir, dpi, stderr)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return l, func() { l.close(); stop() }, nil
}

// withLocal runs run on a throwaway instance that renders at dpi, under a
// CPU profile into cpuProfile (none when empty).
func withLocal(ctx context.Context, cpuProfile string, dpi int, stderr io.Writer, run func(l *local) error) error {
	l, done, err := openProfiled(ctx, cpuProfile, "", dpi, stderr)
	if err != nil {
		return err
	}
	defer done()
	return run(l)
}

// writeJSON writes v as indented JSON to the file path, or to stdout when
// path is empty.
func writeJSON(path string, stdout io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if path == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// openLocal starts an instance in dir ("": a temporary directory, removed
// by close) that renders at dpi, with an organization and a project.
func openLocal(ctx context.Context, dir string, dpi int, stderr io.Writer) (_ *local, err error) {
	l := &local{}
	defer func() {
		if err != nil {
			l.close()
		}
	}()
	if dir == "" {
		if dir, err = os.MkdirTemp("", "plangraph-local-"); err != nil {
			return nil, err
		}
		l.cleanup = append(l.cleanup, func() { os.RemoveAll(dir) })
	}
	cfg := config.Config{DataDir: dir, Addr: "127.0.0.1:0", RenderDPI: dpi, LogLevel: "error", ShutdownTimeout: 10 * time.Second,
		BlockSearchBudget: config.DefaultBlockSearchBudget, OCRLanguages: os.Getenv(config.EnvName("ocr-languages"))}
	if err := cfg.Resolve(); err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	if l.app, err = server.Open(ctx, cfg, log); err != nil {
		return nil, err
	}
	l.cleanup = append(l.cleanup, l.app.Close)
	if l.w, err = l.app.StartWorker(); err != nil {
		return nil, err
	}
	l.cleanup = append(l.cleanup, l.w.Shutdown)
	_, key, err := auth.CreateKey(ctx, l.app.Store.Client, "local", "local")
	if err != nil {
		return nil, err
	}
	l.ctx = auth.With(ctx, auth.Principal{OrgID: key.OrgID, KeyID: key.ID})
	prj, err := l.app.Services.Projects.Create(l.ctx, ent.CreateProjectInput{Name: "local"})
	if err != nil {
		return nil, err
	}
	l.project = prj.ID
	return l, nil
}

// close stops the instance and removes what it made.
func (l *local) close() {
	for i := len(l.cleanup) - 1; i >= 0; i-- {
		l.cleanup[i]()
	}
	l.cleanup = nil
}

// upload stores the drawing file at path as a confirmed file.
func (l *local) upload(path string) (*ent.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ct := uploads.Sniff(data[:min(len(data), 1024)])
	if ct == "" {
		return nil, fmt.Errorf("%s is not a PDF, PNG, JPEG or TIFF", path)
	}
	up, err := l.app.Services.Files.CreateUpload(l.ctx, files.UploadInput{ProjectID: l.project, Filename: filepath.Base(path), ContentType: ct, Size: len(data)})
	if err != nil {
		return nil, err
	}
	if err := l.app.Blobs.WriteAll(l.ctx, up.File.StorageKey, data, nil); err != nil {
		return nil, err
	}
	return l.app.Services.Files.Confirm(l.ctx, up.File.ID)
}

// ingest uploads the drawing file at path and makes a drawing of it,
// showing its processing's progress on w; an error when it fails.
func (l *local) ingest(path string, w io.Writer) (*ent.Drawing, *ent.File, error) {
	f, err := l.upload(path)
	if err != nil {
		return nil, nil, err
	}
	res, err := l.app.Services.Drawings.Create(l.ctx, drawings.CreateInput{ProjectID: l.project, FileID: f.ID})
	if err != nil {
		return nil, nil, err
	}
	final, err := waitJob(l.ctx, l.app.Store.Client, res.Job.ID, w)
	if err != nil {
		return nil, nil, err
	}
	if final.Status != job.StatusCompleted {
		return nil, nil, fmt.Errorf("ingest %s: %s", path, failure(final))
	}
	return res.Drawing, f, nil
}

// parseFile uploads the drawing at path and runs a parse of it (options
// as given; nil reads the legends from the drawing), showing progress on
// w. It returns the finished job and, when it completed, its result.
func (l *local) parseFile(path string, opts *parsesvc.Options, w io.Writer) (*ent.Job, parsejob.ParseResult, error) {
	var res parsejob.ParseResult
	f, err := l.upload(path)
	if err != nil {
		return nil, res, err
	}
	j, err := l.app.Services.Parse.Start(l.ctx, parsesvc.Input{Features: []string{"symbols"}, FileID: &f.ID, Options: opts})
	if err != nil {
		return nil, res, err
	}
	final, err := waitJob(l.ctx, l.app.Store.Client, j.ID, w)
	if err != nil {
		return nil, res, err
	}
	if final.Status != job.StatusCompleted {
		return final, res, fmt.Errorf("parse %s: %s", path, failure(final))
	}
	if err := json.Unmarshal(final.Result, &res); err != nil {
		return final, res, err
	}
	return final, res, nil
}

// failure says why job j, finished, did not complete.
func failure(j *ent.Job) string {
	if j.Error != nil {
		return j.Error.Code + ": " + j.Error.Message
	}
	return "failed"
}
