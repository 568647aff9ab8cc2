package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/plangraph/plangraph/ent/project"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/tenant"
)

// reindexCmd rebuilds the search index of every project (or one) from the
// stored sheets, blocks, features and words: for drawings ingested before
// the index existed, or after a change of its format. Ingestion and parse
// keep it current otherwise.
func reindexCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		cfg config.Config
		id  string
	)
	err := parse("reindex", args, stderr, &cfg, func(fs *flag.FlagSet) {
		fs.StringVar(&id, "project", "", "only this project (prj_…); default every project")
	})
	if err != nil {
		return err
	}
	st, err := openMigrated(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	bucket, err := blobs.Open(ctx, cfg.BlobURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer bucket.Close()
	q := st.Project.Query()
	if id != "" {
		q.Where(project.ID(id))
	}
	projects, err := q.All(tenant.System(ctx))
	if err != nil {
		return err
	}
	if id != "" && len(projects) == 0 {
		return fmt.Errorf("project %s does not exist", id)
	}
	x := index.New(st.Client, bucket)
	for _, p := range projects {
		pctx := tenant.WithOrg(ctx, p.OrgID)
		if err := x.RebuildProject(pctx, p.ID); err != nil {
			return fmt.Errorf("project %s: %w", p.ID, err)
		}
		n, err := x.Count(pctx, index.Scope{ProjectID: p.ID})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\t%d rows\n", p.ID, n)
	}
	return nil
}
