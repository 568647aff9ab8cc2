// Package files is the file operations: register an upload, confirm the
// uploaded bytes, sign a download, delete a file and its bytes.
package files

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/project"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/uploads"
)

// Service runs the file operations.
type Service struct{ *base.Deps }

// UploadInput registers a file to upload.
type UploadInput struct {
	ProjectID   string
	Filename    string
	ContentType string
	// Size is the exact size in bytes of what will be uploaded.
	Size int
}

// Upload is a registered file and the signed URL to PUT its bytes to.
type Upload struct {
	File      *ent.File
	UploadURL string
	Method    string
	Headers   json.RawMessage
	ExpiresAt time.Time
}

// downloadTTL is how long a signed download URL is valid.
const downloadTTL = 15 * time.Minute

// CreateUpload registers a file in a project and signs its upload.
func (s *Service) CreateUpload(ctx context.Context, in UploadInput) (*Upload, error) {
	bad := apierr.Fields{}
	name := strings.TrimSpace(in.Filename)
	switch {
	case name == "":
		bad.Add("filename", "is required")
	case utf8.RuneCountInString(name) > 255 || strings.ContainsAny(name, "/\\\x00"):
		bad.Add("filename", "must be at most 255 characters without path separators")
	}
	if !uploads.Allowed(in.ContentType) {
		bad.Add("content_type", "must be one of "+strings.Join(uploads.Types, ", "))
	}
	if in.Size <= 0 {
		bad.Add("size", "must be a positive number of bytes")
	} else if int64(in.Size) > s.Uploads.MaxSize {
		bad.Add("size", fmt.Sprintf("must be at most %d bytes", s.Uploads.MaxSize))
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	if err := base.MustExist(ctx, "project_id", s.DB.Project.Query().Where(project.ID(in.ProjectID)).Exist); err != nil {
		return nil, err
	}
	org, _ := tenant.Org(ctx)
	id := ids.New(ids.File)
	f, err := s.DB.File.Create().SetID(id).SetProjectID(in.ProjectID).SetFilename(name).
		SetContentType(in.ContentType).SetSize(int64(in.Size)).SetStorageKey(uploads.StorageKey(org, id)).Save(ctx)
	if err != nil {
		return nil, err
	}
	u, exp := s.Uploads.UploadURL(f.ID, f.Size)
	hdr, _ := json.Marshal(map[string]string{"Content-Type": f.ContentType})
	return &Upload{File: f, UploadURL: u, Method: "PUT", Headers: hdr, ExpiresAt: exp}, nil
}

// Get fetches a file.
func (s *Service) Get(ctx context.Context, id string) (*ent.File, error) {
	return base.Get(ctx, "file", id, s.DB.File.Get)
}

// Confirm checks the uploaded bytes (size, SHA-256, type) and marks the
// file ready; confirming a ready file again returns it unchanged.
//
// The file is marked ready only if the bytes checked are still its bytes
// (an upload finishing meanwhile replaces them): then the check runs again
// on the new ones, up to three times, after which the client is told to
// confirm once its uploads have finished.
func (s *Service) Confirm(ctx context.Context, id string) (*ent.File, error) {
	for range 3 {
		f, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if f.Status == file.StatusReady {
			return f, nil
		}
		v, err := s.Uploads.Confirm(ctx, f)
		if err != nil {
			return nil, err
		}
		n, err := s.DB.File.Update().Where(file.ID(id), file.StatusEQ(file.StatusPending), file.StorageKey(f.StorageKey)).
			SetStatus(file.StatusReady).SetSha256(v.SHA256).SetConfirmedAt(time.Now().UTC().Truncate(time.Microsecond)).Save(ctx)
		if err != nil {
			return nil, err
		}
		if n == 1 {
			return s.Get(ctx, id)
		}
	}
	return nil, apierr.New(apierr.Conflict, "the bytes of file %s kept being replaced by uploads while they were checked; confirm once every upload has finished", id).
		WithCode("UPLOAD_IN_PROGRESS")
}

// DownloadURL signs a download of a ready file's bytes; "" for a file
// whose bytes are not confirmed yet.
func (s *Service) DownloadURL(ctx context.Context, id string) (string, error) {
	f, err := s.Get(ctx, id)
	if err != nil || f.Status != file.StatusReady {
		return "", err
	}
	u, _ := s.Uploads.DownloadURL(f.ID, downloadTTL)
	return u, nil
}

// Delete deletes a file no drawing uses, then its bytes.
func (s *Service) Delete(ctx context.Context, id string) error {
	f, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	inUse, err := s.DB.Drawing.Query().Where(drawing.FileID(id)).Exist(ctx)
	if err != nil {
		return err
	}
	if inUse {
		return apierr.New(apierr.Conflict, "file %s is used by a drawing; delete the drawing first", id).WithCode("FILE_IN_USE")
	}
	if err := s.DB.File.DeleteOne(f).Exec(ctx); err != nil {
		return base.NotFoundAs(err, "file", id)
	}
	if err := s.Uploads.Delete(ctx, f.StorageKey); err != nil {
		s.Log.WarnContext(ctx, "could not delete file bytes", "file", id, "err", err)
	}
	return nil
}
