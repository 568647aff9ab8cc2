package compare

// Pairing: which sheet of the newer drawing is which of the older, and
// which block of a newer sheet is which of the older sheet's. Both are pure
// functions of what was read at ingestion (numbers, titles, positions,
// words) and, for sheets left over, of their thumbnails.

import (
	"image"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
)

// SheetInfo is what pairing knows of a sheet.
type SheetInfo struct {
	ID   string
	Page int
	// Number is the sheet number as printed; NumberNorm its normalised
	// form (sheetmeta.Normalize: A-101 = A101 = "A 101"), "" when unread.
	Number, NumberNorm string
	Title              string
}

// SheetPair is a sheet of the older drawing matched to one of the newer;
// By says how: "number", "title", "image" (thumbnail similarity) or
// "page" (unnumbered sheets at the same page).
type SheetPair struct {
	Old, New SheetInfo
	By       string
}

// Renumbered reports whether the pair's sheets carry different numbers.
func (p SheetPair) Renumbered() bool {
	return p.Old.NumberNorm != p.New.NumberNorm && (p.Old.NumberNorm != "" || p.New.NumberNorm != "")
}

// SheetPairing is the outcome of PairSheets: the pairs in the newer
// drawing's page order, the newer sheets matching none (added) and the
// older ones matching none (removed), each in page order.
type SheetPairing struct {
	Pairs          []SheetPair
	Added, Removed []SheetInfo
}

// MinSheetSimilarity is the thumbnail similarity (SheetSimilarity) at which
// two sheets left unmatched by number and title are taken for one sheet
// renumbered and retitled.
const MinSheetSimilarity = 0.7

// PairSheets matches the sheets of two revisions of a drawing: first by
// normalised sheet number (several sheets of one number pair in page
// order), then by title among the rest (a title that only one sheet on each
// side carries), then by the similarity of their thumbnails (thumb reads
// one, nil when it has none; best pairs first, at least
// MinSheetSimilarity), and last, sheets without a number on both sides
// that sit at the same page. What is left was added or removed.
func PairSheets(old, new []SheetInfo, thumb func(SheetInfo) *image.Gray) SheetPairing {
	old, new = byPage(old), byPage(new)
	usedOld, usedNew := make([]bool, len(old)), make([]bool, len(new))
	var pairs []SheetPair
	take := func(i, j int, by string) {
		usedOld[i], usedNew[j] = true, true
		pairs = append(pairs, SheetPair{Old: old[i], New: new[j], By: by})
	}
	// 1. the same number
	for j, n := range new {
		if n.NumberNorm == "" {
			continue
		}
		for i, o := range old {
			if !usedOld[i] && o.NumberNorm == n.NumberNorm {
				take(i, j, "number")
				break
			}
		}
	}
	// 2. a title only one sheet left on each side carries
	titles := func(s []SheetInfo, used []bool) map[string][]int {
		out := map[string][]int{}
		for i, x := range s {
			if t := normTitle(x.Title); !used[i] && t != "" {
				out[t] = append(out[t], i)
			}
		}
		return out
	}
	oldTitles, newTitles := titles(old, usedOld), titles(new, usedNew)
	for j := range new {
		if usedNew[j] {
			continue
		}
		t := normTitle(new[j].Title)
		if o := oldTitles[t]; t != "" && len(o) == 1 && len(newTitles[t]) == 1 {
			take(o[0], j, "title")
		}
	}
	// 3. the pages that look alike, most alike first
	if thumb != nil {
		type cand struct {
			i, j int
			sim  float64
		}
		var cands []cand
		thumbs := map[string]*image.Gray{}
		get := func(s SheetInfo) *image.Gray {
			g, ok := thumbs[s.ID]
			if !ok {
				g = thumb(s)
				thumbs[s.ID] = g
			}
			return g
		}
		for j := range new {
			if usedNew[j] {
				continue
			}
			for i := range old {
				if usedOld[i] {
					continue
				}
				if sim := SheetSimilarity(get(old[i]), get(new[j])); sim >= MinSheetSimilarity {
					cands = append(cands, cand{i, j, sim})
				}
			}
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].sim > cands[b].sim })
		for _, c := range cands {
			if !usedOld[c.i] && !usedNew[c.j] {
				take(c.i, c.j, "image")
			}
		}
	}
	// 4. unnumbered sheets at the same page
	for j, n := range new {
		for i, o := range old {
			if !usedNew[j] && !usedOld[i] && n.NumberNorm == "" && o.NumberNorm == "" && n.Page == o.Page {
				take(i, j, "page")
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].New.Page < pairs[b].New.Page })
	out := SheetPairing{Pairs: pairs}
	for j, n := range new {
		if !usedNew[j] {
			out.Added = append(out.Added, n)
		}
	}
	for i, o := range old {
		if !usedOld[i] {
			out.Removed = append(out.Removed, o)
		}
	}
	return out
}

