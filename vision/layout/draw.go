package layout

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// typeColors gives each block type its own colour in debug pictures.
var typeColors = map[string]color.RGBA{
	"Plan": {0, 114, 178, 255}, "Elevation": {86, 180, 233, 255}, "Section": {0, 158, 115, 255},
	"Detail": {0, 90, 60, 255}, "Schedule": {213, 94, 0, 255}, "Legend": {204, 121, 167, 255},
	"GeneralNotes": {230, 159, 0, 255}, "KeyNotes": {160, 100, 0, 255}, "SheetNotes": {200, 140, 40, 255},
	"TitleBlock": {220, 20, 60, 255}, "RevisionHistory": {120, 0, 160, 255}, "Diagram": {90, 90, 90, 255},
	"Image": {150, 150, 0, 255},
}

// Draw returns a colour copy of page with each block's box outlined and
// labelled with its type and title, for a person to check segmentation.
// scale maps block pixels to page pixels (page DPI / blocks' DPI).
func Draw(page *image.Gray, blocks []Block, scale float64) *image.RGBA {
	out := image.NewRGBA(page.Bounds())
	draw.Draw(out, out.Bounds(), page, page.Bounds().Min, draw.Src)
	thick := max(2, page.Bounds().Dx()/800)
	for _, b := range blocks {
		c, ok := typeColors[b.Type]
		if !ok {
			c = color.RGBA{255, 0, 0, 255}
		}
		r := image.Rect(int(b.Box.XMin*scale), int(b.Box.YMin*scale), int(b.Box.XMax*scale), int(b.Box.YMax*scale)).Intersect(out.Bounds())
		if r.Empty() {
			continue
		}
		for _, edge := range []image.Rectangle{
			{r.Min, image.Pt(r.Max.X, r.Min.Y+thick)}, {image.Pt(r.Min.X, r.Max.Y-thick), r.Max},
			{r.Min, image.Pt(r.Min.X+thick, r.Max.Y)}, {image.Pt(r.Max.X-thick, r.Min.Y), r.Max},
		} {
			draw.Draw(out, edge.Intersect(out.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
		}
		label := b.Type
		if b.Title != "" {
			label += ": " + b.Title
		}
		if b.Scale != "" {
			label += " (" + b.Scale + ")"
		}
		face := basicfont.Face7x13
		w := font.MeasureString(face, label).Ceil() + 6
		bg := image.Rect(r.Min.X+thick, r.Min.Y+thick, r.Min.X+thick+w, r.Min.Y+thick+16).Intersect(out.Bounds())
		draw.Draw(out, bg, image.NewUniform(c), image.Point{}, draw.Src)
		d := font.Drawer{Dst: out, Src: image.White, Face: face, Dot: fixed.P(bg.Min.X+3, bg.Min.Y+12)}
		d.DrawString(label)
	}
	return out
}
