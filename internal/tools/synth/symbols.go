package synth

import (
	"math"

	"github.com/go-pdf/fpdf"
)

type primKind uint8

const (
	pLine primKind = iota
	pPoly
	pCircle
	pArc
	pText
)

// prim is one part of a symbol in its own frame: the body fits in
// [-1, 1]², y grows downwards, angles are counter-clockwise.
type prim struct {
	k      primKind
	pts    []pt
	fill   bool
	c      pt
	r      float64
	a0, a1 float64
	s      string
	size   float64 // text: cap-height-centred, size in symbol units
	w      float64 // text: advance width at size 1
}

// symbol is a legend graphic from the library.
type symbol struct {
	Key    string
	Labels []string // label candidates, first free one wins
	Desc   string
	Tags   []string // disciplines whose legends use it
	prims  []prim
	// upright symbols (callouts, mixed) are placed unturned: their letters
	// read upright
	upright bool
}

func ln(x1, y1, x2, y2 float64) prim { return prim{k: pLine, pts: []pt{{x1, y1}, {x2, y2}}} }

func circ(x, y, r float64, fill bool) prim { return prim{k: pCircle, c: pt{x, y}, r: r, fill: fill} }

func arcP(x, y, r, a0, a1 float64) prim { return prim{k: pArc, c: pt{x, y}, r: r, a0: a0, a1: a1} }

func poly(fill bool, xy ...float64) prim {
	p := prim{k: pPoly, fill: fill}
	for i := 0; i+1 < len(xy); i += 2 {
		p.pts = append(p.pts, pt{xy[i], xy[i+1]})
	}
	return p
}

func box(x0, y0, x1, y1 float64, fill bool) prim { return poly(fill, x0, y0, x1, y0, x1, y1, x0, y1) }

// sector is a filled pie slice, as a polygon.
func sector(x, y, r, a0, a1 float64) prim {
	p := prim{k: pPoly, fill: true, pts: []pt{{x, y}}}
	n := int(math.Ceil((a1 - a0) / 10))
	for i := 0; i <= n; i++ {
		p.pts = append(p.pts, arcPoint(pt{x, y}, r, a0+(a1-a0)*float64(i)/float64(n)))
	}
	return p
}

func txt(s string, x, y, size float64) prim { return prim{k: pText, c: pt{x, y}, s: s, size: size} }

// bowtie is the body of a valve: two triangles meeting at the centre.
func bowtie(fillL, fillR bool) []prim {
	return []prim{poly(fillL, -1, -.5, 0, 0, -1, .5), poly(fillR, 1, -.5, 0, 0, 1, .5)}
}

func cat(ps ...any) []prim {
	var out []prim
	for _, p := range ps {
		switch v := p.(type) {
		case prim:
			out = append(out, v)
		case []prim:
			out = append(out, v...)
		}
	}
	return out
}

