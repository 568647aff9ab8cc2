package compare

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/plangraph/plangraph/vision/geom"
)

// Analyze classifies and describes the differences of an overlay (its
// Regions, images and transform) using both sides' words, symbols, block
// types and page geometry. Descriptions come from the drawings' own words
// and parse features, never invented.
//
// The differing ink is read from ov.Addition (B's ink that A lacks) and
// ov.Deletion (A's ink that B lacks), both in B's frame, inside the
// Regions only (the engine dropped what lies outside them as alignment
// residue). Each step explains the ink it accounts for, and the next steps
// see only what is left:
//
//  1. symbols: A's instances mapped through ov.Transform are matched with
//     B's of the same label (analyze_symbols.go);
//  2. revision marks: clouds and deltas, from the page geometry when
//     recorded, else from the shape of the differing ink (analyze_marks.go);
//  3. text and dimensions: A's and B's phrases paired by position
//     (analyze_text.go); a changed phrase explains its ink even when
//     Options.IgnoreText leaves it out of the result;
//  4. linework: what ink is left, in pieces, a removed and an added piece of
//     the same shape close together being one moved piece
//     (analyze_linework.go).
//
// Every change in a block whose BlockType is TitleBlock or RevisionHistory
// is then a title_block change (classify.go). When the overlay carries no
// Addition/Deletion images, the Regions' boxes and pixel counts stand in
// for them (no moved linework is found then).
//
// Severity (classify.go): title_block and revision_mark changes are minor;
// text and dimension changes moderate; symbols added or removed moderate,
// major from three instances in one group, moved minor under an inch and
// moderate beyond; linework by its extent on paper (≥ 1 in major, ≥ ¼ in
// moderate, else minor; hatches minor). Confidence in 0..1 is the evidence's
// cleanliness (recogniser confidence, how much differing ink backs the
// change), halved when the sides did not register and lowered as the
// registration's residual grows past a pixel.
//
// The result is ordered by severity (major first), then top to bottom, left
// to right, then category and description: the same input gives the same
// list.
//
// Cost: linear in the regions' pixels (two bytes a pixel of work areas)
// plus the words, except the search for moved linework, which is skipped
// when added × removed pieces exceed 250,000; pixel marks are looked for in
// groups of at most 12 × 12 in. Options.Budget is not consulted: two
// unrelated sheets at 100 DPI (136 regions, 1,237 changes) take 0.6 s.
func Analyze(a, b *Side, ov *Overlay, opt Options) []Change {
	if a == nil || b == nil || ov == nil {
		return nil
	}
	a, b = common(a, b, ov.Transform)
	an := newAnalysis(a, b, ov, opt.withDefaults())
	an.symbols()
	an.marks()
	an.text()
	an.linework()
	an.titleBlock()
	sortChanges(an.out)
	return an.out
}

// analysis is one run of Analyze: the sides, the differing ink and what has
// been explained, and the changes found so far.
type analysis struct {
	a, b *Side
	ov   *Overlay
	opt  Options
	t    Transform // A → B
	inv  Transform // B → A
	dpi  float64   // B's resolution (300 when unknown)
	tol  float64   // Options.Tolerance at B's resolution, pixels
	// areas hold the differing ink; nil in regions mode (no images).
	areas []*workArea
	// explained boxes in regions mode: [0] added ink, [1] removed ink.
	explainedBoxes [2][]geom.Box
	// owned are boxes whose words belong to a symbol or mark change and
	// are not read as text again.
	owned []geom.Box
	out   []Change
	// phrasesB are B's phrases; steady those of them that did not change.
	phrasesB, steady []phrase
	// labels are B's phrases with a letter that are no dimension (for
	// "near …"), made when first needed.
	labels []phrase
	// meta holds, per change of out, what a later step needs to know of it.
	meta []changeMeta
}

// changeMeta is what Analyze keeps of a text change beside the Change: the
// old and new strings (title-block descriptions are rebuilt from them).
type changeMeta struct {
	old, new string
	text     bool
}

// workArea is one work area: a rectangle of B's pixels covering one or more
// regions. Its masks hold, per pixel, inkBit when the pixel is differing
// ink (of B for add, of A for del) and explainedBit once a change accounts
// for it.
type workArea struct {
	r        image.Rectangle
	add, del []uint8
}

const (
	inkBit       = 1
	explainedBit = 2
)

// mask returns the area's mask for added (true) or removed ink.
func (ar *workArea) mask(added bool) []uint8 {
	if added {
		return ar.add
	}
	return ar.del
}

func newAnalysis(a, b *Side, ov *Overlay, opt Options) *analysis {
	an := &analysis{a: a, b: b, ov: ov, opt: opt, t: ov.Transform, dpi: float64(b.DPI)}
	if an.t.Scale <= 0 {
		an.t = Identity
	}
	an.inv = an.t.Inverse()
	if an.dpi <= 0 {
		an.dpi = 300
	}
	an.tol = opt.Tolerance * an.dpi / 300
	if ov.Addition != nil || ov.Deletion != nil {
		an.buildAreas()
	}
	return an
}

