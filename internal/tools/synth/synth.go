// Package synth draws synthetic construction drawings with exact ground
// truth: vector PDF sheets with a border, a title block, legends, notes,
// schedules and plan views whose symbol instances sit at known positions,
// scales and angles, plus an optional revision of every sheet that is
// shifted, slightly rescaled and carries known edits. Tests of the vision
// pipeline use it as their fixture generator.
//
// Everything is a pure function of Options: the same seed gives the same
// PDF and JSON bytes.
package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
)

// Options select what Generate draws.
type Options struct {
	// Seed picks every random choice; equal seeds give equal bytes.
	Seed int64
	// Sheets is the number of sheets (pages); default 3.
	Sheets int
	// Revision also generates a revised version of every sheet.
	Revision bool
	// RevisionMotion is how a revision's page moves against the original:
	// "" or "small" shifts it by 1–3 mm and rescales it by 0.98–1.02 (the
	// classic output, byte for byte); "large" rescales it by 0.85–1.15 and
	// turns it by up to 3° about the page centre besides the shift (a
	// reprint at another scale, a skewed scan); "turn" turns the page a
	// quarter (the revision is portrait) besides a small shift.
	RevisionMotion string
	// PageSize names the sheet size: "36x24" (ARCH D, the default),
	// "42x30" (ARCH E1) or "24x18" (ARCH C). Sheets are landscape.
	PageSize string
	// DPI is the resolution of ground-truth pixel coordinates; default 300.
	DPI float64
	// Vary draws each plan instance of a symbol as another CAD program might
	// export it: lines broken into collinear pieces, circles and arcs as
	// polygons, polygons as separate lines and fills, and a third of the
	// symbols without letters mirrored. Every instance looks as before; its
	// geometry no longer repeats the legend's. The choices follow the seed
	// and the instance, so the rest of the set is the same as without Vary.
	Vary bool
	// Conventions selects the drafting conventions: "" or "classic" draws
	// the one house style of earlier releases, byte for byte; "mixed" lets
	// every sheet pick its own from the seed: title blocks (bottom strip,
	// vertical strip, ISO box with English or German labels), NCS, plain
	// and ISO 19650 sheet numbers, titles of one to three lines, one to
	// four views (plans, elevations, sections, details) with title bars,
	// legends in several layouts (columns, text left, ruled tables, notes,
	// colours, callouts, line styles), text drawn as outlines on about a
	// fifth of the sheets, and cover and schedule sheets.
	Conventions string
	// PlanInstances, when more than a plan's usual few dozen, fills each
	// plan with instances of its sheet's legend symbols up to that many,
	// as densely as its rooms leave clear spots: a load fixture for
	// viewers and counts (the web app's 2,000-detection benchmark), not a
	// drafting convention. 0 keeps the set as without it, byte for byte.
	PlanInstances int
}

// RevisionMotions lists the accepted Options.RevisionMotion values.
var RevisionMotions = []string{"small", "large", "turn"}

// ConventionNames lists the accepted Options.Conventions values.
var ConventionNames = []string{"classic", "mixed"}

// PageSizes lists the accepted Options.PageSize names, in inches (w×h).
var PageSizes = map[string][2]float64{"36x24": {36, 24}, "42x30": {42, 30}, "24x18": {24, 18}}

// pageAliases maps other spellings to the names of PageSizes.
var pageAliases = map[string]string{
	"": "36x24", "arch-d": "36x24", "archd": "36x24", "d": "36x24",
	"arch-e1": "42x30", "arche1": "42x30", "e1": "42x30",
	"arch-c": "24x18", "archc": "24x18", "c": "24x18",
}