// library returns the symbol set; text widths are measured once here.
func library(m *measurer) []*symbol {
	d := .9 * math.Sqrt2 / 2 // circle-with-cross arm
	lib := []*symbol{
		{Key: "duplex_receptacle", Labels: []string{"DR", "R", "DX"}, Desc: "DUPLEX RECEPTACLE, 20A 125V", Tags: []string{"E"},
			prims: cat(circ(0, 0, .6, false), ln(-1, -.22, 1, -.22), ln(-1, .22, 1, .22))},
		{Key: "gfci_receptacle", Labels: []string{"GFI", "GF", "G"}, Desc: "GFCI DUPLEX RECEPTACLE", Tags: []string{"E"},
			prims: cat(circ(0, 0, .6, false), ln(-1, -.22, 1, -.22), ln(-1, .22, 1, .22), circ(.82, .62, .18, true))},
		{Key: "quad_receptacle", Labels: []string{"QR", "Q", "QD"}, Desc: "QUADRUPLEX RECEPTACLE", Tags: []string{"E"},
			prims: cat(circ(0, 0, .6, false), ln(-1, -.22, 1, -.22), ln(-1, .22, 1, .22), ln(-.22, -1, -.22, 1), ln(.22, -1, .22, 1))},
		{Key: "wp_receptacle", Labels: []string{"WP", "WR"}, Desc: "WEATHERPROOF RECEPTACLE", Tags: []string{"E"},
			prims: cat(sector(0, 0, .6, 0, 180), circ(0, 0, .6, false), ln(-1, .22, 1, .22), ln(-1, .5, .6, .5))},
		{Key: "floor_box", Labels: []string{"FB", "FX"}, Desc: "FLUSH FLOOR BOX, POWER/DATA", Tags: []string{"E", "T"},
			prims: cat(box(-1, -1, 1, 1, false), circ(0, 0, .55, false), ln(-.55, -.2, .55, -.2), ln(-.55, .2, .55, .2))},
		{Key: "switch_single", Labels: []string{"S1", "S", "SW"}, Desc: "SINGLE POLE SWITCH", Tags: []string{"E"},
			prims: cat(circ(0, 0, .9, false), txt("S", 0, 0, 1.1))},
		{Key: "switch_3way", Labels: []string{"S3", "3W"}, Desc: "THREE-WAY SWITCH", Tags: []string{"E"},
			prims: cat(box(-1, -.75, 1, .75, false), txt("S3", 0, 0, .9))},
		{Key: "ceiling_light", Labels: []string{"L1", "A", "CL"}, Desc: "SURFACE MOUNTED LIGHT FIXTURE", Tags: []string{"E", "A"},
			prims: cat(circ(0, 0, .9, false), ln(-d, -d, d, d), ln(-d, d, d, -d))},
		{Key: "downlight", Labels: []string{"L2", "B", "DL"}, Desc: "RECESSED LED DOWNLIGHT", Tags: []string{"E", "A"},
			prims: cat(box(-1, -1, 1, 1, false), circ(0, 0, .6, false))},
		{Key: "troffer", Labels: []string{"L3", "C", "TR"}, Desc: "2X4 LED TROFFER", Tags: []string{"E", "A"},
			prims: cat(box(-1, -.5, 1, .5, false), ln(-1, -.5, 1, .5), ln(-1, .5, 1, -.5))},
		{Key: "strip_light", Labels: []string{"L4", "D", "ST"}, Desc: "LED STRIP LIGHT", Tags: []string{"E", "A"},
			prims: cat(box(-1, -.25, 1, .25, false), ln(-.85, 0, .85, 0), circ(-1, 0, .12, true), circ(1, 0, .12, true))},
		{Key: "wall_sconce", Labels: []string{"L5", "WL", "E"}, Desc: "WALL MOUNTED SCONCE", Tags: []string{"E", "A"},
			prims: cat(ln(-1, .4, 1, .4), sector(0, .4, .75, 0, 180))},
		{Key: "exit_sign", Labels: []string{"X", "EX", "EXIT"}, Desc: "LED EXIT SIGN, CEILING MOUNTED", Tags: []string{"E", "A", "FA"},
			prims: cat(sector(0, 0, .9, 45, 135), sector(0, 0, .9, 225, 315), circ(0, 0, .9, false))},
		{Key: "emergency_light", Labels: []string{"EM", "EB"}, Desc: "EMERGENCY BATTERY UNIT", Tags: []string{"E", "A"},
			prims: cat(box(-1, 0, 1, .6, false), circ(-.55, -.45, .35, false), circ(.55, -.45, .35, false), ln(-.55, -.1, -.55, 0), ln(.55, -.1, .55, 0))},
		{Key: "junction_box", Labels: []string{"J", "JB"}, Desc: "JUNCTION BOX", Tags: []string{"E"},
			prims: cat(circ(0, 0, .8, false), txt("J", 0, 0, 1.0))},
		{Key: "panelboard", Labels: []string{"LP", "P", "PNL"}, Desc: "PANELBOARD, SURFACE MOUNTED", Tags: []string{"E"},
			prims: cat(box(-1, -.45, 1, .45, false), poly(true, -1, .45, 1, -.45, 1, .45))},
		{Key: "disconnect", Labels: []string{"DS", "DC"}, Desc: "DISCONNECT SWITCH, FUSED", Tags: []string{"E", "M"},
			prims: cat(box(-1, -.6, 1, .6, false), ln(-1, .6, 1, -.6), circ(0, 0, .16, true))},
		{Key: "motor", Labels: []string{"MTR", "M"}, Desc: "MOTOR CONNECTION", Tags: []string{"E", "M"},
			prims: cat(circ(0, 0, .8, false), txt("M", 0, 0, .95))},
		{Key: "occupancy_sensor", Labels: []string{"OS", "OC"}, Desc: "CEILING OCCUPANCY SENSOR", Tags: []string{"E"},
			prims: cat(circ(0, 0, .85, false), txt("OS", 0, 0, .7), arcP(0, 0, 1, 30, 150))},
		{Key: "data_outlet", Labels: []string{"D", "DT", "DATA"}, Desc: "DATA OUTLET, (2) CAT6", Tags: []string{"T", "E"},
			prims: cat(poly(false, 0, -.9, .95, .75, -.95, .75))},
		{Key: "phone_outlet", Labels: []string{"T", "TEL", "V"}, Desc: "TELEPHONE OUTLET", Tags: []string{"T", "E"},
			prims: cat(poly(true, 0, -.9, .95, .75, -.95, .75))},
		{Key: "voice_data", Labels: []string{"VD", "TD"}, Desc: "VOICE/DATA OUTLET", Tags: []string{"T"},
			prims: cat(poly(true, 0, -.9, 0, .75, -.95, .75), poly(false, 0, -.9, .95, .75, -.95, .75))},
		{Key: "wireless_ap", Labels: []string{"WAP", "AP"}, Desc: "WIRELESS ACCESS POINT", Tags: []string{"T", "E"},
			prims: cat(box(-1, -1, 1, 1, false), circ(0, .45, .14, true), arcP(0, .45, .45, 45, 135), arcP(0, .45, .8, 45, 135))},
		{Key: "camera", Labels: []string{"CAM", "CC"}, Desc: "SECURITY CAMERA", Tags: []string{"T"},
			prims: cat(box(-.9, -.4, .4, .4, false), poly(false, .4, -.2, 1, -.5, 1, .5, .4, .2), ln(-.5, .4, -.5, .85), ln(-.8, .85, -.2, .85))},
		{Key: "smoke_detector", Labels: []string{"SD", "SM", "S"}, Desc: "SMOKE DETECTOR", Tags: []string{"FA", "FP", "E", "A"},
			prims: cat(circ(0, 0, .9, false), circ(0, 0, .35, false), ln(.45, 0, .78, 0), ln(-.45, 0, -.78, 0), ln(0, .45, 0, .78), ln(0, -.45, 0, -.78))},
		{Key: "heat_detector", Labels: []string{"HD", "H"}, Desc: "HEAT DETECTOR, RATE OF RISE", Tags: []string{"FA", "FP", "E"},
			prims: cat(circ(0, 0, .9, false), poly(false, 0, -.6, .52, .3, -.52, .3))},
		{Key: "pull_station", Labels: []string{"PS", "F", "MPS"}, Desc: "MANUAL PULL STATION", Tags: []string{"FA", "FP", "E"},
			prims: cat(box(-.8, -.8, .8, .8, false), txt("F", 0, 0, 1.1))},
		{Key: "horn_strobe", Labels: []string{"HS", "H/S"}, Desc: "HORN/STROBE, WALL MOUNTED", Tags: []string{"FA", "FP", "E"},
			prims: cat(box(-1, -.8, 1, .8, false), poly(true, -.7, -.3, -.25, -.3, .25, -.6, .25, .6, -.25, .3, -.7, .3),
				ln(.45, -.35, .8, -.6), ln(.45, 0, .85, 0), ln(.45, .35, .8, .6))},
		{Key: "sprinkler_pendent", Labels: []string{"SP", "P1", "PS1"}, Desc: "PENDENT SPRINKLER HEAD", Tags: []string{"FP", "A"},
			prims: cat(circ(0, 0, .55, false), circ(0, 0, .15, true), ln(.55, 0, 1, 0), ln(-.55, 0, -1, 0), ln(0, .55, 0, 1), ln(0, -.55, 0, -1))},
		{Key: "sprinkler_upright", Labels: []string{"SU", "U1"}, Desc: "UPRIGHT SPRINKLER HEAD", Tags: []string{"FP"},
			prims: cat(sector(0, 0, .6, 0, 180), circ(0, 0, .6, false), ln(-1, 0, 1, 0))},
		{Key: "sprinkler_sidewall", Labels: []string{"SW", "SSW"}, Desc: "SIDEWALL SPRINKLER HEAD", Tags: []string{"FP"},
			prims: cat(arcP(0, .3, .8, 0, 180), ln(-.8, .3, .8, .3), circ(0, -.05, .15, true))},
		{Key: "fire_extinguisher", Labels: []string{"FE", "FEC"}, Desc: "FIRE EXTINGUISHER CABINET", Tags: []string{"FP", "A"},
			prims: cat(box(-1, -.5, 1, .5, false), poly(true, -.55, .3, 0, -.35, .55, .3))},
		{Key: "gate_valve", Labels: []string{"GV", "V1"}, Desc: "GATE VALVE", Tags: []string{"P", "FP", "M"},
			prims: cat(bowtie(false, false), ln(0, 0, 0, -.9), ln(-.35, -.9, .35, -.9))},
		{Key: "ball_valve", Labels: []string{"BV", "V2"}, Desc: "BALL VALVE", Tags: []string{"P", "M"},
			prims: cat(bowtie(false, false), circ(0, 0, .25, true))},
		{Key: "check_valve", Labels: []string{"CV", "V3"}, Desc: "CHECK VALVE", Tags: []string{"P", "FP", "M"},
			prims: cat(bowtie(false, true), ln(-1, .75, 1, .75))},
		{Key: "floor_drain", Labels: []string{"FD", "DR1"}, Desc: "FLOOR DRAIN", Tags: []string{"P", "A"},
			prims: cat(box(-1, -1, 1, 1, false), circ(0, 0, .7, false), ln(-.7, 0, .7, 0), ln(0, -.7, 0, .7))},
		{Key: "cleanout", Labels: []string{"CO", "FCO"}, Desc: "FLOOR CLEANOUT", Tags: []string{"P"},
			prims: cat(sector(0, 0, .8, 90, 270), circ(0, 0, .8, false))},
		{Key: "hose_bibb", Labels: []string{"HB", "WH"}, Desc: "HOSE BIBB", Tags: []string{"P", "A"},
			prims: cat(ln(-1, 0, .2, 0), circ(.55, 0, .35, false), ln(.55, -.35, .55, -.8), ln(.3, -.8, .8, -.8))},
		{Key: "supply_diffuser", Labels: []string{"CD", "SA", "S-1"}, Desc: "CEILING SUPPLY DIFFUSER", Tags: []string{"M", "A"},
			prims: cat(box(-1, -1, 1, 1, false), box(-.5, -.5, .5, .5, false), ln(-1, -1, -.5, -.5), ln(1, -1, .5, -.5), ln(1, 1, .5, .5), ln(-1, 1, -.5, .5))},
		{Key: "return_grille", Labels: []string{"RG", "RA", "R-1"}, Desc: "RETURN AIR GRILLE", Tags: []string{"M", "A"},
			prims: cat(box(-1, -1, 1, 1, false), ln(-1, 1, 1, -1))},
		{Key: "exhaust_grille", Labels: []string{"EG", "EA", "E-1"}, Desc: "EXHAUST AIR GRILLE", Tags: []string{"M"},
			prims: cat(box(-1, -1, 1, 1, false), ln(-1, 1, 1, -1), ln(-1, -1, 1, 1), ln(-1, 0, -.5, 0))},
		{Key: "exhaust_fan", Labels: []string{"EF", "EF-1"}, Desc: "CEILING EXHAUST FAN", Tags: []string{"M", "E"},
			prims: cat(box(-1, -1, 1, 1, false), circ(0, 0, .7, false), poly(true, 0, 0, .6, -.28, .6, .08), poly(true, 0, 0, -.6, .28, -.6, -.08))},
		{Key: "thermostat", Labels: []string{"T", "TS", "TSTAT"}, Desc: "THERMOSTAT", Tags: []string{"M"},
			prims: cat(circ(0, 0, .8, false), txt("T", 0, 0, 1.0))},
		{Key: "damper", Labels: []string{"MD", "VD"}, Desc: "MOTORIZED DAMPER", Tags: []string{"M"},
			prims: cat(box(-1, -.4, 1, .4, false), ln(-.6, .4, .6, -.4), circ(0, 0, .12, true))},
		{Key: "wide_flange_column", Labels: []string{"C1", "W"}, Desc: "STEEL WIDE FLANGE COLUMN", Tags: []string{"S"},
			prims: cat(poly(true, -.8, -.8, .8, -.8, .8, -.6, .1, -.6, .1, .6, .8, .6, .8, .8, -.8, .8, -.8, .6, -.1, .6, -.1, -.6, -.8, -.6))},
		{Key: "hss_column", Labels: []string{"C2", "HSS"}, Desc: "HSS STEEL COLUMN", Tags: []string{"S"},
			prims: cat(box(-.8, -.8, .8, .8, false), box(-.6, -.6, .6, .6, false))},
		{Key: "concrete_column", Labels: []string{"C3", "CC1"}, Desc: "CONCRETE COLUMN", Tags: []string{"S"},
			prims: cat(box(-.9, -.9, .9, .9, false), ln(-.9, -.9, .9, .9), ln(-.9, .9, .9, -.9), circ(0, 0, .25, false))},
		{Key: "pile", Labels: []string{"PL", "PC"}, Desc: "AUGERCAST PILE", Tags: []string{"S"},
			prims: cat(circ(0, 0, .7, false), ln(-1, 0, 1, 0), ln(0, -1, 0, 1))},
		{Key: "anchor_bolts", Labels: []string{"AB", "AB4"}, Desc: "ANCHOR BOLT GROUP", Tags: []string{"S"},
			prims: cat(box(-1, -1, 1, 1, false), circ(-.55, -.55, .18, true), circ(.55, -.55, .18, true), circ(-.55, .55, .18, true), circ(.55, .55, .18, true))},
		{Key: "moment_connection", Labels: []string{"MC", "MF"}, Desc: "MOMENT CONNECTION", Tags: []string{"S"},
			prims: cat(poly(true, -1, .6, 0, -.7, 1, .6), ln(-1, .85, 1, .85))},
		{Key: "roof_drain", Labels: []string{"RD", "OD"}, Desc: "ROOF DRAIN", Tags: []string{"P", "S"},
			prims: cat(circ(0, 0, .85, false), circ(0, 0, .45, false), sector(0, 0, .45, 0, 90), sector(0, 0, .45, 180, 270))},
	}
	for _, s := range lib {
		for i := range s.prims {
			if p := &s.prims[i]; p.k == pText {
				p.w = m.width(p.s, 1, true)
			}
		}
	}
	return lib
}

