// Package similar tells which of a set of reference images (a project's
// legend symbols) a query image shows (a symbol cut from a sheet with the
// plan's lines around it, or a picture a client sends), with the pixel
// matcher (vision/symbols): at any rotation, mirrored or not, at 0.5–2× the
// reference's size, one matcher run over the query for all references.
package similar

import (
	"context"
	"errors"
	"image"
	"image/draw"
	"slices"
	"time"

	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vecsym"
)

// MinConfidence is the matcher's confidence under which a reference is
// not reported: the matcher's own threshold between right and wrong on its
// benchmarks (symbols.Detection).
const MinConfidence = 0.5

// Match is one reference found like the query.
type Match struct {
	// Ref indexes the references given to Rank.
	Ref        int
	Confidence float64
	Angle      float64 // degrees, counter-clockwise, of the reference as the query draws it
	Scale      float64 // the query's symbol's size / the reference's
	Mirrored   bool
}

// Result is a ranking: the references found in the query, most alike
// first, and how many were left out (blank).
type Result struct {
	Matches []Match
	Left    int
	// Unfinished: the matcher stopped at the deadline before it searched
	// the whole query, so a reference may be missing
	Unfinished bool
}

// ErrBlank is returned for a query without ink.
var ErrBlank = errors.New("the image is blank: nothing in it is darker than the paper")

// Rank compares the query, the part focus of img (img's whole when focus
// is empty), with each of refs (dark ink on light paper) and returns those
// the matcher finds there, best first: a reference counts where its found
// instance's centre lies in focus. img may hold the drawing around the
// query (a region of a sheet with a margin of the sheet around it): the
// matcher reads the drawing's pen and linework from it. The references
// are the templates and the query the drawing searched, as a legend's
// symbols are searched on a plan: a query cut from a sheet keeps the plan's
// lines around its symbol, and the matcher tells a symbol from the
// linework it sits on. A zero deadline does not bound the search.
func Rank(ctx context.Context, img *image.Gray, focus image.Rectangle, refs []*image.Gray, deadline time.Time) (Result, error) {
	if focus.Empty() {
		focus = img.Rect
	}
	if _, ok := render.InkBounds(img.SubImage(focus).(*image.Gray)); !ok {
		return Result{}, ErrBlank
	}
	ink, _ := render.InkBounds(img)
	q := img.SubImage(ink.Inset(-render.CropMargin).Intersect(img.Rect)).(*image.Gray)
	var res Result
	var tmpls []symbols.Template
	var index []int
	for i, r := range refs {
		c, ok := crop(r)
		if !ok {
			res.Left++
			continue
		}
		tmpls = append(tmpls, symbols.Template{Image: c})
		index = append(index, i)
	}
	if len(tmpls) == 0 {
		return res, nil
	}
	// paper around the query, so that a reference larger than the query's
	// ink still fits over it
	pad := max(q.Rect.Dx(), q.Rect.Dy())/2 + 8
	page := image.NewGray(image.Rect(0, 0, q.Rect.Dx()+2*pad, q.Rect.Dy()+2*pad))
	for i := range page.Pix {
		page.Pix[i] = 255
	}
	at := image.Pt(pad, pad).Sub(q.Rect.Min) // img's pixels to page's
	draw.Draw(page, q.Rect.Add(at), q, q.Rect.Min, draw.Src)
	focus = focus.Add(at)
	out, err := symbols.Match(ctx, page, tmpls, symbols.Options{MinConfidence: MinConfidence, Deadline: deadline})
	if err != nil {
		return res, err
	}
	res.Unfinished = len(out.Unsearched) > 0
	res.Matches = best(out.Detections, focus, func(t int) int { return index[t] })
	return res, nil
}

// RankGeometry is Rank on a drawing's geometry (a PDF's paths and text,
// vision/vecsym): the references' geometry, tagged as tags give (nil: no
// tags), is searched over d, whose words (d's pixels) tell tagged symbols
// apart, and a reference counts where its instance's centre lies in focus
// (d's pixels).
func RankGeometry(ctx context.Context, d *vecsym.Drawing, words []symbols.Word, focus image.Rectangle, refs []*vecsym.Template, tags []string, deadline time.Time) (Result, error) {
	var res Result
	if len(refs) == 0 {
		return res, nil
	}
	dets, err := vecsym.Match(ctx, d, refs, vecsym.Options{MinConfidence: MinConfidence, Deadline: deadline, Tags: tags, Words: words})
	var inc *vecsym.Incomplete
	if errors.As(err, &inc) {
		res.Unfinished, err = true, nil
	}
	if err != nil {
		return res, err
	}
	res.Matches = best(dets, focus, func(t int) int { return t })
	return res, nil
}

// best is each reference's most confident detection centred in focus,
// most confident first; ref maps a detection's template to its reference.
func best(dets []symbols.Detection, focus image.Rectangle, ref func(int) int) []Match {
	top := map[int]Match{}
	for _, d := range dets {
		c := image.Pt(int((d.Box.XMin+d.Box.XMax)/2), int((d.Box.YMin+d.Box.YMax)/2))
		if !c.In(focus) {
			continue
		}
		r := ref(d.Template)
		if m, seen := top[r]; !seen || d.Confidence > m.Confidence {
			top[r] = Match{Ref: r, Confidence: d.Confidence, Angle: d.Angle, Scale: d.Scale, Mirrored: d.Mirrored}
		}
	}
	out := make([]Match, 0, len(top))
	for _, m := range top {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b Match) int {
		if a.Confidence != b.Confidence {
			if a.Confidence > b.Confidence {
				return -1
			}
			return 1
		}
		return a.Ref - b.Ref
	})
	return out
}

// crop is a reference cut to its ink with a little paper around it (nil
// and blank references are not compared).
func crop(r *image.Gray) (*image.Gray, bool) {
	if r == nil {
		return nil, false
	}
	return render.TightCrop(r)
}