func (o Options) normalized() (Options, error) {
	if o.Sheets == 0 {
		o.Sheets = 3
	}
	if o.Sheets < 0 || o.Sheets > 200 {
		return o, fmt.Errorf("synth: sheets must be between 1 and 200, got %d", o.Sheets)
	}
	if o.DPI == 0 {
		o.DPI = 300
	}
	if o.DPI < 10 || o.DPI > 2400 {
		return o, fmt.Errorf("synth: dpi must be between 10 and 2400, got %g", o.DPI)
	}
	name := strings.ToLower(strings.TrimSpace(o.PageSize))
	name = strings.NewReplacer("×", "x", " ", "", "in", "").Replace(name)
	if a, ok := pageAliases[name]; ok {
		name = a
	}
	if _, ok := PageSizes[name]; !ok {
		return o, fmt.Errorf("synth: unknown page size %q (have 36x24, 42x30, 24x18)", o.PageSize)
	}
	o.PageSize = name
	switch m := strings.ToLower(strings.TrimSpace(o.RevisionMotion)); m {
	case "", "small":
		o.RevisionMotion = "small"
	case "large", "turn":
		o.RevisionMotion = m
	default:
		return o, fmt.Errorf("synth: unknown revision motion %q (have %s)", o.RevisionMotion, strings.Join(RevisionMotions, ", "))
	}
	switch c := strings.ToLower(strings.TrimSpace(o.Conventions)); c {
	case "", "classic":
		o.Conventions = "classic"
	case "mixed":
		o.Conventions = c
	default:
		return o, fmt.Errorf("synth: unknown conventions %q (have classic, mixed)", o.Conventions)
	}
	return o, nil
}

// Set is a generated drawing set: its sheets, their optional revision and
// the ground truth of both.
type Set struct {
	// Options as used, defaults filled in.
	Options Options
	// Truth is what WriteTruth encodes.
	Truth Truth

	sheets []*sheet
	revs   []*sheet
	xfs    []xform
}

// Generate draws a set.
func Generate(opts Options) (*Set, error) {
	o, err := opts.normalized()
	if err != nil {
		return nil, err
	}
	g := newGen(o)
	s := &Set{Options: o}
	s.sheets = g.sheets()
	for _, sh := range s.sheets {
		st := g.sheetTruth(sh)
		s.Truth.Sheets = append(s.Truth.Sheets, st)
	}
	if o.Revision {
		for i, sh := range s.sheets {
			rev, xf, changes := g.revise(sh)
			s.revs = append(s.revs, rev)
			s.xfs = append(s.xfs, xf)
			blocks, insts := g.truthOf(rev, xf)
			rt := &RevisionTruth{
				Revision:  rev.rev,
				Transform: xf.truth(o.DPI),
				Blocks:    blocks,
				Instances: insts,
				Changes:   changes,
			}
			if xf.turned() {
				rt.WidthPx, rt.HeightPx = int(rev.H*o.DPI/72+0.5), int(rev.W*o.DPI/72+0.5)
			}
			s.Truth.Sheets[i].Revision = rt
		}
	}
	in := PageSizes[o.PageSize]
	s.Truth.Version = 1
	s.Truth.Seed = o.Seed
	s.Truth.PageSize = o.PageSize
	s.Truth.WidthIn, s.Truth.HeightIn = in[0], in[1]
	s.Truth.DPI = o.DPI
	s.Truth.WidthPx, s.Truth.HeightPx = int(in[0]*o.DPI+0.5), int(in[1]*o.DPI+0.5)
	return s, nil
}

// WritePDF writes the sheets, one per page.
func (s *Set) WritePDF(w io.Writer) error { return s.write(w, s.sheets, nil) }

// WriteRevisionPDF writes the revised sheets; the set must have been
// generated with Options.Revision.
func (s *Set) WriteRevisionPDF(w io.Writer) error {
	if s.revs == nil {
		return errors.New("synth: set was generated without Options.Revision")
	}
	return s.write(w, s.revs, s.xfs)
}

// WriteMovedPDF writes the original sheets moved as their revisions are
// (the same page transforms, Truth.Sheets[i].Revision.Transform) but with
// none of the revisions' edits: a pair with WritePDF's that has nothing
// to report but the motion. The set must have been generated with
// Options.Revision.
func (s *Set) WriteMovedPDF(w io.Writer) error {
	if s.revs == nil {
		return errors.New("synth: set was generated without Options.Revision")
	}
	return s.write(w, s.sheets, s.xfs)
}