// toPage maps a symbol-frame point to the page.
func toPage(p pt, c pt, half, angle float64) pt {
	q := rot(pt{p.X * half, p.Y * half}, angle)
	return pt{c.X + q.X, c.Y + q.Y}
}

// hasText reports whether the symbol holds letters.
func (s *symbol) hasText() bool {
	for _, p := range s.prims {
		if p.k == pText {
			return true
		}
	}
	return false
}

// box is the axis-aligned box of the symbol drawn at c with half-size half,
// turned by angle, strokes of width lw included.
func (s *symbol) box(c pt, half, angle, lw float64) rect { return s.boxM(c, half, angle, lw, false) }

// boxM is box for the symbol mirrored (left for right) before it is turned.
func (s *symbol) boxM(c pt, half, angle, lw float64, mirror bool) rect {
	b := emptyRect()
	add := func(p pt) {
		if mirror {
			p.X = -p.X
		}
		b = b.addPt(toPage(p, c, half, angle))
	}
	for _, p := range s.prims {
		switch p.k {
		case pLine, pPoly:
			for _, q := range p.pts {
				add(q)
			}
		case pCircle:
			pc := p.c
			if mirror {
				pc.X = -pc.X
			}
			q := toPage(pc, c, half, angle)
			r := p.r * half
			b = b.union(rect{q.X - r, q.Y - r, q.X + r, q.Y + r})
		case pArc:
			for a := p.a0; a < p.a1; a += 1 {
				add(arcPoint(p.c, p.r, a))
			}
			add(arcPoint(p.c, p.r, p.a1))
		case pText:
			w, h := p.w*p.size, capHeight*p.size
			for _, q := range []pt{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
				add(pt{p.c.X + q.X, p.c.Y + q.Y})
			}
		}
	}
	return b.pad(lw / 2)
}

