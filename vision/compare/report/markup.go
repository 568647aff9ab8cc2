package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/color"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Markup copies the newer drawing's PDF and adds, per cloud, a real PDF
// annotation: a cloudy polygon annotation (/BE << /S /C /I 1 >>, red,
// intent /PolygonCloud — what Bluebeam draws as its Cloud markup) with the
// note as its /Contents, mapping sheet pixels at dpi to the page's user
// space.
//
// Sheet pixels are those of the page as rendered (vision/render, MuPDF):
// the page's visible box (its CropBox within its MediaBox) turned by its
// /Rotate, at dpi, origin at the top left. Each annotation also carries its
// own appearance stream (the cloud's arcs, drawn in user space), so that
// viewers which do not build one from /BE (pdf.js, MuPDF, browsers) show
// the same cloud; viewers that rebuild it keep the vertices and the
// border effect. The document is rewritten by pdfcpu (relaxed validation);
// a PDF it cannot read is an error, and so is a cloud on a page the
// document does not have. No clouds: the input is copied unchanged.
func Markup(w io.Writer, pdf io.ReadSeeker, dpi float64, clouds []Cloud) error {
	if dpi <= 0 {
		return fmt.Errorf("markup: dpi %g", dpi)
	}
	if len(clouds) == 0 {
		_, err := io.Copy(w, pdf)
		return err
	}
	conf := pdfcpuConfig()
	conf.Cmd = model.ADDANNOTATIONS
	conf.Optimize = false // keep the drawing's objects as they are
	ctx, err := readPDF(pdf, conf)
	if err != nil {
		return fmt.Errorf("markup: read the PDF: %w", err)
	}
	m := map[int][]model.AnnotationRenderer{}
	for i, c := range clouds {
		if c.Page < 1 || c.Page > ctx.PageCount {
			return fmt.Errorf("markup: cloud %d on page %d of a %d-page document", i, c.Page, ctx.PageCount)
		}
		fr, err := frameOf(ctx, c.Page)
		if err != nil {
			return fmt.Errorf("markup: page %d: %w", c.Page, err)
		}
		m[c.Page] = append(m[c.Page], cloudAnnotation(fr, c, dpi, i))
	}
	if _, err := pdfcpu.AddAnnotationsMap(ctx, m, false); err != nil {
		return fmt.Errorf("markup: %w", err)
	}
	return api.WriteContext(ctx, w)
}

// OpenPDF reads a drawing's PDF for editing as readPDF does, with the
// configuration every caller here uses (relaxed validation, no pdfcpu
// configuration directory).
func OpenPDF(pdf io.ReadSeeker) (*model.Context, error) {
	return readPDF(pdf, pdfcpuConfig())
}

// readPDF reads a PDF for annotating: validated (relaxed) when pdfcpu's
// validator accepts it; otherwise, as some CAD exporters write entries it
// refuses even relaxed (a measure dictionary's number format, say), read
// as it is — annotating needs only the page tree, which reading checks.
func readPDF(pdf io.ReadSeeker, conf *model.Configuration) (*model.Context, error) {
	ctx, err := api.ReadValidateAndOptimize(pdf, conf)
	if err == nil {
		return ctx, nil
	}
	if _, serr := pdf.Seek(0, io.SeekStart); serr != nil {
		return nil, err
	}
	ctx, rerr := api.ReadContext(pdf, conf)
	if rerr != nil {
		return nil, errors.Join(err, rerr)
	}
	if perr := ctx.EnsurePageCount(); perr != nil {
		return nil, errors.Join(err, perr)
	}
	return ctx, nil
}

var configOnce sync.Once

// pdfcpuConfig is pdfcpu's default configuration without its configuration
// directory (which it would otherwise create in the user's home) and with
// relaxed validation: drawings come from many CAD exporters.
func pdfcpuConfig() *model.Configuration {
	configOnce.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return conf
}

// frame maps a rendered page's pixels to the page's user space.
type frame struct {
	box    types.Rectangle // visible box: CropBox within MediaBox
	rotate int             // 0, 90, 180 or 270, clockwise as displayed
}

// frameOf reads a page's boxes and rotation (inherited ones included).
func frameOf(ctx *model.Context, page int) (frame, error) {
	_, _, inh, err := ctx.PageDict(page, false)
	if err != nil {
		return frame{}, err
	}
	if inh == nil || inh.MediaBox == nil {
		return frame{}, errors.New("no MediaBox")
	}
	b := normRect(*inh.MediaBox)
	if inh.CropBox != nil {
		c := normRect(*inh.CropBox)
		b = types.Rectangle{
			LL: types.Point{X: max(b.LL.X, c.LL.X), Y: max(b.LL.Y, c.LL.Y)},
			UR: types.Point{X: min(b.UR.X, c.UR.X), Y: min(b.UR.Y, c.UR.Y)},
		}
		if b.UR.X <= b.LL.X || b.UR.Y <= b.LL.Y {
			b = normRect(*inh.MediaBox)
		}
	}
	rot := ((inh.Rotate % 360) + 360) % 360
	if rot%90 != 0 {
		rot = 0
	}
	return frame{box: b, rotate: rot}, nil
}