// WriteFile writes one of a set's outputs (WritePDF, WriteTruth…) to path,
// through a temporary file beside it so that a failed write leaves no
// half-written file.
func WriteFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteTruth writes the ground truth as indented JSON.
func (s *Set) WriteTruth(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s.Truth)
}

// epoch is the fixed document date; a PDF must not carry the time of day
// it was written or the bytes would change.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func (s *Set) write(w io.Writer, sheets []*sheet, xfs []xform) error {
	in := PageSizes[s.Options.PageSize]
	f := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "pt", Size: fpdf.SizeType{Wd: in[0] * 72, Ht: in[1] * 72}})
	f.SetCatalogSort(true)
	f.SetCreationDate(epoch)
	f.SetModificationDate(epoch)
	f.SetProducer("plangraph synth", false)
	f.SetCreator("plangraph synth", false)
	f.SetTitle(fmt.Sprintf("synthetic drawing set, seed %d", s.Options.Seed), false)
	f.SetAutoPageBreak(false, 0)
	f.SetMargins(0, 0, 0)
	for i, sh := range sheets {
		if xfs != nil && xfs[i].turned() {
			f.AddPageFormat("P", fpdf.SizeType{Wd: in[1] * 72, Ht: in[0] * 72})
		} else {
			f.AddPage()
		}
		if xfs != nil {
			xf := xfs[i]
			f.TransformBegin()
			c2 := xf.centre()
			f.TransformTranslate(c2.X-xf.c.X+xf.dx, c2.Y-xf.c.Y+xf.dy)
			if xf.rot != 0 {
				// fpdf turns counter-clockwise as seen; rot turns clockwise
				f.TransformRotate(-xf.rot, xf.c.X, xf.c.Y)
			}
			f.TransformScale(xf.s*100, xf.s*100, xf.c.X, xf.c.Y)
		}
		sh.render(f)
		if xfs != nil {
			f.TransformEnd()
		}
	}
	if err := f.Error(); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return f.Output(w)
}

// xform is a revision's page transform, in points:
// p' = s·R(rot)·(p − c) + c2 + d, R turning by rot degrees clockwise as
// seen (y down), c the original page's centre and c2 the revision page's
// (c2 = c unless the page is turned a quarter, when c2 is c transposed).
type xform struct {
	s      float64
	c      pt
	dx, dy float64
	rot    float64
}

var identity = xform{s: 1}

// turned reports a quarter turn: the revision page is portrait.
func (x xform) turned() bool { return math.Abs(math.Abs(x.rot)-90) < 1e-9 }

// centre is the revision page's centre.
func (x xform) centre() pt {
	if x.turned() {
		return pt{x.c.Y, x.c.X}
	}
	return x.c
}

func (x xform) apply(p pt) pt {
	if x.rot == 0 {
		return pt{x.s*(p.X-x.c.X) + x.c.X + x.dx, x.s*(p.Y-x.c.Y) + x.c.Y + x.dy}
	}
	sn, cs := math.Sincos(x.rot * math.Pi / 180)
	qx, qy := p.X-x.c.X, p.Y-x.c.Y
	c2 := x.centre()
	return pt{x.s*(cs*qx-sn*qy) + c2.X + x.dx, x.s*(sn*qx+cs*qy) + c2.Y + x.dy}
}

func (x xform) rect(r rect) rect {
	if x.rot == 0 {
		a, b := x.apply(pt{r.X0, r.Y0}), x.apply(pt{r.X1, r.Y1})
		return rect{a.X, a.Y, b.X, b.Y}
	}
	out := emptyRect()
	for _, p := range []pt{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X0, r.Y1}, {r.X1, r.Y1}} {
		out = out.addPt(x.apply(p))
	}
	return out
}

