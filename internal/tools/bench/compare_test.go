package bench

import (
	"math"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/compare"
)

// truthReport is the report a perfect compare would make of a synthetic
// revision pair: every block paired with its true transform (of the
// blocks' images, which start at the whole pixel at or before each block's
// corner), every edit reported where it is with the first accepted kind.
func truthReport(st synth.SheetTruth) CompareRan {
	rt := st.Revision
	pair := compare.ReportSheetPair{Old: compare.ReportSheet{Page: 1}, New: compare.ReportSheet{Page: 1}}
	for i, ob := range st.Blocks {
		nb := rt.Blocks[i].Box
		tx, ty := rt.Transform.Point(math.Floor(ob.Box.XMin), math.Floor(ob.Box.YMin))
		ov := compare.ReportOverlay{
			Old: compare.ReportBlock{Bounds: ob.Box}, New: compare.ReportBlock{Bounds: nb}, Registered: true,
			Transform: compare.Transform{Scale: rt.Transform.Scale, RotationDeg: rt.Transform.RotationDeg,
				Tx: tx - math.Floor(nb.XMin), Ty: ty - math.Floor(nb.YMin)},
		}
		for _, c := range rt.Changes {
			if c.Block == i {
				ov.Changes = append(ov.Changes, compare.ReportChange{Change: compare.Change{
					Kind: changeKinds[c.Kind][0], Bounds: c.Box.Translate(-nb.XMin, -nb.YMin)}})
			}
		}
		pair.Overlays = append(pair.Overlays, ov)
	}
	return CompareRan{Report: compare.Report{Pairs: []compare.ReportSheetPair{pair}}, DPI: 300}
}

// TestScoreCompare scores a perfect report of real generator output, then
// the same report with one change of the wrong kind, one invented change
// and a transform 3 px off.
func TestScoreCompare(t *testing.T) {
	for _, motion := range []string{"small", "large", "turn"} {
		set, err := synth.Generate(synth.Options{Seed: 2, Sheets: 1, Revision: true, RevisionMotion: motion})
		if err != nil {
			t.Fatal(err)
		}
		st := set.Truth.Sheets[0]
		ran := truthReport(st)
		r := scoreCompare("perfect", st, 300, ran)
		if r.TruthTotal < 5 || r.TruthFound != r.TruthTotal || r.ReportedRight != r.Reported || maxOf(r.AlignErrPx) > 1e-6 {
			t.Fatalf("%s: perfect report scored %d/%d found, %d/%d right, align err %.3g (misses %v, extras %v)",
				motion, r.TruthFound, r.TruthTotal, r.ReportedRight, r.Reported, maxOf(r.AlignErrPx), r.Misses, r.Extras)
		}
		ovs := ran.Report.Pairs[0].Overlays
		var edited *compare.ReportOverlay
		ci := -1
		for i := range ovs {
			for j, c := range ovs[i].Changes {
				if ci < 0 && c.Kind == compare.KindAdded {
					edited, ci = &ovs[i], j
				}
			}
		}
		if edited == nil {
			t.Fatalf("%s: no added edit", motion)
		}
		edited.Changes[ci].Kind = compare.KindRemoved
		edited.Changes = append(edited.Changes, compare.ReportChange{Change: compare.Change{Kind: compare.KindAdded,
			Bounds: edited.Changes[ci].Bounds.Translate(5000, 5000)}})
		edited.Transform.Tx += 3
		r = scoreCompare("spoilt", st, 300, ran)
		if r.TruthFound != r.TruthTotal-1 || r.ReportedRight != r.Reported-1 || len(r.Extras) != 1 {
			t.Errorf("%s: spoilt report scored %d/%d found, %d/%d right", motion, r.TruthFound, r.TruthTotal, r.ReportedRight, r.Reported)
		}
		if e := maxOf(r.AlignErrPx); e < 2.99 || e > 3.01 {
			t.Errorf("%s: a transform 3 px off measures %.3f px", motion, e)
		}
	}
}