// render draws the symbol. The rotation is a PDF transform so that letters
// inside symbols stay real, rotated text. With vary ≠ 0 it is drafted as
// another CAD program might export it (Options.Vary): vary seeds which
// lines are broken, which circles and arcs are polygons and which polygons
// are separate lines.
func (s *symbol) render(f *fpdf.Fpdf, c pt, half, angle float64, vary uint64, mirror bool) {
	s.renderO(f, c, half, angle, vary, mirror, false)
}

// renderO is render with the letters drawn as stroke-font outlines when
// outlined is set.
func (s *symbol) renderO(f *fpdf.Fpdf, c pt, half, angle float64, vary uint64, mirror, outlined bool) {
	// fpdf tracks the font outside the q/Q pair; select it before the pair.
	for _, p := range s.prims {
		if p.k == pText && !outlined {
			f.SetFont("Helvetica", "B", p.size*half)
		}
	}
	if angle != 0 || mirror {
		f.TransformBegin()
	}
	if angle != 0 {
		f.TransformRotate(angle, c.X, c.Y)
	}
	if mirror {
		f.TransformMirrorHorizontal(c.X)
	}
	var r *rng
	if vary != 0 {
		r = &rng{s: vary}
	}
	pick := func() bool { return r != nil && r.chance(0.5) }
	at := func(p pt) pt { return pt{c.X + p.X*half, c.Y + p.Y*half} }
	line := func(a, b pt) {
		if pick() { // broken in two, end to end
			t := r.rangef(0.3, 0.7)
			m := pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
			f.Line(a.X, a.Y, m.X, m.Y)
			f.Line(m.X, m.Y, b.X, b.Y)
			return
		}
		f.Line(a.X, a.Y, b.X, b.Y)
	}
	// ring is a circle or an arc as a polygon of short lines
	ring := func(q pt, rad, a0, a1 float64) []pt {
		n := int(math.Ceil((a1 - a0) / 360 * float64(24+r.intn(25))))
		n = max(n, 3)
		off := 0.0
		if a1-a0 >= 360 {
			off = r.rangef(0, 360)
		}
		var pts []pt
		for i := 0; i <= n; i++ {
			pts = append(pts, arcPoint(q, rad, off+a0+(a1-a0)*float64(i)/float64(n)))
		}
		return pts
	}
	for _, p := range s.prims {
		switch p.k {
		case pLine:
			line(at(p.pts[0]), at(p.pts[1]))
		case pPoly:
			q := make([]pt, len(p.pts))
			for i, v := range p.pts {
				q[i] = at(v)
			}
			if pick() { // the fill, then each side as a line of its own
				if p.fill {
					f.Polygon(fpts(q), "F")
				}
				for i := range q {
					line(q[i], q[(i+1)%len(q)])
				}
				continue
			}
			style := "D"
			if p.fill {
				style = "FD"
			}
			f.Polygon(fpts(q), style)
		case pCircle:
			q := at(p.c)
			style := "D"
			if p.fill {
				style = "FD"
			}
			if pick() {
				pts := ring(q, p.r*half, 0, 360)
				f.Polygon(fpts(pts[:len(pts)-1]), style)
				continue
			}
			f.Circle(q.X, q.Y, p.r*half, style)
		case pArc:
			q := at(p.c)
			if pick() {
				pts := ring(q, p.r*half, p.a0, p.a1)
				f.MoveTo(pts[0].X, pts[0].Y)
				for _, v := range pts[1:] {
					f.LineTo(v.X, v.Y)
				}
				f.DrawPath("D")
				continue
			}
			f.Arc(q.X, q.Y, p.r*half, p.r*half, 0, p.a0, p.a1, "D")
		case pText:
			q := at(p.c)
			size := p.size * half
			if outlined {
				strokeText(f, textItem{S: p.s, X: q.X - p.w*size/2, Y: q.Y + capHeight*size/2, Size: size, Bold: true, W: p.w * size})
				continue
			}
			f.Text(q.X-p.w*size/2, q.Y+capHeight*size/2, p.s)
		}
	}
	if angle != 0 || mirror {
		f.TransformEnd()
	}
}
