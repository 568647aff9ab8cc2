package ocr

import (
	"context"
	"image"
	"image/draw"
	"os"
	"slices"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// cjkFont is a Japanese font scripts/deps.sh installs (fonts-ipafont-gothic).
const cjkFont = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"

// lettered draws lines of text (x, y of each line's baseline, in pixels)
// in the Japanese font at px pixels high on white paper.
func lettered(t *testing.T, w, h int, px float64, lines []string) *image.Gray {
	t.Helper()
	raw, err := os.ReadFile(cjkFont)
	if err != nil {
		t.Fatalf("the Japanese font (scripts/deps.sh test installs fonts-ipafont-gothic): %v", err)
	}
	f, err := opentype.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.White, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: img, Src: image.Black, Face: face}
	for i, s := range lines {
		col, row := i%2, i/2
		d.Dot = fixed.P(80+col*w/2, int(3*px)*(row+1))
		d.DrawString(s)
	}
	return img
}

// A page lettered in Japanese, read by the English model, reads as doubtful
// Latin words; read again in Japanese they are Japanese: the page is
// Japanese, and words holding Japanese make it a language to read more of
// the page in. A page of English with symbols (circled letters, marks)
// English doubts is in no other language.
func TestDetectLanguage(t *testing.T) {
	if !slices.Contains(installed(), "jpn") {
		t.Fatal("Japanese traineddata not installed (scripts/deps.sh installs tesseract-ocr-jpn)")
	}
	ctx := context.Background()
	jp := lettered(t, 2400, 1500, 50, []string{
		"空気調和設備", "換気機器表", "実施設計図", "図面番号", "機器番号", "注記事項",
		"共用部空調機", "電動機出力", "全熱交換機", "排煙機", "設計担当", "縮尺",
		"専有部", "室内機", "屋外機", "冷房能力",
	})
	words, err := Words(ctx, jp, 300, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lang, err := DetectLanguage(ctx, jp, 300, words)
	if err != nil || lang != "jpn" {
		t.Errorf("Japanese page read as %d English words: DetectLanguage %q, %v; want jpn", len(words), lang, err)
	}
	again, err := Words(ctx, jp, 300, Options{Languages: append(DefaultLanguages(), lang)})
	if err != nil {
		t.Fatal(err)
	}
	if got := LanguagesFor(again); !slices.Equal(got, []string{"eng", "jpn"}) {
		t.Errorf("languages for the page read in Japanese: %v, want [eng jpn]", got)
	}
	if got := LanguagesFor(words); !slices.Equal(got, []string{"eng"}) {
		t.Errorf("languages for the English reading: %v, want [eng]", got)
	}

	en, _ := page(t, 800, 500, 300, []label{
		{s: "GROUND FLOOR PLAN", x: 40, y: 60, size: 14}, {s: "© ® ⊕ ◎ @", x: 40, y: 120, size: 14},
		{s: "SCALE 1:100", x: 40, y: 180, size: 12}, {s: "→ ⇐ ∅ ∞ §", x: 40, y: 240, size: 14},
		{s: "Brüstungshöhe Fußbodenhöhe", x: 40, y: 300, size: 12}, {s: "Ø 150 ± 2 ° ¤", x: 40, y: 360, size: 14},
	}, true)
	words, err = Words(ctx, en, 300, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lang, err := DetectLanguage(ctx, en, 300, words); err != nil || lang != "" {
		t.Errorf("English page: DetectLanguage %q, %v; want none", lang, err)
	}
}

// Words of another script in fewer than scriptWins words add no language.
func TestLanguagesForFewWords(t *testing.T) {
	ws := []text.Word{{Text: "PLAN"}, {Text: "換気"}, {Text: "機器"}, {Text: "EF-1"}, {Text: "表"}}
	if got := LanguagesFor(ws); !slices.Equal(got, []string{"eng"}) {
		t.Errorf("LanguagesFor %v, want [eng]", got)
	}
	ws = append(ws, text.Word{Text: "番号", Box: geom.Box{}})
	if got := LanguagesFor(ws); !slices.Contains(got, "jpn") {
		t.Errorf("LanguagesFor %v, want jpn added", got)
	}
}
