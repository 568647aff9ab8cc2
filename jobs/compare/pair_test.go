package compare

import (
	"image"
	"slices"
	"testing"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

func sheetOf(id string, page int, number, title string) SheetInfo {
	return SheetInfo{ID: id, Page: page, Number: number, NumberNorm: sheetmeta.Normalize(number), Title: title}
}

// page draws a w×h page with a frame and the boxes given as shares of the
// page (x0, y0, x1, y1), filled with ink.
func page(w, h int, boxes ...[4]float64) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	fill := func(x0, y0, x1, y1 int) {
		for y := max(y0, 0); y < min(y1, h); y++ {
			for x := max(x0, 0); x < min(x1, w); x++ {
				img.Pix[y*w+x] = 0
			}
		}
	}
	fill(0, 0, w, 3)
	fill(0, h-3, w, h)
	fill(0, 0, 3, h)
	fill(w-3, 0, w, h)
	for _, b := range boxes {
		fill(int(b[0]*float64(w)), int(b[1]*float64(h)), int(b[2]*float64(w)), int(b[3]*float64(h)))
	}
	return img
}

func pairIDs(p SheetPairing) (pairs [][3]string, added, removed []string) {
	for _, x := range p.Pairs {
		pairs = append(pairs, [3]string{x.Old.ID, x.New.ID, x.By})
	}
	for _, s := range p.Added {
		added = append(added, s.ID)
	}
	for _, s := range p.Removed {
		removed = append(removed, s.ID)
	}
	return
}

func TestPairSheets(t *testing.T) {
	plan := page(360, 240, [4]float64{0.1, 0.1, 0.5, 0.3}, [4]float64{0.6, 0.5, 0.8, 0.9})
	// the same plan reprinted larger and a little shifted, and turned a quarter
	planReprint := page(480, 320, [4]float64{0.11, 0.1, 0.51, 0.3}, [4]float64{0.61, 0.5, 0.81, 0.9})
	other := page(360, 240, [4]float64{0.5, 0.05, 0.95, 0.2}, [4]float64{0.05, 0.6, 0.3, 0.95})
	thumbs := map[string]*image.Gray{"o3": plan, "n3": planReprint, "o4": other, "n5": page(360, 240, [4]float64{0.2, 0.7, 0.4, 0.9})}
	old := []SheetInfo{
		sheetOf("o1", 1, "A-101", "First Floor Plan"),
		sheetOf("o2", 2, "A 102", "Second Floor Plan"),
		sheetOf("o3", 3, "A-103", "Roof Plan"),
		sheetOf("o4", 4, "S-201", "Framing"),
		sheetOf("o6", 6, "", ""),
		sheetOf("o7", 7, "E-1", "Lighting"),
	}
	new := []SheetInfo{
		sheetOf("n2", 2, "A102", "Second floor plan (revised)"), // number, despite the new title
		sheetOf("n1", 1, "a101", "FIRST FLOOR PLAN"),            // number, case and separators differ
		sheetOf("n3", 3, "A-301", "Roof Framing"),               // renumbered and retitled: by image
		sheetOf("n4", 4, "S-202", "FRAMING"),                    // renumbered, same title
		sheetOf("n5", 5, "A-900", "Details"),                    // added: looks like nothing old
		sheetOf("n6", 6, "", ""),                                // unnumbered at the same page
	}
	got := PairSheets(old, new, func(s SheetInfo) *image.Gray { return thumbs[s.ID] })
	pairs, added, removed := pairIDs(got)
	want := [][3]string{{"o1", "n1", "number"}, {"o2", "n2", "number"}, {"o3", "n3", "image"}, {"o4", "n4", "title"}, {"o6", "n6", "page"}}
	if !slices.Equal(pairs, want) {
		t.Errorf("pairs %v, want %v", pairs, want)
	}
	if !slices.Equal(added, []string{"n5"}) || !slices.Equal(removed, []string{"o7"}) {
		t.Errorf("added %v removed %v, want [n5] and [o7]", added, removed)
	}
	var renumbered []string
	for _, p := range got.Pairs {
		if p.Renumbered() {
			renumbered = append(renumbered, p.New.ID)
		}
	}
	if !slices.Equal(renumbered, []string{"n3", "n4"}) {
		t.Errorf("renumbered %v, want [n3 n4]", renumbered)
	}

	// several sheets of one number pair in page order; a title two old
	// sheets share decides nothing
	old = []SheetInfo{sheetOf("a", 1, "X1", "PLAN"), sheetOf("b", 2, "X1", "PLAN"), sheetOf("c", 3, "", "NOTES"), sheetOf("d", 4, "", "NOTES")}
	new = []SheetInfo{sheetOf("B", 2, "X-1", "PLAN"), sheetOf("A", 1, "x1", "PLAN"), sheetOf("C", 9, "Z", "NOTES")}
	pairs, added, removed = pairIDs(PairSheets(old, new, nil))
	if !slices.Equal(pairs, [][3]string{{"a", "A", "number"}, {"b", "B", "number"}}) || !slices.Equal(added, []string{"C"}) ||
		!slices.Equal(removed, []string{"c", "d"}) {
		t.Errorf("pairs %v added %v removed %v", pairs, added, removed)
	}
}