func (x xform) truth(dpi float64) Transform {
	k := dpi / 72
	if x.rot == 0 {
		return Transform{
			Scale: x.s,
			TX:    round(((1-x.s)*x.c.X+x.dx)*k, 3),
			TY:    round(((1-x.s)*x.c.Y+x.dy)*k, 3),
			DXMM:  round(x.dx*25.4/72, 3),
			DYMM:  round(x.dy*25.4/72, 3),
		}
	}
	o := x.apply(pt{}) // where the original page's corner lands
	return Transform{
		Scale: x.s, RotationDeg: x.rot,
		TX: round(o.X*k, 3), TY: round(o.Y*k, 3),
		DXMM: round(x.dx*25.4/72, 3), DYMM: round(x.dy*25.4/72, 3),
	}
}

// Truth is the ground truth of a set. Coordinates are pixels at DPI with
// the origin at the page's top left corner.
type Truth struct {
	Version  int          `json:"version"`
	Seed     int64        `json:"seed"`
	PageSize string       `json:"page_size"`
	WidthIn  float64      `json:"width_in"`
	HeightIn float64      `json:"height_in"`
	DPI      float64      `json:"dpi"`
	WidthPx  int          `json:"width_px"`
	HeightPx int          `json:"height_px"`
	Sheets   []SheetTruth `json:"sheets"`
}

// SheetTruth describes one page.
type SheetTruth struct {
	// Page is the 1-based page number in both PDFs.
	Page        int    `json:"page"`
	SheetNumber string `json:"sheet_number"`
	Title       string `json:"title"`
	// Discipline is sheetmeta.Discipline(SheetNumber).
	Discipline string `json:"discipline"`
	// TitleBlockPosition is "right" (a vertical strip) or "bottom".
	TitleBlockPosition string `json:"title_block_position"`
	// LegendSymbolPx is the nominal legend symbol size (instances are
	// Scale times it).
	LegendSymbolPx float64 `json:"legend_symbol_px"`
	// The fields below are set only with Options.Conventions "mixed".
	// Kind is "drawing", "cover" or "schedule".
	Kind string `json:"kind,omitempty"`
	// TitleBlockStyle is "strip" (along the bottom), "vertical" (stacked
	// cells along the right edge) or "iso" (a box in the bottom right
	// corner; TitleBlockPosition is then "bottom_right").
	TitleBlockStyle string `json:"title_block_style,omitempty"`
	// TitleLines are the sheet title's lines as printed (Title joins them
	// with single spaces).
	TitleLines []string `json:"title_lines,omitempty"`
	// NumberStyle is "ncs" (A-201, E201A, A1.1: Discipline from the
	// prefix), "plain" (500-00, 5.1.00) or "iso19650"
	// (RMB-HPE-ZZ-01-DR-E-20001); for the last two Discipline comes from the
	// title's words.
	NumberStyle string `json:"number_style,omitempty"`
	// Language is "de" when the sheet's labels and legend are German.
	Language string `json:"language,omitempty"`
	// OutlinedText: every text of the page is drawn as vector strokes; the
	// page has no text layer.
	OutlinedText bool            `json:"outlined_text,omitempty"`
	Blocks       []BlockTruth    `json:"blocks"`
	Instances    []InstanceTruth `json:"instances"`
	// Revision is set when the set was generated with a revision.
	Revision *RevisionTruth `json:"revision,omitempty"`
}

