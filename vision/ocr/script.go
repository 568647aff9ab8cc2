package ocr

import (
	"context"
	"image"
	"math"
	"slices"
	"sort"
	"sync"
	"unicode"

	"github.com/otiai10/gosseract/v2"

	"github.com/plangraph/plangraph/vision/text"
)

// scriptLanguage is a Tesseract language whose script a Latin model
// cannot read, with the scripts its letters are in.
type scriptLanguage struct {
	code    string
	scripts []*unicode.RangeTable
}

// scriptLanguages are the languages of other scripts a page may be read in
// as well as the defaults, when installed. Chinese comes before Japanese:
// Han alone is read as Chinese, Han with kana as Japanese (the one whose
// scripts hold more of the page's letters wins; ties go to the first).
var scriptLanguages = []scriptLanguage{
	{"chi_sim", []*unicode.RangeTable{unicode.Han}},
	{"chi_tra", []*unicode.RangeTable{unicode.Han}},
	{"jpn", []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}},
	{"kor", []*unicode.RangeTable{unicode.Hangul, unicode.Han}},
	{"rus", []*unicode.RangeTable{unicode.Cyrillic}},
	{"ukr", []*unicode.RangeTable{unicode.Cyrillic}},
	{"bul", []*unicode.RangeTable{unicode.Cyrillic}},
	{"srp", []*unicode.RangeTable{unicode.Cyrillic}},
	{"ell", []*unicode.RangeTable{unicode.Greek}},
	{"heb", []*unicode.RangeTable{unicode.Hebrew}},
	{"ara", []*unicode.RangeTable{unicode.Arabic}},
	{"fas", []*unicode.RangeTable{unicode.Arabic}},
	{"hin", []*unicode.RangeTable{unicode.Devanagari}},
	{"tha", []*unicode.RangeTable{unicode.Thai}},
}

// Thresholds of DetectLanguage.
const (
	scriptSample  = 24  // the doubtful words read again, the largest first…
	scriptDoubt   = 0.6 // …those the defaults read with less confidence than this,
	scriptSure    = 0.7 // read in the other language at least this surely,
	scriptLetters = 2   // with at least this many letters of its scripts;
	scriptWins    = 4   // the page is in it when this many are (a sixth of the sample at least);
	scriptFirst   = 8   // none of the first this many: not in it, the rest unread
)

// installed lists the languages whose traineddata Tesseract finds, read
// once.
var installed = sync.OnceValue(func() []string {
	have, _ := gosseract.GetAvailableLanguages()
	return have
})

// candidates are the installed languages of other scripts not among the
// defaults.
func candidates() []scriptLanguage {
	defaults := DefaultLanguages()
	var out []scriptLanguage
	for _, l := range scriptLanguages {
		if slices.Contains(installed(), l.code) && !slices.Contains(defaults, l.code) {
			out = append(out, l)
		}
	}
	return out
}

// DetectLanguage tells the installed language of another script (one the
// defaults do not read: Japanese, Chinese, Korean, Cyrillic, Greek, …) the
// page img's lettering is in, from words, the page as the default
// languages read it ("" when none, or the defaults read it). A page in
// another script reads in the defaults as doubtful words of a few Latin
// letters: the largest of those (scriptSample) are read again, each alone,
// in each candidate language, and the page is in the one that reads at
// least scriptWins of them surely (scriptSure) as letters of its own
// scripts, a sixth of those tried at least. A Latin page's doubtful words
// (symbols, marks, accented words an English model misreads) read so in
// none: a circled letter read as one "の" is no word of two letters. When
// none of the first scriptFirst reads so, the rest are not read.
func DetectLanguage(ctx context.Context, img *image.Gray, dpi int, words []text.Word) (string, error) {
	cands := candidates()
	if len(cands) == 0 || img == nil {
		return "", nil
	}
	if dpi <= 0 {
		dpi = 300
	}
	// lettering from a sixth of an inch to two thirds of one, at most
	minH, maxH := float64(dpi)/20, float64(dpi)*2/3
	var doubt []text.Word
	for _, w := range words {
		if h := w.Box.Height(); w.Conf < scriptDoubt && h >= minH && h <= maxH {
			doubt = append(doubt, w)
		}
	}
	if len(doubt) < scriptWins {
		return "", nil
	}
	sort.SliceStable(doubt, func(i, j int) bool { return doubt[i].Box.Area() > doubt[j].Box.Area() })
	doubt = doubt[:min(len(doubt), scriptSample)]
	best, bestWins := "", 0
	for _, l := range cands {
		wins, err := scriptWinsIn(ctx, img, dpi, doubt, l)
		if err != nil {
			return "", err
		}
		if wins >= scriptWins && 6*wins >= len(doubt) && wins > bestWins {
			best, bestWins = l.code, wins
		}
	}
	return best, nil
}

// scriptWinsIn counts the words of doubt that language l reads surely as
// letters of its scripts, each read alone as a block.
func scriptWinsIn(ctx context.Context, img *image.Gray, dpi int, doubt []text.Word, l scriptLanguage) (int, error) {
	opt := Options{Languages: []string{l.code}, MinConf: -1, Block: true}.withDefaults()
	c, err := newClient(opt, dpi, segMode(opt))
	if err != nil {
		return 0, err
	}
	defer c.Close()
	b := img.Bounds()
	wins := 0
	for i, w := range doubt {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if i == scriptFirst && wins == 0 {
			break // a Latin page: its largest doubtful words read as none
		}
		pad := 0.2 * w.Box.Height()
		r := image.Rect(int(math.Floor(w.Box.XMin-pad)), int(math.Floor(w.Box.YMin-pad)),
			int(math.Ceil(w.Box.XMax+pad)), int(math.Ceil(w.Box.YMax+pad))).Add(b.Min).Intersect(b)
		if r.Empty() {
			continue
		}
		got, _, err := recognize(c, img.SubImage(r).(*image.Gray), dpi, opt)
		if err != nil {
			return 0, err
		}
		letters, conf := 0, 0.0
		for _, g := range got {
			conf += g.Conf
			for _, ch := range g.Text {
				if unicode.In(ch, l.scripts...) {
					letters++
				}
			}
		}
		if len(got) > 0 {
			conf /= float64(len(got))
		}
		if letters >= scriptLetters && conf >= scriptSure && conf > w.Conf {
			wins++
		}
	}
	return wins, nil
}

// LanguagesFor are the languages to read more of a page in whose words are
// words: the defaults, and the installed language of another script most
// of the words' letters of other scripts are in (a page DetectLanguage
// found Japanese, read again in English and Japanese, reads its cells
// again so too). Letters of another script in fewer than scriptWins words
// add nothing.
func LanguagesFor(words []text.Word) []string {
	langs := DefaultLanguages()
	cands := candidates()
	if len(cands) == 0 {
		return langs
	}
	count := make([]int, len(cands))   // letters in each candidate's scripts
	inWords := make([]int, len(cands)) // words holding any
	for _, w := range words {
		for i, l := range cands {
			n := 0
			for _, ch := range w.Text {
				if unicode.In(ch, l.scripts...) {
					n++
				}
			}
			count[i] += n
			if n > 0 {
				inWords[i]++
			}
		}
	}
	best := -1
	for i := range cands {
		if inWords[i] >= scriptWins && (best < 0 || count[i] > count[best]) {
			best = i
		}
	}
	if best >= 0 {
		langs = append(langs, cands[best].code)
	}
	return langs
}