func TestSheetSimilarity(t *testing.T) {
	a := page(300, 200, [4]float64{0.1, 0.1, 0.4, 0.5}, [4]float64{0.6, 0.6, 0.9, 0.8})
	b := page(600, 400, [4]float64{0.1, 0.11, 0.4, 0.51}, [4]float64{0.6, 0.6, 0.9, 0.8})
	c := page(300, 200, [4]float64{0.5, 0.1, 0.9, 0.3}, [4]float64{0.1, 0.5, 0.3, 0.9})
	// a turned a quarter clockwise: the page is portrait
	turned := image.NewGray(image.Rect(0, 0, 200, 300))
	for y := 0; y < 200; y++ {
		for x := 0; x < 300; x++ {
			turned.Pix[x*200+(199-y)] = a.Pix[y*300+x]
		}
	}
	if s := SheetSimilarity(a, b); s < 0.9 {
		t.Errorf("a page and its reprint: %.2f, want ≥ 0.9", s)
	}
	if s := SheetSimilarity(a, turned); s < 0.9 {
		t.Errorf("a page and the page turned: %.2f, want ≥ 0.9", s)
	}
	if s := SheetSimilarity(a, c); s >= MinSheetSimilarity {
		t.Errorf("two different pages: %.2f, want < %.2f", s, MinSheetSimilarity)
	}
	if s := SheetSimilarity(a, nil); s != 0 {
		t.Errorf("no thumbnail: %.2f", s)
	}
	blank := page(300, 200)
	if s := SheetSimilarity(blank, c); s >= MinSheetSimilarity {
		t.Errorf("an empty page: %.2f", s)
	}
}