// inkDark is the grey below which a pixel of the Addition/Deletion images
// (dark on white, antialiased) is ink.
const inkDark = 160

// buildAreas merges the regions, grown by twice the tolerance, into work
// areas and reads the differing ink inside the regions into their masks.
func (an *analysis) buildAreas() {
	var bounds image.Rectangle
	for _, im := range []*image.Gray{an.ov.Addition, an.ov.Deletion} {
		if im != nil {
			bounds = bounds.Union(im.Bounds())
		}
	}
	grow := int(math.Ceil(2*an.tol)) + 2
	var rects []image.Rectangle
	for _, rg := range an.ov.Regions {
		r := pixelRect(rg.Bounds).Inset(-1).Intersect(bounds)
		if !r.Empty() {
			rects = append(rects, r)
		}
	}
	for _, g := range mergeNearRects(rects, grow) {
		m := rects[g[0]]
		for _, i := range g[1:] {
			m = m.Union(rects[i])
		}
		ar := &workArea{r: m, add: make([]uint8, m.Dx()*m.Dy()), del: make([]uint8, m.Dx()*m.Dy())}
		for _, i := range g {
			fillInk(ar, ar.add, an.ov.Addition, rects[i])
			fillInk(ar, ar.del, an.ov.Deletion, rects[i])
		}
		an.areas = append(an.areas, ar)
	}
}

// fillInk marks the dark pixels of im inside r in the area's mask.
func fillInk(ar *workArea, mask []uint8, im *image.Gray, r image.Rectangle) {
	if im == nil {
		return
	}
	r = r.Intersect(im.Bounds())
	w := ar.r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := im.Pix[im.PixOffset(r.Min.X, y):]
		base := (y-ar.r.Min.Y)*w - ar.r.Min.X
		for x := r.Min.X; x < r.Max.X; x++ {
			if row[x-r.Min.X] < inkDark {
				mask[base+x] = inkBit
			}
		}
	}
}

// mergeNearRects groups rectangles whose unions come within gap of each
// other, until no two groups' unions do; it returns the groups as indexes.
func mergeNearRects(rs []image.Rectangle, gap int) [][]int {
	groups := make([][]int, len(rs))
	for i := range rs {
		groups[i] = []int{i}
	}
	for {
		boxes := make([]geom.Box, len(groups))
		for k, g := range groups {
			u := rs[g[0]]
			for _, i := range g[1:] {
				u = u.Union(rs[i])
			}
			boxes[k] = rectBox(u)
		}
		merged := ClusterBoxes(boxes, float64(gap))
		if len(merged) == len(groups) {
			return groups
		}
		next := make([][]int, len(merged))
		for k, cl := range merged {
			for _, j := range cl {
				next[k] = append(next[k], groups[j]...)
			}
		}
		groups = next
	}
}

// pixelRect is the pixel rectangle covering a box.
func pixelRect(b geom.Box) image.Rectangle {
	return image.Rect(int(math.Floor(b.XMin)), int(math.Floor(b.YMin)), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax)))
}

// rectBox is the box of a pixel rectangle.
func rectBox(r image.Rectangle) geom.Box {
	return geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)}
}

// ink counts the differing ink in box b of B's frame: added ink (B's that
// A lacks) or removed ink (A's that B lacks, where it lands on B). Ink
// already explained counts too: evidence is evidence. In regions mode it
// is the regions' counts in proportion to their overlap with b.
func (an *analysis) ink(b geom.Box, added bool) int {
	if an.areas == nil {
		n := 0.0
		for _, rg := range an.ov.Regions {
			c := rg.Removed
			if added {
				c = rg.Added
			}
			if ra := rg.Bounds.Area(); ra > 0 {
				n += float64(c) * rg.Bounds.Intersect(b).Area() / ra
			}
		}
		return int(math.Round(n))
	}
	r := pixelRect(b)
	n := 0
	for _, ar := range an.areas {
		n += ar.count(r, added, inkBit)
	}
	return n
}

// count counts the pixels of r whose mask value has any of bits set.
func (ar *workArea) count(r image.Rectangle, added bool, bits uint8) int {
	r = r.Intersect(ar.r)
	m, w, n := ar.mask(added), ar.r.Dx(), 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		base := (y-ar.r.Min.Y)*w - ar.r.Min.X
		for x := r.Min.X; x < r.Max.X; x++ {
			if m[base+x]&bits != 0 {
				n++
			}
		}
	}
	return n
}

// explain marks the differing ink in b (added, removed or both) as
// accounted for, so that later steps do not report it again.
func (an *analysis) explain(b geom.Box, added, removed bool) {
	for i, on := range [2]bool{added, removed} {
		if !on || !b.Valid() {
			continue
		}
		if an.areas == nil {
			an.explainedBoxes[i] = append(an.explainedBoxes[i], b)
			continue
		}
		r := pixelRect(b)
		for _, ar := range an.areas {
			rr := r.Intersect(ar.r)
			m, w := ar.mask(i == 0), ar.r.Dx()
			for y := rr.Min.Y; y < rr.Max.Y; y++ {
				base := (y-ar.r.Min.Y)*w - ar.r.Min.X
				for x := rr.Min.X; x < rr.Max.X; x++ {
					m[base+x] |= explainedBit
				}
			}
		}
	}
}

