package ocr

import (
	"context"
	"fmt"
	"testing"
)

func sheetLabels(wPt, hPt float64) []label {
	var ls []label
	tbx := wPt*0.75 + 10
	ls = append(ls,
		label{"SHEET NUMBER", tbx, hPt - 120, 10, false},
		label{"E201A", tbx, hPt - 60, 40, true},
		label{"SHEET TITLE", tbx, hPt - 200, 10, false},
		label{"LIGHTING PLAN LEVEL 2", tbx, hPt - 170, 16, true},
		label{"GENERAL NOTES", 60, 80, 14, true},
		label{"1. ALL WORK SHALL COMPLY WITH NEC 2020.", 60, 110, 9, false},
		label{"2. VERIFY FIELD CONDITIONS PRIOR TO ROUGH-IN.", 60, 125, 9, false},
		label{"PANEL LP-2A", 400, 500, 9, false},
		label{"CIRCUIT 12", 700, 800, 7, false},
	)
	return ls
}

// BenchmarkOCRSheet times OCR of a 24 × 18 in sheet (title block, notes and
// labels) at 150 and 300 DPI, and at 300 DPI with 400 more small labels:
// go test ./vision/ocr -run '^$' -bench OCRSheet
func BenchmarkOCRSheet(b *testing.B) {
	for _, c := range []struct {
		name  string
		dpi   int
		dense bool
	}{{"150dpi", 150, false}, {"300dpi", 300, false}, {"300dpi-dense", 300, true}} {
		b.Run(c.name, func(b *testing.B) {
			ls := sheetLabels(24*72, 18*72)
			if c.dense {
				for i := 0; i < 400; i++ {
					ls = append(ls, label{fmt.Sprintf("RM %d-%c", 100+i, 'A'+i%6), 60 + float64(i%20)*60, 160 + float64(i/20)*55, 7, false})
				}
			}
			img, _ := page(b, 24*72, 18*72, c.dpi, ls, true)
			words := 0
			for b.Loop() {
				ws, err := Words(context.Background(), img, c.dpi, Options{})
				if err != nil {
					b.Fatal(err)
				}
				words = len(ws)
			}
			b.ReportMetric(float64(words), "words")
		})
	}
}