func byPage(s []SheetInfo) []SheetInfo {
	s = append([]SheetInfo(nil), s...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].Page < s[b].Page })
	return s
}

// normTitle is a title compared: upper case, words of letters and digits
// joined by single spaces.
func normTitle(t string) string {
	return strings.Join(strings.FieldsFunc(strings.ToUpper(t), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// simGrid is the side of the grid of ink densities SheetSimilarity
// compares: coarse enough that a page shifted or reprinted at another scale
// by a few percent falls in the same cells.
const simGrid = 32

// SheetSimilarity is how alike two page images (thumbnails) look, -1..1:
// the correlation of their ink densities on a simGrid × simGrid grid over
// each page (so a page reprinted at another size compares as itself), the
// best of the page as it is and turned by 90°, 180° and 270°. Pages without
// ink, or nil, are 0.
func SheetSimilarity(a, b *image.Gray) float64 {
	if a == nil || b == nil {
		return 0
	}
	ga, gb := densityGrid(a), densityGrid(b)
	best := 0.0
	for turn := 0; turn < 4; turn++ {
		best = max(best, correlation(ga, gb))
		gb = turnGrid(gb)
	}
	return best
}

// densityGrid is the share of ink (darkness, 0..1) in each cell of a
// simGrid × simGrid grid laid over img.
func densityGrid(img *image.Gray) []float64 {
	g := make([]float64, simGrid*simGrid)
	n := make([]float64, simGrid*simGrid)
	r := img.Bounds()
	w, h := r.Dx(), r.Dy()
	if w == 0 || h == 0 {
		return g
	}
	for y := 0; y < h; y++ {
		cy := y * simGrid / h
		row := img.Pix[img.PixOffset(r.Min.X, r.Min.Y+y):]
		for x := 0; x < w; x++ {
			c := cy*simGrid + x*simGrid/w
			g[c] += float64(255-row[x]) / 255
			n[c]++
		}
	}
	for i := range g {
		if n[i] > 0 {
			g[i] /= n[i]
		}
	}
	return g
}

// turnGrid turns a grid by 90°.
func turnGrid(g []float64) []float64 {
	out := make([]float64, len(g))
	for y := 0; y < simGrid; y++ {
		for x := 0; x < simGrid; x++ {
			out[x*simGrid+(simGrid-1-y)] = g[y*simGrid+x]
		}
	}
	return out
}

// correlation is the Pearson correlation of a and b (0 when either is
// constant).
func correlation(a, b []float64) float64 {
	n := float64(len(a))
	var sa, sb float64
	for i := range a {
		sa += a[i]
		sb += b[i]
	}
	ma, mb := sa/n, sb/n
	var cov, va, vb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		cov += da * db
		va += da * da
		vb += db * db
	}
	if va < 1e-12 || vb < 1e-12 {
		return 0
	}
	return cov / math.Sqrt(va*vb)
}

// BlockInfo is what pairing knows of a block.
type BlockInfo struct {
	ID    string
	Type  string
	Title string
	// Box is the block on its sheet, in sheet pixels; SheetW and SheetH
	// are its sheet's size, so that positions compare across a page
	// reprinted at another size.
	Box            geom.Box
	SheetW, SheetH float64
	// Words are the block's words (their text).
	Words []string
}

// BlockPair is a block of the older sheet matched to one of the newer,
// with the score that matched them (BlockPairScore).
type BlockPair struct {
	Old, New BlockInfo
	Score    float64
}

// MinBlockPairScore is the least BlockPairScore of a pair.
const MinBlockPairScore = 0.35

// PairBlocks matches the blocks of an older and a newer sheet, best scoring
// pairs first (BlockPairScore, at least MinBlockPairScore). It returns the
// pairs in the newer sheet's block order, the newer blocks matching none
// (added) and the older ones matching none (removed).
func PairBlocks(old, new []BlockInfo) (pairs []BlockPair, added, removed []BlockInfo) {
	return pairBlocks(old, new, nil)
}

// pairBlocks is PairBlocks where only the pairs accept takes (all when nil)
// are candidates.
func pairBlocks(old, new []BlockInfo, accept func(a, b BlockInfo) bool) (pairs []BlockPair, added, removed []BlockInfo) {
	type cand struct {
		i, j  int
		score float64
	}
	var cands []cand
	for j := range new {
		for i := range old {
			if accept != nil && !accept(old[i], new[j]) {
				continue
			}
			if s := BlockPairScore(old[i], new[j]); s >= MinBlockPairScore {
				cands = append(cands, cand{i, j, s})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	byNew := make([]int, len(new))
	for j := range byNew {
		byNew[j] = -1
	}
	usedOld := make([]bool, len(old))
	score := make([]float64, len(new))
	for _, c := range cands {
		if byNew[c.j] < 0 && !usedOld[c.i] {
			byNew[c.j], usedOld[c.i], score[c.j] = c.i, true, c.score
		}
	}
	for j, i := range byNew {
		if i < 0 {
			added = append(added, new[j])
			continue
		}
		pairs = append(pairs, BlockPair{Old: old[i], New: new[j], Score: score[j]})
	}
	for i, u := range usedOld {
		if !u {
			removed = append(removed, old[i])
		}
	}
	return pairs, added, removed
}

// BlockPairScore is how likely two blocks of two revisions of a sheet are
// the same block, 0..1: the overlap (IoU, or 0.8 × the share of the smaller
// inside the larger when more) and nearness of their places on
// their sheets (as shares of the sheet, so a page reprinted at another size
// compares alike) and the likeness of their sizes, their titles and their
// words; lowered when both titles were read and differ (views moved about
// the sheet keep their titles; a view retitled in place still pairs) and
// halved when their types differ (segmentation may type a revised view
// otherwise, but rarely).
func BlockPairScore(a, b BlockInfo) float64 {
	na, nb := normBox(a), normBox(b)
	// a block lying inside the other counts nearly as one in the same
	// place: the layout may cut a revised sheet otherwise (a view and the
	// schedule beside it read as one region)
	overlap := na.IoU(nb)
	if in := na.Intersect(nb).Area(); in > 0 {
		overlap = max(overlap, 0.8*placeShare(na, nb))
	}
	ax, ay := (na.XMin+na.XMax)/2, (na.YMin+na.YMax)/2
	bx, by := (nb.XMin+nb.XMax)/2, (nb.YMin+nb.YMax)/2
	near := max(0, 1-math.Hypot(ax-bx, ay-by)/0.15)
	size := 0.0
	if sa, sb := na.Area(), nb.Area(); sa > 0 && sb > 0 {
		size = min(sa, sb) / max(sa, sb)
	}
	title, retitled := 0.5, false // unknown
	// titles compare without their spaces: reading splits and joins words
	// differently ("ELECTR ICAL")
	if ta, tb := strings.ReplaceAll(normTitle(a.Title), " ", ""), strings.ReplaceAll(normTitle(b.Title), " ", ""); ta != "" && tb != "" {
		title, retitled = 0, ta != tb
		if !retitled {
			title = 1
		}
	}
	s := 0.3*overlap + 0.2*near + 0.1*size + 0.15*title + 0.25*wordSimilarity(a.Words, b.Words)
	if retitled {
		s *= 0.6
	}
	if a.Type != b.Type {
		s /= 2
	}
	return s
}

// placeShare is the share of the smaller of two boxes that lies inside the
// other, 0..1 (0 when either is empty).
func placeShare(a, b geom.Box) float64 {
	m := min(a.Area(), b.Area())
	if m <= 0 {
		return 0
	}
	return a.Intersect(b).Area() / m
}

// normBox is a block's box as shares of its sheet's size.
func normBox(b BlockInfo) geom.Box {
	if b.SheetW <= 0 || b.SheetH <= 0 {
		return b.Box
	}
	return geom.Box{XMin: b.Box.XMin / b.SheetW, YMin: b.Box.YMin / b.SheetH, XMax: b.Box.XMax / b.SheetW, YMax: b.Box.YMax / b.SheetH}
}

// wordSimilarity is the Jaccard similarity of two blocks' sets of words
// (upper case, letters and digits); 0.5 (unknown) when neither has any.
func wordSimilarity(a, b []string) float64 {
	set := func(ws []string) map[string]bool {
		out := map[string]bool{}
		for _, w := range ws {
			if n := normTitle(w); n != "" {
				out[n] = true
			}
		}
		return out
	}
	sa, sb := set(a), set(b)
	if len(sa) == 0 && len(sb) == 0 {
		return 0.5
	}
	both := 0
	for w := range sa {
		if sb[w] {
			both++
		}
	}
	return float64(both) / float64(len(sa)+len(sb)-both)
}
