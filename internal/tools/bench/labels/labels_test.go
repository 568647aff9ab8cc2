package labels

import (
	"testing"
)

// TestEmbedded loads the labels built in: every set has its sheets, every
// sheet a number and a title block, every count a labelled view.
func TestEmbedded(t *testing.T) {
	sets, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) < 10 {
		t.Fatalf("%d label sets", len(sets))
	}
	for _, s := range sets {
		if len(s.Sheets) == 0 {
			t.Errorf("%s: no sheets", s.File)
		}
		for _, sh := range s.Sheets {
			tb := 0
			for _, b := range sh.Blocks {
				if b.Type == "TitleBlock" {
					tb++
				}
			}
			if sh.SheetNumber == "" || tb != 1 {
				t.Errorf("%s p%d: number %q, %d title blocks", s.File, sh.Page, sh.SheetNumber, tb)
			}
			for _, c := range sh.Counts {
				found := false
				for _, b := range sh.Blocks {
					found = found || SameText(b.Title, c.View)
				}
				if !found {
					t.Errorf("%s p%d: count of %q in view %q, which is no block's title", s.File, sh.Page, c.Label, c.View)
				}
			}
		}
	}
}

func TestCompare(t *testing.T) {
	if !SameText("Floor Plan,", "FLOOR  PLAN") || !SameText("空気調和設備 機器表（共用部）", "空気調和設備 機器表 (共用部)") || SameText("A-101", "A 102") ||
		!SameText("機器表 （共用部 空調機-2）", "機器表 (共用部空調機 -2)") || SameText("EF 1", "EF1") {
		t.Error("SameText")
	}
	if !SameNumber("a-101", "A-101") || SameNumber("A-101", "A101") || !SameNumber("A 101 ", "A101") {
		t.Error("SameNumber")
	}
	if got := (Box{72, 144, 216, 288}).At(300); got.XMin != 300 || got.YMax != 1200 {
		t.Errorf("At: %v", got)
	}
}
