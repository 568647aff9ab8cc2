// Package layout segments a rendered sheet into blocks (plan views,
// legends, notes, schedules, the title block…) and types each from its
// text.
//
// The work is done on a binary mask of the page, min-pooled so that the
// long side is at most maxSide pixels (min-pooling rather than averaging
// keeps hairlines inked). Steps:
//
//  1. find the sheet border (four long lines meeting at their ends, so a
//     page-edge line or a ruler band is not taken for it) and work inside it;
//  2. find separator lines spanning most of the frame; the title block is the
//     strip beyond the separator nearest the sheet number — or, failing
//     one, beyond the nearest long (possibly cell-by-cell) line above or
//     left of the number;
//  3. split the rest by the remaining separators, then by recursive XY-cut
//     on whitespace gaps wider than cutGapEm text heights; a notes', legend's
//     or schedule's heading found below a cell's top splits the cell (across
//     when centred, else by taking out the heading's text column); without
//     a title block, the cells stacked round the sheet number become one;
//  4. re-join what the cut split too finely: a view's title (a short text
//     region just under a drawing) joins the view above it, a legend's,
//     notes' or schedule's heading joins the body below it, an untitled
//     fragment (a legend's symbol column) joins its aligned titled
//     neighbour, and tiny leftovers fold into their nearest block;
//  5. type each block from its heading or title line, and read the scale
//     printed nearest that title.
//
// Lengths are measured in units of the median word height ("em"), so the
// same parameters work at every resolution and sheet size.
package layout