func normRect(r types.Rectangle) types.Rectangle {
	return types.Rectangle{
		LL: types.Point{X: min(r.LL.X, r.UR.X), Y: min(r.LL.Y, r.UR.Y)},
		UR: types.Point{X: max(r.LL.X, r.UR.X), Y: max(r.LL.Y, r.UR.Y)},
	}
}

// toUser maps a point of the rendered page (pixels at dpi from the top
// left of the page as displayed) to user space. Displayed, the visible box
// is turned clockwise by the rotation: at 90° its lower left corner shows
// at the top left, at 180° its lower right, at 270° its upper right.
func (f frame) toUser(px, py, dpi float64) (float64, float64) {
	x, y := px*72/dpi, py*72/dpi
	b := f.box
	switch f.rotate {
	case 90:
		return b.LL.X + y, b.LL.Y + x
	case 180:
		return b.UR.X - x, b.LL.Y + y
	case 270:
		return b.UR.X - y, b.UR.Y - x
	}
	return b.LL.X + x, b.UR.Y - y
}

// cloudAnnot is pdfcpu's polygon annotation with an appearance stream.
type cloudAnnot struct {
	model.PolygonAnnotation
	ap   []byte
	bbox types.Rectangle
}

// RenderDict renders the polygon's dictionary and adds /AP /N: a form
// XObject that draws the cloud, its BBox the annotation's Rect.
func (c cloudAnnot) RenderDict(xrt *model.XRefTable, page *types.IndirectRef) (types.Dict, error) {
	d, err := c.PolygonAnnotation.RenderDict(xrt, page)
	if err != nil {
		return nil, err
	}
	sd, err := xrt.NewStreamDictForBuf(c.ap)
	if err != nil {
		return nil, err
	}
	sd.InsertName("Type", "XObject")
	sd.InsertName("Subtype", "Form")
	sd.Insert("BBox", c.bbox.Array())
	sd.Insert("Resources", types.Dict{})
	if err := sd.Encode(); err != nil {
		return nil, err
	}
	ref, err := xrt.IndRefForNewObject(*sd)
	if err != nil {
		return nil, err
	}
	d.Insert("AP", types.Dict{"N": *ref})
	return d, nil
}

// Cloud drawing: red, lines of cloudLineWidth points, bumps (half circles)
// of a third of the shorter side, between cloudMinBump and cloudMaxBump
// points of chord.
const (
	cloudLineWidth = 1.5
	cloudMinBump   = 6.0
	cloudMaxBump   = 16.0
)

// cloudAnnotation builds cloud c's annotation on a page.
func cloudAnnotation(fr frame, c Cloud, dpi float64, n int) model.AnnotationRenderer {
	x0, y0 := fr.toUser(c.Box.XMin, c.Box.YMin, dpi)
	x1, y1 := fr.toUser(c.Box.XMax, c.Box.YMax, dpi)
	x0, x1 = min(x0, x1), max(x0, x1)
	y0, y1 = min(y0, y1), max(y0, y1)
	// counter-clockwise in user space (y up): bumps bulge to the right of
	// each side's direction, which is outwards.
	poly := [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	bump := max(cloudMinBump, min(cloudMaxBump, min(x1-x0, y1-y0)/3))
	var ap strings.Builder
	fmt.Fprintf(&ap, "q 1 0 0 RG %.2f w 1 J 1 j\n%.3f %.3f m\n", cloudLineWidth, x0, y0)
	for i := range poly {
		p, q := poly[i], poly[(i+1)%len(poly)]
		l := math.Hypot(q[0]-p[0], q[1]-p[1])
		if l == 0 {
			continue
		}
		k := max(1, int(math.Round(l/bump)))
		ux, uy := (q[0]-p[0])/l, (q[1]-p[1])/l
		nx, ny := uy, -ux
		s := l / float64(k)
		r := s / 2 * 4 / 3 // control offset of a cubic close to a half circle
		for j := 0; j < k; j++ {
			ax, ay := p[0]+ux*s*float64(j), p[1]+uy*s*float64(j)
			bx, by := ax+ux*s, ay+uy*s
			fmt.Fprintf(&ap, "%.3f %.3f %.3f %.3f %.3f %.3f c\n", ax+nx*r, ay+ny*r, bx+nx*r, by+ny*r, bx, by)
		}
	}
	ap.WriteString("h S Q\n")
	pad := bump/2 + cloudLineWidth
	rect := *types.NewRectangle(x0-pad, y0-pad, x1+pad, y1+pad)
	vertices := types.Array{}
	for _, p := range poly {
		vertices = append(vertices, types.Float(p[0]), types.Float(p[1]))
	}
	red := color.Red
	intent := model.IntentPolygonCloud
	pa := model.NewPolygonAnnotation(rect, 0, c.Note, fmt.Sprintf("plangraph-cloud-%d", n), "", model.AnnPrint,
		&red, "plangraph", nil, nil, "", "Cloud", vertices, nil, &intent, nil, nil, cloudLineWidth, model.BSSolid, true, 1)
	return cloudAnnot{PolygonAnnotation: pa, ap: []byte(ap.String()), bbox: rect}
}
