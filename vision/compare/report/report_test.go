package report

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// sampleReport is a small drawing compare: one sheet added, one removed,
// one renumbered, and one sheet pair with a changed and an unchanged
// overlay.
func sampleReport() *compare.Report {
	ch := func(id, kind, cat, sev, desc string, b geom.Box) compare.ReportChange {
		return compare.ReportChange{ID: id, Change: compare.Change{Kind: kind, Category: cat, Description: desc,
			Bounds: b, Severity: sev, Confidence: 0.9}}
	}
	a101 := compare.ReportSheet{SheetID: "sht_a", Number: "A-101", Title: "FIRST FLOOR PLAN", Page: 1}
	a101n := a101
	a101n.SheetID, a101n.Page = "sht_b", 2
	return &compare.Report{
		Type: "Drawing", Old: compare.ReportSide{ID: "drw_old", Name: "Rev 0"}, New: compare.ReportSide{ID: "drw_new", Name: "Rev 1"},
		HasChanges: true, Analyzed: true,
		SheetsAdded:      []compare.ReportSheet{{SheetID: "sht_c", Number: "A-103", Title: "ROOF PLAN", Page: 3}},
		SheetsRemoved:    []compare.ReportSheet{{SheetID: "sht_d", Number: "A-901", Title: "DEMOLITION", Page: 4}},
		SheetsRenumbered: []compare.ReportRenumber{{Old: compare.ReportSheet{Number: "A-102", Title: "ELEVATIONS"}, New: compare.ReportSheet{Number: "A-201", Title: "ELEVATIONS"}}},
		Pairs: []compare.ReportSheetPair{{
			Old: a101, New: a101n,
			BlocksAdded: []compare.ReportBlock{{BlockID: "blk_n", Type: "Detail", Title: "DETAIL 4"}},
			Overlays: []compare.ReportOverlay{{
				OverlayID: "ovl_1", Score: 0.91, URI: "/v1/overlays/ovl_1/image",
				Old:       compare.ReportBlock{BlockID: "blk_a", Type: "Plan", Title: "FIRST FLOOR PLAN"},
				New:       compare.ReportBlock{BlockID: "blk_b", Type: "Plan", Title: "FIRST FLOOR PLAN", Bounds: geom.Box{XMin: 100, YMin: 200, XMax: 1300, YMax: 1100}},
				Transform: compare.Transform{Scale: 1.002, RotationDeg: 0.1, Tx: 12.3, Ty: -4, ResidualPx: 0.3},
				Changes: []compare.ReportChange{
					ch("chg_1", "moved", "linework", "major", "wall moved 450 px (≈ 1.5 in at 300 DPI) right", geom.Box{XMin: 100, YMin: 100, XMax: 140, YMax: 600}),
					ch("chg_2", "modified", "text", "moderate", "OFFICE 104 → CONFERENCE 104", geom.Box{XMin: 150, YMin: 300, XMax: 260, YMax: 330}),
					ch("chg_3", "added", "symbol", "moderate", "2 × DUPLEX | RECEPTACLE added", geom.Box{XMin: 900, YMin: 700, XMax: 960, YMax: 730}),
				},
				ByCategory: map[string]int{"linework": 1, "text": 1, "symbol": 1},
			}, {
				OverlayID: "ovl_2", Score: 0.995,
				Old: compare.ReportBlock{Type: "TitleBlock"}, New: compare.ReportBlock{Type: "TitleBlock"},
				Transform: compare.Identity,
			}},
		}},
		ByCategory: map[string]int{"linework": 1, "text": 1, "symbol": 1},
		BySeverity: map[string]int{"major": 1, "moderate": 2},
		ByKind:     map[string]int{"moved": 1, "modified": 1, "added": 1},
	}
}

