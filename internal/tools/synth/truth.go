package synth

import (
	"fmt"
	"math"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

// px converts page points (after xf) to truth pixels.
func (g *gen) px(xf xform) (func(rect) geom.Box, func(pt) Point) {
	k := g.o.DPI / 72
	box := func(r rect) geom.Box {
		r = xf.rect(r)
		return geom.Box{XMin: round(r.X0*k, 2), YMin: round(r.Y0*k, 2), XMax: round(r.X1*k, 2), YMax: round(r.Y1*k, 2)}
	}
	point := func(p pt) Point {
		p = xf.apply(p)
		return Point{round(p.X*k, 2), round(p.Y*k, 2)}
	}
	return box, point
}

func (g *gen) sheetTruth(sh *sheet) SheetTruth {
	blocks, insts := g.truthOf(sh, identity)
	st := SheetTruth{
		Page:               sh.Index + 1,
		SheetNumber:        sh.Number,
		Title:              sh.Title,
		Discipline:         sheetmeta.Discipline(sh.Number),
		TitleBlockPosition: g.tb.pos,
		LegendSymbolPx:     round(sh.size*g.o.DPI/72, 2),
		Blocks:             blocks,
		Instances:          insts,
	}
	if mx := sh.mx; mx != nil {
		st.Discipline, st.TitleBlockPosition = mx.discipline, mx.tbPos
		st.Kind, st.TitleBlockStyle, st.NumberStyle = mx.kind, mx.tbStyle, mx.numStyle
		st.TitleLines, st.Language, st.OutlinedText = mx.titleLines, mx.lang, mx.outlined
	}
	return st
}

func (g *gen) truthOf(sh *sheet, xf xform) ([]BlockTruth, []InstanceTruth) {
	box, point := g.px(xf)
	blocks := []BlockTruth{}
	insts := []InstanceTruth{}
	for bi, b := range sh.blocks {
		bt := BlockTruth{Type: b.Type, Title: b.Title, Scale: b.Scale, Box: box(b.box)}
		for _, e := range b.entries {
			et := LegendEntryTruth{
				Label: e.Label, Description: e.Desc, HasGraphic: e.Sym != nil,
				LabelBox: box(e.LabelT.box()), DescriptionBox: box(e.DescT.box()), Box: box(e.Row),
			}
			if e.Sym != nil {
				gb := box(e.Graphic)
				et.Symbol, et.GraphicBox = e.Sym.Key, &gb
			}
			et.Kind = e.Kind
			if e.Color != 0 {
				et.Color = fmt.Sprintf("#%06x", e.Color&0xffffff)
			}
			bt.Entries = append(bt.Entries, et)
		}
		for _, f := range b.fields {
			ft := FieldTruth{Key: f.Key, Label: f.Label, Value: f.Value,
				LabelBox: box(f.LabelT.box()), ValueBox: box(f.ValueT.box())}
			if f.Label == "" {
				ft.LabelBox = geom.Box{}
			}
			if !f.ValueR.empty() {
				ft.ValueBox = box(f.ValueR)
			}
			bt.Fields = append(bt.Fields, ft)
		}
		g.mixedBlockTruth(&bt, b, box)
		if p := b.plan; p != nil {
			for _, rm := range p.Rooms {
				bt.Rooms = append(bt.Rooms, RoomTruth{Name: rm.Name, Number: rm.Number, Box: box(rm.R), LabelBox: box(rm.labelBox())})
			}
			for _, in := range p.Insts {
				ent := sh.entries[in.Entry]
				it := InstanceTruth{
					ID: in.ID, Label: ent.Label, Symbol: ent.Sym.Key, Block: bi,
					LegendBlock: ent.Block, LegendEntry: ent.Entry,
					Box: box(in.Box), Center: point(in.C), Angle: in.Angle, Scale: in.Scale, Crossed: in.Cross,
				}
				if in.Suffix != nil {
					it.Suffix = &TextTruth{Text: in.Suffix.S, Box: box(in.Suffix.box())}
				}
				for _, t := range in.Texts {
					it.Texts = append(it.Texts, TextTruth{Text: t.S, Box: box(t.box())})
				}
				if xf.rot != 0 || g.o.RevisionMotion == "large" {
					// the page's motion turns and scales the instance too
					// (a small motion's is left out of the classic truth)
					it.Angle = math.Mod(math.Mod(it.Angle-xf.rot, 360)+360, 360)
					it.Scale = round(it.Scale*xf.s, 4)
				}
				insts = append(insts, it)
			}
		}
		blocks = append(blocks, bt)
	}
	return blocks, insts
}