// BlockTruth is one region of a sheet. Type is one of the Block types of
// the data model (Plan, Legend, GeneralNotes, KeyNotes, Schedule,
// TitleBlock). Box bounds the block's drawing with a small margin.
type BlockTruth struct {
	Type  string   `json:"type"`
	Title string   `json:"title"`
	Scale string   `json:"scale,omitempty"`
	Box   geom.Box `json:"box"`
	// Entries of a Legend, in drawing order.
	Entries []LegendEntryTruth `json:"entries,omitempty"`
	// Fields of a TitleBlock.
	Fields []FieldTruth `json:"fields,omitempty"`
	// Rooms of a Plan.
	Rooms []RoomTruth `json:"rooms,omitempty"`
	// The fields below are set only with Options.Conventions "mixed".
	// A view (Plan, Elevation, Section, Detail) has a title bar under it:
	// a bubble split by a line with ViewNumber above and ViewSheet (the
	// sheet number, or the last field of a long one) below, the title
	// (TitleBox) and the scale line (ScaleBox, e.g. "SCALE: 1/4" = 1'-0"";
	// Scale holds the value only).
	ViewNumber string    `json:"view_number,omitempty"`
	ViewSheet  string    `json:"view_sheet,omitempty"`
	BubbleBox  *geom.Box `json:"bubble_box,omitempty"`
	TitleBox   *geom.Box `json:"title_box,omitempty"`
	ScaleBox   *geom.Box `json:"scale_box,omitempty"`
	// Grid are the grid-line bubbles drawn with a plan (their labels and
	// circles; grid bubbles are not symbols). SharedGrid: the lettered grid
	// lines run on through the neighbouring plan, and the two boxes abut.
	Grid       []TextTruth `json:"grid,omitempty"`
	SharedGrid bool        `json:"shared_grid,omitempty"`
	// Columns of a Legend (1–3), TextSide "right" or "left" of the
	// graphic, Header the header row of a ruled legend table (not an
	// entry) and Note the line under a legend (not an entry).
	Columns  int        `json:"columns,omitempty"`
	TextSide string     `json:"text_side,omitempty"`
	Header   []string   `json:"header,omitempty"`
	Note     *TextTruth `json:"note,omitempty"`
}

// LegendEntryTruth is one legend row: a graphic (absent for text-only
// entries), a label and a description.
type LegendEntryTruth struct {
	Label          string    `json:"label"`
	Description    string    `json:"description"`
	HasGraphic     bool      `json:"has_graphic"`
	Symbol         string    `json:"symbol,omitempty"`
	GraphicBox     *geom.Box `json:"graphic_box,omitempty"`
	LabelBox       geom.Box  `json:"label_box"`
	DescriptionBox geom.Box  `json:"description_box"`
	Box            geom.Box  `json:"box"`
	// Kind is "symbol" (instances may refer to it), "line" (a line style:
	// wall type, dashed or hatched line) or "text" (no graphic); set only
	// with Conventions "mixed".
	Kind string `json:"kind,omitempty"`
	// Color of a coloured graphic, "#rrggbb" (its instances share it).
	Color string `json:"color,omitempty"`
}

// FieldTruth is a labelled title-block field. Key is a stable name
// (project, sheet_title, sheet_number, date, drawn_by, checked_by,
// revision, scale, project_number); Label is the text printed.
type FieldTruth struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value string `json:"value"`
	// LabelBox is absent for an unlabelled field (Label "", mixed only).
	LabelBox geom.Box `json:"label_box,omitzero"`
	ValueBox geom.Box `json:"value_box"`
}

// RoomTruth is a room of a plan: its label and its extent between wall
// centre lines.
type RoomTruth struct {
	Name     string   `json:"name"`
	Number   string   `json:"number"`
	Box      geom.Box `json:"box"`
	LabelBox geom.Box `json:"label_box"`
}

// InstanceTruth is a symbol placed on a plan.
type InstanceTruth struct {
	// ID is stable between a sheet and its revision.
	ID     int    `json:"id"`
	Label  string `json:"label"`
	Symbol string `json:"symbol"`
	// Block indexes the sheet's Blocks (the plan).
	Block int `json:"block"`
	// LegendBlock and LegendEntry locate the defining legend entry.
	LegendBlock int `json:"legend_block"`
	LegendEntry int `json:"legend_entry"`
	// Box is the axis-aligned box of the drawn (rotated) symbol.
	Box    geom.Box `json:"box"`
	Center Point    `json:"center"`
	// Angle is the rotation in degrees, counter-clockwise as seen, [0, 360).
	Angle float64 `json:"angle"`
	// Scale is the size relative to the legend graphic, 0.5–2.
	Scale  float64    `json:"scale"`
	Suffix *TextTruth `json:"suffix,omitempty"`
	// Crossed is "line" when a line crosses the symbol, "wall" when it
	// straddles a wall, "" otherwise.
	Crossed string `json:"crossed,omitempty"`
	// Texts of a callout (section, detail or elevation marker; mixed
	// only): the letters this instance shows in place of the legend's
	// ("3" over "A5"), top first. Callouts are drawn upright (Angle 0).
	Texts []TextTruth `json:"texts,omitempty"`
}