func TestBand(t *testing.T) {
	for s, want := range map[float64]string{1: BandNearIdentical, 0.95: BandNearIdentical, 0.949: BandModerate,
		0.8: BandModerate, 0.79: BandSignificant, 0.6: BandSignificant, 0.59: BandMajor, 0: BandMajor} {
		if got := Band(s); got != want {
			t.Errorf("Band(%g) = %s, want %s", s, got, want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# Revision comparison: Rev 0 (drw\\_old) → Rev 1 (drw\\_new)",
		"Compared drawing Rev 0 (drw\\_old) (older) with Rev 1 (drw\\_new) (newer).",
		"Changes found: 3.",
		"| major | 1 |\n| moderate | 2 |",
		"| symbol | 1 |\n| text | 1 |\n| linework | 1 |",
		"## Sheets added\n\n- A-103 ROOF PLAN (page 3)",
		"## Sheets removed\n\n- A-901 DEMOLITION (page 4)",
		"- A-102 ELEVATIONS → A-201 ELEVATIONS",
		"## Sheet A-101 FIRST FLOOR PLAN (page 1) → A-101 FIRST FLOOR PLAN (page 2)",
		"- Block added: Detail DETAIL 4",
		"- Score 0.910 (moderate)",
		"| 1 | major | linework | moved | wall moved 450 px (≈ 1.5 in at 300 DPI) right | 0.90 |",
		"| 3 | moderate | symbol | added | 2 × DUPLEX \\| RECEPTACLE added | 0.90 |",
		"### TitleBlock\n\n- Score 0.995 (near-identical)",
		"No changes.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	r := sampleReport()
	r.Analyzed, r.HasChanges = false, false
	b.Reset()
	if err := Markdown(&b, r); err != nil || !strings.Contains(b.String(), "Change analysis was not run (overlays only).") {
		t.Errorf("overlays only: %v\n%s", err, b.String())
	}
}

func TestClouds(t *testing.T) {
	r := sampleReport()
	cs := Clouds(r, 24)
	// The wall (x 100–140) and the room name (x 150–260) lie within 24 px:
	// one cloud; the symbols far off: another. Block offset (100, 200).
	if len(cs) != 2 {
		t.Fatalf("%d clouds: %+v", len(cs), cs)
	}
	want := geom.Box{XMin: 200 - 24, YMin: 300 - 24, XMax: 360 + 24, YMax: 800 + 24}
	if cs[0].Page != 2 || cs[0].Box != want || cs[0].Note != "wall moved 450 px (≈ 1.5 in at 300 DPI) right\nOFFICE 104 → CONFERENCE 104" {
		t.Errorf("first cloud %+v, want page 2 box %+v", cs[0], want)
	}
	if cs[1].Box != (geom.Box{XMin: 976, YMin: 876, XMax: 1084, YMax: 954}) || !strings.Contains(cs[1].Note, "DUPLEX") {
		t.Errorf("second cloud %+v", cs[1])
	}
	if len(Clouds(r, 1000)) != 1 {
		t.Error("a wide margin should group everything")
	}
}

func TestPDFReport(t *testing.T) {
	im := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for i := range im.Pix {
		im.Pix[i] = 255
	}
	for x := 50; x < 350; x++ {
		im.Set(x, 150, color.RGBA{220, 30, 30, 255})
		im.Set(x, 151, color.RGBA{20, 160, 40, 255})
	}
	var asked []string
	fetch := func(id string) (image.Image, error) {
		asked = append(asked, id)
		return im, nil
	}
	var b bytes.Buffer
	if err := PDF(&b, sampleReport(), fetch); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0] != "ovl_1" {
		t.Errorf("images fetched for %v, want only the changed overlay", asked)
	}
	ctx, err := api.ReadAndValidate(bytes.NewReader(b.Bytes()), pdfcpuConfig())
	if err != nil {
		t.Fatalf("the report is not a valid PDF: %v", err)
	}
	if ctx.PageCount < 1 {
		t.Fatal("no pages")
	}
	imgs, err := api.Images(bytes.NewReader(b.Bytes()), nil, pdfcpuConfig())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range imgs {
		n += len(m)
	}
	if n != 1 {
		t.Errorf("%d images in the report, want 1", n)
	}
	// An image that cannot be had is said so, not an error.
	b.Reset()
	if err := PDF(&b, sampleReport(), func(string) (image.Image, error) { return nil, errors.New("gone") }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("%PDF")) {
		t.Fatal("no PDF")
	}
}