// explainDisc marks the differing ink within radius rad of (x, y).
func (an *analysis) explainDisc(x, y, rad float64, added bool) {
	if an.areas == nil {
		an.explain(geom.Box{XMin: x - rad, YMin: y - rad, XMax: x + rad, YMax: y + rad}, added, !added)
		return
	}
	r := image.Rect(int(math.Floor(x-rad)), int(math.Floor(y-rad)), int(math.Ceil(x+rad))+1, int(math.Ceil(y+rad))+1)
	for _, ar := range an.areas {
		rr := r.Intersect(ar.r)
		m, w := ar.mask(added), ar.r.Dx()
		for py := rr.Min.Y; py < rr.Max.Y; py++ {
			for px := rr.Min.X; px < rr.Max.X; px++ {
				if dx, dy := float64(px)+0.5-x, float64(py)+0.5-y; dx*dx+dy*dy <= rad*rad {
					m[(py-ar.r.Min.Y)*w+px-ar.r.Min.X] |= explainedBit
				}
			}
		}
	}
}

// own records a box whose words belong to a symbol or mark change.
func (an *analysis) own(b geom.Box) { an.owned = append(an.owned, b) }

// isOwned reports whether most of box b lies in an owned box.
func (an *analysis) isOwned(b geom.Box) bool {
	for _, o := range an.owned {
		if a := b.Area(); a > 0 && o.Intersect(b).Area() >= 0.6*a {
			return true
		}
	}
	return false
}

// regFactor scales confidences by the registration's quality: halved for
// sides that did not register, lowered as the residual grows past 1 px.
func (an *analysis) regFactor() float64 {
	f := 1.0
	if !an.ov.Registered {
		f = 0.5
	}
	if r := an.t.ResidualPx; r > 1 {
		f /= 1 + (r-1)/2
	}
	return f
}

// emit appends a change, its confidence clamped to 0..1 and scaled by the
// registration's quality.
func (an *analysis) emit(c Change) { an.emitMeta(c, changeMeta{}) }

// emitMeta is emit with what later steps need to know of the change.
func (an *analysis) emitMeta(c Change, m changeMeta) {
	c.Confidence = math.Round(clampUnit(c.Confidence*an.regFactor())*1000) / 1000
	an.out = append(an.out, c)
	an.meta = append(an.meta, m)
}

// mapBox maps a box of A onto B.
func (an *analysis) mapBox(b geom.Box) geom.Box { return an.t.ApplyBox(b) }

// unmapBox maps a box of B back onto A.
func (an *analysis) unmapBox(b geom.Box) geom.Box { return an.inv.ApplyBox(b) }

func clampUnit(v float64) float64 { return max(0, min(1, v)) }

// growBox widens a box by d on every side.
func growBox(b geom.Box, d float64) geom.Box {
	return geom.Box{XMin: b.XMin - d, YMin: b.YMin - d, XMax: b.XMax + d, YMax: b.YMax + d}
}

// unionBox is the box around both (the zero box counts as nothing).
func unionBox(a, b geom.Box) geom.Box {
	if a == (geom.Box{}) {
		return b
	}
	if b == (geom.Box{}) {
		return a
	}
	return geom.Box{XMin: min(a.XMin, b.XMin), YMin: min(a.YMin, b.YMin), XMax: max(a.XMax, b.XMax), YMax: max(a.YMax, b.YMax)}
}

// centerOf is the centre of a box.
func centerOf(b geom.Box) (float64, float64) { return (b.XMin + b.XMax) / 2, (b.YMin + b.YMax) / 2 }

// centerDist is the distance between two boxes' centres.
func centerDist(a, b geom.Box) float64 {
	ax, ay := centerOf(a)
	bx, by := centerOf(b)
	return math.Hypot(ax-bx, ay-by)
}

// boxDistance is the distance between two boxes (0 when they overlap).
func boxDistance(a, b geom.Box) float64 {
	dx := max(0, a.XMin-b.XMax, b.XMin-a.XMax)
	dy := max(0, a.YMin-b.YMax, b.YMin-a.YMax)
	return math.Hypot(dx, dy)
}

// severityRank orders severities, major first.
func severityRank(s string) int {
	switch s {
	case SeverityMajor:
		return 0
	case SeverityModerate:
		return 1
	}
	return 2
}

// sortChanges orders changes by severity, then position (top to bottom,
// left to right), then category and description.
func sortChanges(cs []Change) {
	slices.SortStableFunc(cs, func(x, y Change) int {
		return cmp.Or(
			cmp.Compare(severityRank(x.Severity), severityRank(y.Severity)),
			cmp.Compare(math.Round(x.Bounds.YMin), math.Round(y.Bounds.YMin)),
			cmp.Compare(math.Round(x.Bounds.XMin), math.Round(y.Bounds.XMin)),
			cmp.Compare(x.Category, y.Category),
			cmp.Compare(x.Description, y.Description),
		)
	})
}
