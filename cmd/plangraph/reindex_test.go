package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
)

func TestReindex(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	octx := tenant.WithOrg(ctx, "org_reindex")
	p := st.Project.Create().SetName("p").SaveX(octx)
	d := st.Drawing.Create().SetProjectID(p.ID).SetName("d.pdf").SaveX(octx)
	st.Sheet.Create().SetProjectID(p.ID).SetDrawingID(d.ID).SetPageNumber(1).SetSheetNumber("E-101").SetTitle("POWER PLAN").SaveX(octx)
	st.Close()

	var out, errb bytes.Buffer
	if err := run(ctx, []string{"reindex", "--data-dir", dir}, &out, &errb); err != nil {
		t.Fatalf("reindex: %v (%s)", err, errb.String())
	}
	if got := out.String(); got != p.ID+"\t1 rows\n" {
		t.Errorf("reindex printed %q, want the project and its one sheet row", got)
	}
	out.Reset()
	err = run(ctx, []string{"reindex", "--data-dir", dir, "--project", "prj_missing"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("reindex of a missing project: %v", err)
	}
}
