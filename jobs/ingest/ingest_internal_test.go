package ingest

import (
	"context"
	"testing"

	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
)

// A sheet whose lettering names no discipline takes the one most of its
// set's sheets have; a set without a clear majority leaves it empty.
func TestFillDisciplines(t *testing.T) {
	base := context.Background()
	st, err := store.Open(base, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(base); err != nil {
		t.Fatal(err)
	}
	ctx := tenant.WithOrg(base, "org_test")
	p, err := st.Client.Project.Create().SetName("p").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := &Ingest{R: &jobs.Runner{DB: st.Client}}
	for _, c := range []struct {
		have []string
		want string
	}{
		{[]string{"architectural", "architectural", "structural", ""}, "architectural"},
		{[]string{"architectural", "structural", ""}, ""},                // no majority
		{[]string{"electrical", ""}, ""},                                 // one sheet is no set
		{[]string{"civil", "civil", "electrical", "electrical", ""}, ""}, // a tie
	} {
		d, err := st.Client.Drawing.Create().SetProjectID(p.ID).SetName("d").Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var res []SheetResult
		for i, disc := range c.have {
			s, err := st.Client.Sheet.Create().SetProjectID(p.ID).SetDrawingID(d.ID).SetPageNumber(i + 1).SetDiscipline(disc).Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, SheetResult{SheetID: s.ID, PageNumber: i + 1, Discipline: disc})
		}
		if err := in.fillDisciplines(ctx, d.ID, res); err != nil {
			t.Fatal(err)
		}
		blank, err := st.Client.Sheet.Query().Where(sheet.DrawingID(d.ID), sheet.PageNumber(len(c.have))).Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if blank.Discipline != c.want || res[len(res)-1].Discipline != c.want {
			t.Errorf("%v: the blank sheet became %q (result %q), want %q", c.have, blank.Discipline, res[len(res)-1].Discipline, c.want)
		}
	}
}
