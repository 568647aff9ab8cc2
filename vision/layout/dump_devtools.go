//go:build devtools

package layout

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strings"
)

// Dump writes what Analyze found: the frame, the title block and its strip's
// cells, and the view titles (development aid).
func (p *Page) Dump(out io.Writer) {
	fmt.Fprintf(out, "mask %dx%d k=%.3f em=%.1f inner %v frame %v bordered %v\n", p.m.w, p.m.h, p.k, p.em, p.inner, p.frame, p.bordered)
	fmt.Fprintf(out, "title block %v (found %v, corner %v) others %v guess %v\n", p.tb, p.tbOK, p.tbCorner, p.tbOthers, p.tbGuess)
	for _, c := range p.tbCandidates() {
		top := c.r.y0
		if c.strip == "right" || c.strip == "left" {
			top = p.stripTop(c.r)
		}
		r := rect{c.r.x0, top, c.r.x1, c.r.y1}
		l, n := p.tbContent(r)
		fmt.Fprintf(out, "  candidate %s corner=%v %v top %d labels %d number %v running %d\n", c.strip, c.corner, c.r, top, l, n, p.runningLines(r))
	}
	if p.tbOK {
		s := p.tb
		if len(p.tbOthers) > 0 {
			s = s.union(p.tbOthers[0])
		}
		ys := []int{s.y0}
		for _, cl := range clusters(p.rules.h, 2) {
			if cl > s.y0+2 && cl < s.y1-2 && cover(p.rules.h, cl, 2, s.x0, s.x1) >= s.w()*90/100 {
				ys = append(ys, cl)
			}
		}
		ys = append(ys, s.y1)
		for i := 0; i+1 < len(ys); i++ {
			c := rect{s.x0, ys[i], s.x1, ys[i+1]}
			part, empty := p.titlePart(c)
			fmt.Fprintf(out, "  cell %v part=%v empty=%v words=%d\n", c, part, empty, len(wordsIn(c, p.mw)))
		}
	}
	for _, t := range p.viewTitles() {
		fmt.Fprintf(out, "view title %q kind=%s scale=%q bar %v below=%v\n", t.title, t.kind, t.scale, t.bar, t.below)
	}
}

// DumpSeparators writes the separators of the work area on both masks.
func (p *Page) DumpSeparators(out io.Writer) {
	work := p.inner
	if p.tbOK {
		work = p.tbRest
	}
	vs, hs := p.m.separators(work)
	dvs, dhs := p.dark.separators(work)
	fmt.Fprintf(out, "work %v separators all v%v h%v dark v%v h%v\n", work, vs, hs, dvs, dhs)
	best := 0
	for x := work.x0; x < work.x1; x++ {
		if r := p.dark.vRun(x, work.y0, work.y1); r > best {
			best = r
			if r > work.h()*8/10 {
				fmt.Fprintf(out, "  dark vrun x=%d %d of %d\n", x, r, work.h())
			}
		}
	}
}

func init() {
	traceCut = func(r rect, horiz bool, at int, cost float64, n int) {
		if Tracing {
			fmt.Printf("cut %v (%d titles) horiz=%v at %d cost %.3f\n", r, n, horiz, at, cost)
		}
	}
	traceTitle = func(t, kind string, ev ...bool) {
		if Tracing && strings.Contains(t, TraceTitle) && TraceTitle != "" {
			fmt.Printf("title? %q kind=%s scale/big/underline/bubble=%v\n", t, kind, ev)
		}
	}
	traceMask = func(step string, m *mask) {
		if !Tracing {
			return
		}
		img := image.NewGray(image.Rect(0, 0, m.w, m.h))
		for i, v := range m.ink {
			if v {
				img.Pix[i] = 0
			} else {
				img.Pix[i] = 255
			}
		}
		f, err := os.Create("/tmp/layout-" + step + ".png")
		if err == nil {
			png.Encode(f, img)
			f.Close()
		}
	}
	trace = func(step string, rs []region) {
		if !Tracing {
			return
		}
		fmt.Printf("after %s: %d regions\n", step, len(rs))
		for _, r := range rs {
			if r.r.area() > 400 {
				fmt.Printf("   %v framed=%v boxed=%v tb=%v\n", r.r, r.framed, r.boxed, r.tb)
			}
		}
	}
}

// Tracing prints the regions after each step of Blocks.
var Tracing bool

// TraceTitle, when Tracing, prints the evidence for lines containing it.
var TraceTitle string

// DumpFrames writes the frames of rules in the work area and why each is
// kept or not.
func (p *Page) DumpFrames(out io.Writer) {
	// as Blocks does: the frame's inside less its border lines and the
	// title block
	work := p.inner
	ag := p.allGraphics().keepOnly([]rect{{work.x0 + 1, work.y0 + 1, work.x1 - 1, work.y1 - 1}})
	if p.bordered {
		for _, b := range p.m.borderLines(work) {
			ag.clearRect(b)
		}
	}
	if p.tbOK {
		ag.clearRect(rect{p.tb.x0 - 1, p.tb.y0 - 1, p.tb.x1 + 1, p.tb.y1 + 1})
	}
	kept := map[rect]bool{}
	work = rect{p.frame.x0 - 1, p.frame.y0 - 1, p.frame.x1 + 1, p.frame.y1 + 1}
	fr, _ := p.standaloneFrames(work, ag)
	for _, f := range fr {
		kept[f] = true
	}
	g := ag
	lab, boxes := g.components()
	for _, f := range p.rules.frames(work, 2) {
		if float64(f.w()) < 4*p.em || float64(f.h()) < 2.5*p.em {
			continue
		}
		comp := rect{}
		for x := f.x0; x <= f.x1; x++ {
			if l := lab[f.y0*g.w+x]; l >= 0 {
				comp = boxes[l]
				break
			}
		}
		fmt.Fprintf(out, "frame %v kept=%v crossings=%d component %v\n", f, kept[f], crossings(ag, f), comp)
	}
}
