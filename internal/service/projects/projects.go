// Package projects is the project operations: create, rename, fetch and
// delete (with everything the project stored).
package projects

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Service runs the project operations.
type Service struct{ *base.Deps }

// Create makes a project.
func (s *Service) Create(ctx context.Context, in ent.CreateProjectInput) (*ent.Project, error) {
	name, err := checkName(in.Name)
	if err != nil {
		return nil, err
	}
	in.Name = name
	return s.DB.Project.Create().SetInput(in).Save(ctx)
}

// Update changes a project's name.
func (s *Service) Update(ctx context.Context, id string, in ent.UpdateProjectInput) (*ent.Project, error) {
	// looked up first in the caller's organization, as drawings.Update: an
	// update that sets nothing would read the row back without the
	// organization's predicate
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	if in.Name != nil {
		name, err := checkName(*in.Name)
		if err != nil {
			return nil, err
		}
		in.Name = &name
	}
	p, err := s.DB.Project.UpdateOneID(id).SetInput(in).Save(ctx)
	return p, base.NotFoundAs(err, "project", id)
}

// Get fetches a project.
func (s *Service) Get(ctx context.Context, id string) (*ent.Project, error) {
	return base.Get(ctx, "project", id, s.DB.Project.Get)
}

// Delete deletes project p and then what it stored: its drawings' images,
// the exemplars of symbols supplied to its parses, and its files' bytes.
func (s *Service) Delete(ctx context.Context, p string) error {
	if _, err := s.Get(ctx, p); err != nil {
		return err
	}
	prefixes, err := s.StoredUnder(ctx, drawing.ProjectID(p))
	if err != nil {
		return err
	}
	org, _ := tenant.Org(ctx)
	supplied, err := s.DB.Feature.Query().Where(feature.KindEQ(feature.KindLegendEntry), feature.Not(feature.HasBlock()),
		feature.HasJobWith(job.ProjectID(p))).IDs(ctx)
	if err != nil {
		return err
	}
	prefixes = append(prefixes, blobs.FeatureBlobPrefixes(org, supplied)...)
	files, err := s.DB.File.Query().Where(file.ProjectID(p)).All(ctx)
	if err != nil {
		return err
	}
	if err := s.DB.Project.DeleteOneID(p).Exec(ctx); err != nil {
		return base.NotFoundAs(err, "project", p)
	}
	s.DeleteStored(ctx, prefixes)
	for _, f := range files {
		if f.StorageKey == "" {
			continue
		}
		if err := s.Uploads.Delete(ctx, f.StorageKey); err != nil {
			s.Log.WarnContext(ctx, "could not delete file bytes", "file", f.ID, "err", err)
		}
	}
	return nil
}

// checkName trims and checks a project name.
func checkName(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", apierr.Invalid("name", "is required")
	case utf8.RuneCountInString(s) > 200:
		return "", apierr.Invalid("name", "must be at most 200 characters")
	}
	return s, nil
}
