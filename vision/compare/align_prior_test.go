package compare

import (
	"context"
	"strings"
	"testing"
)

// TestAlignPriorAgrees: a block that registers on its own keeps its own
// registration, exact: without a warning near the prior, with one far from
// it.
func TestAlignPriorAgrees(t *testing.T) {
	const w, h = 1600, 1100
	p := newPlan(3, w, h)
	want := Transform{Scale: 1.02, RotationDeg: 0.5, Tx: 30.4, Ty: -12.7}
	a, b := p.draw(Identity, w, h, 2), p.draw(want, w, h, 2)
	prior := want
	prior.Tx, prior.Ty, prior.ResidualPx = want.Tx+3, want.Ty-2, 1.5 // a sheet's registration: a few pixels off
	got, ok, warnings, err := Align(context.Background(), side(a, 300), side(b, 300), Options{Prior: &prior})
	if err != nil || !ok {
		t.Fatalf("not registered (%v): %v", err, warnings)
	}
	if e := cornerError(got, want, w, h); e > 0.5 {
		t.Errorf("got %+v, want %+v: %.3f px off", got, want, e)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q, want none", warnings)
	}
	// a prior far off (a view moved about the sheet): the block's own
	// registration still, and a warning
	prior.Tx += 60
	got, ok, warnings, err = Align(context.Background(), side(a, 300), side(b, 300), Options{Prior: &prior})
	if err != nil || !ok || cornerError(got, want, w, h) > 0.5 {
		t.Errorf("with a prior 60 px off: got %+v ok %v err %v, want %+v", got, ok, err, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "px away") {
		t.Errorf("warnings %q, want one saying the block registers away from the sheets' registration", warnings)
	}
}

// TestAlignPriorNotes: a block of text alone (the synthetic sheet's
// general notes, 300 DPI, its revision shifted and rescaled) registers
// from a prior a few pixels off to half a pixel, saying it used the prior
// when it did not register on its own.
func TestAlignPriorNotes(t *testing.T) {
	const dpi = 300
	ba, _, crop, want := synthBlockPair(t, 2, dpi, "GeneralNotes")
	a, b := side(crop(0), dpi), side(crop(1), dpi)
	_, alone, _, err := Align(context.Background(), a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	prior := want
	prior.Tx, prior.Ty, prior.ResidualPx = want.Tx-4, want.Ty+3, 2
	got, ok, warnings, err := Align(context.Background(), a, b, Options{Prior: &prior})
	if err != nil || !ok {
		t.Fatalf("not registered from the prior (%v): %v", err, warnings)
	}
	t.Logf("registered alone: %v; with the prior: %+v, warnings %q", alone, got, warnings)
	if e := cornerError(got, want, ba.Dx(), ba.Dy()); e > 0.5 {
		t.Errorf("got %+v, want %+v: %.3f px off", got, want, e)
	}
	if !alone && (len(warnings) == 0 || !strings.Contains(warnings[len(warnings)-1], "from the sheets' registration")) {
		t.Errorf("warnings %q, want one saying the prior was used", warnings)
	}
}

// TestAlignPriorAsIs: blocks that register neither on their own nor from
// the prior (a plan against a scribble) are aligned by the prior itself,
// with a warning, not by their ink boxes.
func TestAlignPriorAsIs(t *testing.T) {
	a := newPlan(5, 1400, 1000).draw(Identity, 1400, 1000, 2)
	b := scribble(6, 1300, 1100)
	prior := Transform{Scale: 1, Tx: -20, Ty: 35, ResidualPx: 1.2}
	got, ok, warnings, err := Align(context.Background(), side(a, 150), side(b, 150), Options{Prior: &prior})
	if err != nil {
		t.Fatal(err)
	}
	if !ok || got != prior {
		t.Errorf("got %+v (ok %v), want the prior %+v", got, ok, prior)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[len(warnings)-1], "used as it is") {
		t.Errorf("warnings %q, want one saying the prior was used as it is", warnings)
	}
}
