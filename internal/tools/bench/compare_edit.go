package bench

// Known edits drawn into a real sheet's reprint (bench compare --real
// --edit): a rectangle with a diagonal cross and a line of text at fixed
// fractions of each page, their boxes recorded in PDF user space and turned
// into the sheet pixels the compare report gives change bounds in.

import (
	"bytes"
	"fmt"
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// editSpots are where each page's edits go: the top-left corner of each,
// as fractions of the page's width and height from its top-left, well
// inside any sheet's border and away from the usual title block on the
// right or bottom edge. They depend on nothing but the page's size.
var editSpots = [][2]float64{{0.22, 0.28}, {0.52, 0.52}, {0.36, 0.74}}

// editFont is the resource name of the edits' font (Helvetica, one of the
// standard 14: no font file needed).
const editFont = "PGBenchEdit"

// pdfEdit is one edit drawn on a page: its box in the page's user space
// (points, y up) and the page frame the sheet is rendered from.
type pdfEdit struct {
	Page  int // 1-based
	Label string
	Box   types.Rectangle // user space, line width included
	// Visible is the page's visible box (media box cut by crop box) and
	// Rotate its /Rotate, as the renderer bounds and turns the page.
	Visible types.Rectangle
	Rotate  int
}

// Pixels is the edit's box on the page rendered at dpi: the renderer's
// pixels, origin at the visible box's top-left after rotation — the frame
// of the compare report's sheet pixels.
func (e pdfEdit) Pixels(dpi float64) geom.Box {
	k := dpi / 72
	w, h := e.Visible.Width(), e.Visible.Height()
	// unrotated page, y down, in points
	u0, u1 := e.Box.LL.X-e.Visible.LL.X, e.Box.UR.X-e.Visible.LL.X
	v0, v1 := e.Visible.UR.Y-e.Box.UR.Y, e.Visible.UR.Y-e.Box.LL.Y
	var b geom.Box
	switch ((e.Rotate % 360) + 360) % 360 {
	case 90: // turned clockwise: (u, v) → (h−v, u)
		b = geom.Box{XMin: h - v1, YMin: u0, XMax: h - v0, YMax: u1}
	case 180:
		b = geom.Box{XMin: w - u1, YMin: h - v1, XMax: w - u0, YMax: h - v0}
	case 270:
		b = geom.Box{XMin: v0, YMin: w - u1, XMax: v1, YMax: w - u0}
	default:
		b = geom.Box{XMin: u0, YMin: v0, XMax: u1, YMax: v1}
	}
	return geom.Box{XMin: b.XMin * k, YMin: b.YMin * k, XMax: b.XMax * k, YMax: b.YMax * k}
}

// drawEdits appends the edits to every page's content of ctx (after any
// resize, so they are drawn in the page's final user space) and returns
// their boxes.
func drawEdits(ctx *model.Context) ([]pdfEdit, error) {
	var edits []pdfEdit
	err := eachPage(ctx, func(p int, d types.Dict, inh *model.InheritedPageAttrs) error {
		vis := *inh.MediaBox
		if c := inh.CropBox; c != nil {
			vis = *types.NewRectangle(math.Max(vis.LL.X, c.LL.X), math.Max(vis.LL.Y, c.LL.Y),
				math.Min(vis.UR.X, c.UR.X), math.Min(vis.UR.Y, c.UR.Y))
		}
		var content bytes.Buffer
		content.WriteString("Q\n") // closes the q put before the page's own content
		size := math.Max(36, 0.05*math.Min(vis.Width(), vis.Height()))
		const lw = 1.5
		for i, s := range editSpots {
			e := pdfEdit{Page: p, Label: fmt.Sprintf("EDIT %d", i+1), Visible: vis, Rotate: inh.Rotate}
			x0 := vis.LL.X + s[0]*vis.Width()
			y1 := vis.UR.Y - s[1]*vis.Height()
			x1, y0 := x0+1.6*size, y1-size
			fs := 0.22 * size
			fmt.Fprintf(&content, "q 0 G 0 g %.2f w 0 J 0 j [] 0 d\n", lw)
			fmt.Fprintf(&content, "%.2f %.2f %.2f %.2f re S\n", x0, y0, x1-x0, y1-y0)
			fmt.Fprintf(&content, "%.2f %.2f m %.2f %.2f l S\n", x0, y0, x1, y1)
			fmt.Fprintf(&content, "%.2f %.2f m %.2f %.2f l S\n", x0, y1, x1, y0)
			fmt.Fprintf(&content, "BT /%s %.2f Tf %.2f %.2f Td (%s) Tj ET\nQ\n", editFont, fs, x0+0.15*size, y1-0.2*size-fs, e.Label)
			e.Box = *types.NewRectangle(x0-lw, y0-lw, x1+lw, y1+lw)
			edits = append(edits, e)
		}
		if err := addEditFont(ctx, d, inh); err != nil {
			return fmt.Errorf("page %d: %w", p, err)
		}
		if err := appendContent(ctx, d, content.Bytes()); err != nil {
			return fmt.Errorf("page %d: %w", p, err)
		}
		return nil
	})
	return edits, err
}

// eachPage calls f with each page's dictionary and its inherited
// attributes (a media box always among them).
func eachPage(ctx *model.Context, f func(p int, d types.Dict, inh *model.InheritedPageAttrs) error) error {
	for p := 1; p <= ctx.PageCount; p++ {
		d, _, inh, err := ctx.PageDict(p, false)
		if err != nil {
			return err
		}
		if inh == nil || inh.MediaBox == nil {
			return fmt.Errorf("page %d has no media box", p)
		}
		if err := f(p, d, inh); err != nil {
			return err
		}
	}
	return nil
}

// clonedDict is a copy of the dictionary d[key] (dereferenced), or an
// empty one when d has none.
func clonedDict(ctx *model.Context, d types.Dict, key string) (types.Dict, error) {
	o, ok := d.Find(key)
	if !ok {
		return types.Dict{}, nil
	}
	r, err := ctx.DereferenceDict(o)
	if err != nil || r == nil {
		return types.Dict{}, err
	}
	return r.Clone().(types.Dict), nil
}

// addEditFont gives page d its own resources (a copy of those it had or
// inherited) with the edits' font added.
func addEditFont(ctx *model.Context, d types.Dict, inh *model.InheritedPageAttrs) error {
	res, err := clonedDict(ctx, d, "Resources")
	if err != nil {
		return err
	}
	if _, own := d.Find("Resources"); !own && inh.Resources != nil {
		res = inh.Resources.Clone().(types.Dict)
	}
	fonts, err := clonedDict(ctx, res, "Font")
	if err != nil {
		return err
	}
	fonts[editFont] = types.Dict{
		"Type":     types.Name("Font"),
		"Subtype":  types.Name("Type1"),
		"BaseFont": types.Name("Helvetica"),
		"Encoding": types.Name("WinAnsiEncoding"),
	}
	res["Font"] = fonts
	d["Resources"] = res
	return nil
}

// appendContent draws extra after page d's content, the content wrapped in
// q … Q first (extra starts by closing it) so that its graphics state does
// not carry over.
func appendContent(ctx *model.Context, d types.Dict, extra []byte) error {
	return WrapContent(ctx, d, []byte("q\n"), extra)
}

// WrapContent puts before and after (new content streams) around page d's
// content streams.
func WrapContent(ctx *model.Context, d types.Dict, before, after []byte) error {
	var parts types.Array
	if o, ok := d.Find("Contents"); ok {
		o2, err := ctx.Dereference(o)
		if err != nil {
			return err
		}
		if a, ok := o2.(types.Array); ok {
			parts = append(parts, a...)
		} else if o2 != nil {
			parts = append(parts, o)
		}
	}
	stream := func(b []byte) (types.Object, error) {
		sd, err := ctx.NewStreamDictForBuf(b)
		if err != nil {
			return nil, err
		}
		if err := sd.Encode(); err != nil {
			return nil, err
		}
		ir, err := ctx.IndRefForNewObject(*sd)
		if err != nil {
			return nil, err
		}
		return *ir, nil
	}
	open, err := stream(before)
	if err != nil {
		return err
	}
	end, err := stream(after)
	if err != nil {
		return err
	}
	d["Contents"] = append(append(types.Array{open}, parts...), end)
	return nil
}

// editScore is one edited set's outcome: Found of Total edits reported (a
// change of any kind whose bounds overlap the edit's, overlapsEdit), and
// the Other changes, which touch no edit (false).
type editScore struct {
	Found, Total, Other int
	Misses, Extras      []string
}

// addedBlocks are the blocks of the newer sheets that match none of the
// older's, as added changes: an edit drawn apart from the drawing is
// reported so rather than as a change inside a compared block pair.
func addedBlocks(ran CompareRan) []pageChange {
	var out []pageChange
	for _, p := range ran.Report.Pairs {
		for _, b := range p.BlocksAdded {
			c := compare.ReportChange{Change: compare.Change{Kind: "added", Category: "block", Description: b.Type + " block added", Bounds: b.Bounds}}
			out = append(out, pageChange{c, b.Bounds, p.New.Page})
		}
	}
	return out
}

// scoreEdits scores the changes reported between a sheet and its edited
// reprint against the edits, whose boxes are turned into pixels at dpi.
func scoreEdits(name string, edits []pdfEdit, dpi float64, changes []pageChange) editScore {
	var s editScore
	right := make([]bool, len(changes))
	for _, e := range edits {
		eb := e.Pixels(dpi)
		found := false
		for i, c := range changes {
			if c.sheet == e.Page && overlapsEdit(c.page, eb) {
				right[i], found = true, true
			}
		}
		s.Total++
		if found {
			s.Found++
		} else {
			s.Misses = append(s.Misses, fmt.Sprintf("%s: page %d %s at %s", name, e.Page, e.Label, fmtBox(eb)))
		}
	}
	for i, c := range changes {
		if !right[i] {
			s.Other++
			s.Extras = append(s.Extras, fmt.Sprintf("%s (edited): page %d %s %s %q at %s", name, c.sheet, c.Kind, c.Category, c.Description, fmtBox(c.page)))
		}
	}
	return s
}
