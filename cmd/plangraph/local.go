package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
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
		BlockSearchBudget: config.DefaultBlockSearchBudget}
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
	prj, err := l.app.Resolver.Mutation().CreateProject(l.ctx, ent.CreateProjectInput{Name: "local"})
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
	m := l.app.Resolver.Mutation()
	up, err := m.CreateFileUpload(l.ctx, generated.CreateFileUploadInput{ProjectID: l.project, Filename: filepath.Base(path), ContentType: ct, Size: len(data)})
	if err != nil {
		return nil, err
	}
	if err := l.app.Blobs.WriteAll(l.ctx, up.File.StorageKey, data, nil); err != nil {
		return nil, err
	}
	return m.ConfirmFile(l.ctx, up.File.ID)
}

// parseFile uploads the drawing at path and runs a parse of it (options
// as given; nil reads the legends from the drawing), showing progress on
// w. It returns the finished job and, when it completed, its result.
func (l *local) parseFile(path string, opts *generated.ParseOptions, w io.Writer) (*ent.Job, jobs.ParseResult, error) {
	var res jobs.ParseResult
	f, err := l.upload(path)
	if err != nil {
		return nil, res, err
	}
	j, err := l.app.Resolver.Mutation().Parse(l.ctx, generated.ParseInput{Features: []string{"symbols"}, FileID: &f.ID, Options: opts})
	if err != nil {
		return nil, res, err
	}
	final, err := waitJob(l.ctx, l.app.Store.Client, j.ID, w)
	if err != nil {
		return nil, res, err
	}
	if final.Status != job.StatusCompleted {
		msg := "failed"
		if final.Error != nil {
			msg = final.Error.Code + ": " + final.Error.Message
		}
		return final, res, fmt.Errorf("parse %s: %s", path, msg)
	}
	if err := json.Unmarshal(final.Result, &res); err != nil {
		return final, res, err
	}
	return final, res, nil
}