// Point is a pixel position.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// TextTruth is a run of text and its box.
type TextTruth struct {
	Text string   `json:"text"`
	Box  geom.Box `json:"box"`
}

// RevisionTruth describes the revised sheet on the same page of the
// revision PDF. Blocks, Instances and Changes are in revision-page pixels.
type RevisionTruth struct {
	// Revision is the revision mark printed in the title block.
	Revision  string    `json:"revision"`
	Transform Transform `json:"transform"`
	// WidthPx and HeightPx are the revision page's size when it differs
	// from the original's (turned a quarter: portrait).
	WidthPx   int             `json:"width_px,omitempty"`
	HeightPx  int             `json:"height_px,omitempty"`
	Blocks    []BlockTruth    `json:"blocks"`
	Instances []InstanceTruth `json:"instances"`
	Changes   []ChangeTruth   `json:"changes"`
}

// Transform maps base-page pixels to revision-page pixels:
// x' = Scale·(cos θ·x − sin θ·y) + TX, y' = Scale·(sin θ·x + cos θ·y) + TY
// with θ = RotationDeg (clockwise as seen, y down; 0 unless
// Options.RevisionMotion is "large" or "turn"). DXMM and DYMM are the shift
// of the page centre in millimetres.
type Transform struct {
	Scale       float64 `json:"scale"`
	RotationDeg float64 `json:"rotation_deg,omitempty"`
	TX          float64 `json:"tx"`
	TY          float64 `json:"ty"`
	DXMM        float64 `json:"dx_mm"`
	DYMM        float64 `json:"dy_mm"`
}

// Point maps a base-page point to the revision page.
func (t Transform) Point(x, y float64) (float64, float64) {
	sn, cs := math.Sincos(t.RotationDeg * math.Pi / 180)
	return t.Scale*(cs*x-sn*y) + t.TX, t.Scale*(sn*x+cs*y) + t.TY
}

// Apply maps a base-page box to the revision page (the box around its
// turned corners).
func (t Transform) Apply(b geom.Box) geom.Box {
	if t.RotationDeg == 0 {
		return geom.Box{XMin: t.Scale*b.XMin + t.TX, YMin: t.Scale*b.YMin + t.TY, XMax: t.Scale*b.XMax + t.TX, YMax: t.Scale*b.YMax + t.TY}
	}
	out := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	for _, c := range [4][2]float64{{b.XMin, b.YMin}, {b.XMax, b.YMin}, {b.XMin, b.YMax}, {b.XMax, b.YMax}} {
		x, y := t.Point(c[0], c[1])
		out = geom.Box{XMin: min(out.XMin, x), YMin: min(out.YMin, y), XMax: max(out.XMax, x), YMax: max(out.YMax, y)}
	}
	return out
}

// ChangeTruth is one known edit. Kind is symbol_added, symbol_removed,
// symbol_moved, wall_moved, dimension_changed (the dimension strings that
// follow a moved wall), room_renamed, revision_cloud or title_block (the
// revision mark; tools usually ignore title-block churn).
// Box covers every pixel the edit touched on the revision page; a move
// also gives the Before and After boxes.
type ChangeTruth struct {
	Kind        string    `json:"kind"`
	Description string    `json:"description"`
	Block       int       `json:"block"`
	Box         geom.Box  `json:"box"`
	Before      *geom.Box `json:"before,omitempty"`
	After       *geom.Box `json:"after,omitempty"`
	// InstanceID is the instance added, removed or moved.
	InstanceID int `json:"instance_id,omitempty"`
}