import (
	"image"
	"math"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Block is one region of a sheet. Box is in the input image's pixels.
type Block struct {
	Type  string
	Title string
	Scale string
	Box   geom.Box
	// heading is the headline at the top of an untitled block, its title
	// should its content make it a body of notes
	heading string
}

// notesHeading titles a block its content made a body of notes by the
// headline at its top.
func (b *Block) notesHeading() {
	if b.Type == "GeneralNotes" && b.Title == "" {
		b.Title = b.heading
	}
}

const (
	maxSide   = 2000 // long side of the working mask, pixels
	inkLevel  = 200  // grey below this is ink
	darkLevel = 128  // grey below this is dark ink (linework, not a faint background)
	cutGapEm  = 2.6  // whitespace gap (in em) that may separate blocks (≈0.25 in)
	marginEm  = 0.9  // margin reported around a block's ink (≈1/9 in)
	// smallMarginDiv: a block's margin is at most its smaller side over this
	smallMarginDiv = 20
	sepFrac        = 0.97 // a separator spans (nearly) all of its area, end to end
	frameFrac      = 0.5  // a border line spans this fraction of the page
	stripFrac      = 0.3  // a title strip's dividing line spans this fraction of the frame
)

// region is a block being built, in mask pixels.
type region struct {
	r      rect
	framed bool
	tb     bool
	// boxed: a frame of rules standing alone encloses it (a table, a
	// legend's or notes' box): its box is the frame, and a heading printed
	// just over it names it without joining it
	boxed   bool
	heading []text.Word
	// note: a line of notes standing alone (under a table), kept however
	// strip-like its shape
	note bool
	// table: a boxed region's own frame when parts drawn with it (a row
	// of elevations over it, its title bar) were joined to it; it is read
	// for the type
	table rect
}

// Segment splits img into blocks. words are the page's words in img's
// pixels; titleNumber is the sheet number's box (zero if unknown), used to
// find the title block when its ruling does not.
func Segment(img *image.Gray, words []text.Word, titleNumber geom.Box) []Block {
	p := Analyze(img, words)
	if p == nil {
		return nil
	}
	return p.Blocks(titleNumber)
}

// Blocks splits the page into blocks. titleNumber is the sheet number's
// box in image pixels (zero if unknown): without a title block found by
// its ruling, the one around the number is taken.
func (p *Page) Blocks(titleNumber geom.Box) []Block {
	m := p.m.clone()
	k, em, b := p.k, p.em, p.bounds
	gap := max(int(math.Round(cutGapEm*em)), 3)
	inner, frame, bordered := p.inner, p.frame, p.bordered
	var regions []region
	work := inner
	num := p.toMask(titleNumber)
	var tb, rest rect
	ok := false
	if p.tbOK {
		tb, rest, ok = p.tb, p.tbRest, true
	} else {
		// Without a border, lines spanning the ink are as likely a view's frame
		// as a separator: only the sheet number can then place a title block.
		vs, hs := m.separators(inner)
		if !bordered && !num.Valid() {
			vs, hs = nil, nil
		}
		tb, rest, ok = titleBlock(inner, frame, vs, hs, num)
		if !ok && bordered && num.Valid() {
			tb, rest, ok = m.numberStrip(inner, frame, num, em)
		}
	}
	// the drawing area is what the title block leaves of the frame (a
	// strip's cells above the title block — notes, a legend — included),
	// one pixel in from the border, whose anti-aliased edges are not content
	work = rect{work.x0 + 1, work.y0 + 1, work.x1 - 1, work.y1 - 1}
	if ok {
		regions = append(regions, region{r: tb, tb: true})
		if !p.tbOK {
			work = rect{rest.x0 + 1, rest.y0 + 1, rest.x1 - 1, rest.y1 - 1}
		}
		m.clearRect(rect{tb.x0 - 1, tb.y0 - 1, tb.x1 + 1, tb.y1 + 1})
	}
	m.clearOutside(work)
	// split the work area at separators that span it, then XY-cut
	var cells []rect
	parts := []rect{work}
	if bordered {
		// separators drawn light count too
		parts = m.splitBySeparators(work, p.m)
	}
	// boxes of rules standing alone (tables, legends' and notes' boxes)
	// are blocks by their frames: judged on the linework of the work area's
	// parts, less the border and separators that join everything
	ag := p.allGraphics().keepOnly(parts)
	if bordered {
		for _, b := range p.m.borderLines(work) {
			ag.clearRect(b)
		}
	}
	if ok {
		ag.clearRect(rect{tb.x0 - 1, tb.y0 - 1, tb.x1 + 1, tb.y1 + 1})
	}
	// a box drawn against the border shares the border's line as a side:
	// the search reaches over the border's width
	reach := rect{work.x0 - 1, work.y0 - 1, work.x1 + 1, work.y1 + 1}
	if bordered {
		reach = rect{reach.x0 - (inner.x0 - frame.x0) - 2, reach.y0 - (inner.y0 - frame.y0) - 2,
			reach.x1 + (frame.x1 - inner.x1) + 2, reach.y1 + (frame.y1 - inner.y1) + 2}
	}
	// schedules without an outer frame, side by side: parted by their
	// own ruling before the cut
	for _, c := range p.tableColumns(work) {
		regions = append(regions, region{r: c, framed: true, boxed: true})
		m.clearRect(rect{c.x0 - 1, c.y0 - 1, c.x1 + 2, c.y1 + 2})
		ag.clearRect(rect{c.x0 - 1, c.y0 - 1, c.x1 + 2, c.y1 + 2})
	}
	frames, containers := p.standaloneFrames(reach, ag)
	for _, fr := range frames {
		regions = append(regions, region{r: fr, framed: true, boxed: true})
		m.clearRect(rect{fr.x0 - 1, fr.y0 - 1, fr.x1 + 2, fr.y1 + 2})
	}
	for _, c := range containers {
		// its lines, however thick they are drawn (the content stands clear)
		p.clearPanel(m, c, max(2, int(0.4*em)))
	}
	m.clearEdgeRules(work, em)
	m.clearDashedRules(work, em)
	mw := p.mw
	for _, c := range parts {
		cells = append(cells, m.xycut(c, gap)...)
	}
	cells, carved := m.splitHeadings(cells, mw, em, gap)
	for _, c := range cells {
		regions = append(regions, region{r: c, framed: p.m.framed(c)})
	}
	for _, c := range carved {
		regions = append(regions, region{r: c})
	}
	hasTB := false
	for _, rg := range regions {
		hasTB = hasTB || rg.tb
	}
	if !hasTB && num.Valid() {
		regions = numberCluster(regions, num, inner, em, mw)
	}

	traceMask("cut", m)
	trace("cut", regions)
	regions = p.enclosedFrames(regions)
	regions = attachCaptions(regions, mw, em)
	regions = p.joinTableParts(regions, em)
	trace("captions", regions)
	titles := p.viewTitles()
	regions = p.joinFragments(regions, mw, em, titles)
	trace("fragments", regions)
	regions = absorbSmall(regions, em)
	trace("small", regions)
	regions = dropStrips(regions, em)
	regions = p.splitNotes(regions, titles)
	regions = p.joinNumberedColumns(regions, titles)
	regions = p.titlesOntoViews(regions, titles)
	trace("notes", regions)

	// a region holding several view titles holds several views: cut it
	// between them, where dark ink leaves gaps (faint context — a site's
	// trees, screened backgrounds — behind two views does not join them)
	dm := p.dark.and(m)
	var views []region
	for _, rg := range regions {
		ts := titlesIn(rg.r, titles)
		if rg.tb || rg.framed || len(ts) < 2 {
			views = append(views, rg)
			continue
		}
		for _, r := range p.splitViews(dm, rg.r, ts) {
			views = append(views, region{r: r})
		}
	}
	views = joinOverlapping(views, titles)
	trace("views", views)
	regions = p.endAtTitles(m, views, titles, em)
	trace("titles", regions)
	regions = p.noteHeadingsOnto(p.joinCutNotes(regions, titles), titles)
	trace("cut notes", regions)
	regions = dropMarks(regions, p.mw, em)

	margin := marginEm * em
	out := make([]Block, 0, len(regions))
	for i, rg := range regions {
		bx := geom.Box{XMin: float64(rg.r.x0), YMin: float64(rg.r.y0), XMax: float64(rg.r.x1), YMax: float64(rg.r.y1)}
		if rg.boxed {
			// its frame, and the heading printed over it
			r := rg.r.union(boxOfWords(rg.heading))
			bx = geom.Box{XMin: float64(r.x0), YMin: float64(r.y0), XMax: float64(r.x1), YMax: float64(r.y1)}
		} else if !rg.tb && !p.m.framed(rg.r) { // a frame is the block's edge; else add the margin
			// a small block (a few lines of notes) is bounded by its ink: the
			// margin is at most a fortieth of its smaller side
			mg := min(margin, float64(min(rg.r.w(), rg.r.h()))/smallMarginDiv)
			bx = geom.Box{XMin: bx.XMin - mg, YMin: bx.YMin - mg, XMax: bx.XMax + mg, YMax: bx.YMax + mg}
		}
		var blk Block
		switch ts := titlesIn(rg.r, titles); {
		case rg.tb:
			blk.Type = "TitleBlock"
		case rg.note:
			// a note under a table or view: this sheet's note, titled by
			// its lead ("NOTE :")
			blk = Block{Type: "SheetNotes", Title: strings.TrimSpace(noteLeadRE.FindString(firstLine(wordsIn(rg.r, p.mw))))}
		case len(ts) == 1 && !rg.framed:
			blk = Block{Type: ts[0].kind, Title: ts[0].title, Scale: ts[0].scale}
			if blk.Type == "" {
				blk.Type = kindOfScale(blk.Scale)
				if k := kindOfInches(ts[0].inches); blk.Scale == "" && k != "" {
					blk.Type = k
				}
			}
		case rg.boxed:
			t := rg.r
			if !rg.table.empty() {
				t = rg.table
			}
			blk = classify(t.union(boxOfWords(rg.heading)), ownWords(regions, i, mw), em)
			blk.Type = p.byContent(t, ownWords(regions, i, mw), blk)
			blk.notesHeading()
		default:
			blk = classify(rg.r, ownWords(regions, i, mw), em)
			blk.Type = p.byContent(rg.r, ownWords(regions, i, mw), blk)
			blk.notesHeading()
			if blk.Type == "GeneralNotes" && blk.Title == "" && !rg.framed && underViewTitle(rg.r, titles, em) {
				blk.Type = "SheetNotes"
			}
		}
		if blk.Type == "" {
			continue // an empty frame: nothing in it
		}
		blk.Box = geom.Box{
			XMin: clampF(bx.XMin/k+float64(b.Min.X), float64(b.Min.X), float64(b.Max.X)),
			YMin: clampF(bx.YMin/k+float64(b.Min.Y), float64(b.Min.Y), float64(b.Max.Y)),
			XMax: clampF(bx.XMax/k+float64(b.Min.X), float64(b.Min.X), float64(b.Max.X)),
			YMax: clampF(bx.YMax/k+float64(b.Min.Y), float64(b.Min.Y), float64(b.Max.Y)),
		}
		out = append(out, blk)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Box.YMin != out[j].Box.YMin {
			return out[i].Box.YMin < out[j].Box.YMin
		}
		return out[i].Box.XMin < out[j].Box.XMin
	})
	return out
}

func clampF(v, lo, hi float64) float64 { return min(max(v, lo), hi) }

var (
	trace     = func(string, []region) {}
	traceMask = func(string, *mask) {}
)