func TestPairBlocks(t *testing.T) {
	blk := func(id, typ, title string, x0, y0, x1, y1 float64, words ...string) BlockInfo {
		return BlockInfo{ID: id, Type: typ, Title: title, Box: geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1}, SheetW: 1000, SheetH: 600, Words: words}
	}
	old := []BlockInfo{
		blk("plan", "Plan", "FIRST FLOOR PLAN", 20, 20, 600, 500, "OFFICE", "104", "CORRIDOR"),
		blk("tb", "TitleBlock", "", 850, 20, 980, 580, "ACME", "A-101", "REV", "1"),
		blk("det1", "Detail", "DETAIL 1", 620, 20, 820, 200, "WALL", "TYPE", "A"),
		blk("det2", "Detail", "DETAIL 2", 620, 220, 820, 400, "DOOR", "HEAD"),
		blk("notes", "GeneralNotes", "GENERAL NOTES", 620, 420, 820, 580, "ALL", "DIMENSIONS", "TO", "FACE"),
	}
	// the newer sheet is reprinted 1.2× larger: positions are compared as shares of the sheet
	sc := func(b BlockInfo) BlockInfo {
		b.Box = geom.Box{XMin: b.Box.XMin * 1.2, YMin: b.Box.YMin * 1.2, XMax: b.Box.XMax * 1.2, YMax: b.Box.YMax * 1.2}
		b.SheetW, b.SheetH = 1200, 720
		return b
	}
	new := []BlockInfo{
		sc(blk("tb'", "TitleBlock", "", 850, 20, 980, 580, "ACME", "A-101", "REV", "2")),
		sc(blk("plan'", "Plan", "FIRST FLOOR PLAN", 22, 18, 610, 505, "CONFERENCE", "104", "CORRIDOR")),
		// the details swapped places: their titles and words tell them apart
		sc(blk("det2'", "Detail", "DETAIL 2", 620, 20, 820, 200, "DOOR", "HEAD")),
		sc(blk("det1'", "Detail", "DETAIL 1", 620, 220, 820, 400, "WALL", "TYPE", "A")),
		sc(blk("legend", "Legend", "SYMBOL LEGEND", 620, 430, 820, 580, "RECEPTACLE", "SWITCH")),
	}
	pairs, added, removed := PairBlocks(old, new)
	var got [][2]string
	for _, p := range pairs {
		got = append(got, [2]string{p.Old.ID, p.New.ID})
		if p.Score < MinBlockPairScore || p.Score > 1 {
			t.Errorf("pair %s/%s scored %.2f", p.Old.ID, p.New.ID, p.Score)
		}
	}
	want := [][2]string{{"tb", "tb'"}, {"plan", "plan'"}, {"det2", "det2'"}, {"det1", "det1'"}}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	if len(added) != 1 || added[0].ID != "legend" || len(removed) != 1 || removed[0].ID != "notes" {
		t.Errorf("added %v removed %v, want the legend added and the notes removed", added, removed)
	}
	// the same block scores near 1, a different one of another type low
	if s := BlockPairScore(old[0], old[0]); s < 0.99 {
		t.Errorf("a block with itself: %.2f", s)
	}
	if s := BlockPairScore(old[0], old[1]); s >= MinBlockPairScore {
		t.Errorf("a plan and a title block: %.2f", s)
	}
}

// TestPairBlocksMerged: on a revised sheet the layout read a plan and the
// schedule beside it as one region whose title was split differently; the
// plan still pairs with it (it lies inside), the schedule is left removed.
func TestPairBlocksMerged(t *testing.T) {
	blk := func(id, typ, title string, x0, y0, x1, y1 float64, words ...string) BlockInfo {
		return BlockInfo{ID: id, Type: typ, Title: title, Box: geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1}, SheetW: 1000, SheetH: 600, Words: words}
	}
	old := []BlockInfo{
		blk("plan", "Plan", "SECOND FLOOR ELECTRICAL PLAN", 50, 30, 700, 540, "OFFICE", "104", "CORRIDOR", "LOBBY"),
		blk("sched", "Schedule", "LIGHT FIXTURE SCHEDULE", 750, 250, 880, 290, "TYPE", "LAMP"),
	}
	new := []BlockInfo{
		blk("all", "Plan", "SECOND FLOOR ELECTR ICAL PLAN", 20, 6, 985, 595, "OFFICE", "104", "CORRIDOR", "LOBBY", "TYPE", "LAMP", "ACME", "E-201"),
	}
	pairs, added, removed := PairBlocks(old, new)
	if len(pairs) != 1 || pairs[0].Old.ID != "plan" || len(added) != 0 || len(removed) != 1 || removed[0].ID != "sched" {
		t.Errorf("pairs %v, added %v, removed %v; want plan paired with the merged region, the schedule removed", pairs, added, removed)
	}
}
