package layout

import "testing"

// A box's side drawn against a long rule (a legend's frame
// beside a title strip's dividing line) is two rules, not one band too
// thick to be a rule; a thick fill stays no rule.
func TestRulesBesideRule(t *testing.T) {
	m := &mask{w: 200, h: 400, ink: make([]bool, 200*400)}
	vline := func(x, y0, y1 int) {
		for y := y0; y < y1; y++ {
			m.ink[y*m.w+x] = true
		}
	}
	vline(100, 10, 390) // the strip's rule, two columns wide
	vline(101, 10, 390)
	vline(98, 50, 120) // a box's side against it, two columns wide
	vline(99, 50, 120)
	for x := 20; x < 40; x++ { // a solid fill
		vline(x, 200, 300)
	}
	r := m.findRules(20, 3)
	var long, short, fill bool
	for _, s := range r.v {
		switch {
		case s.pos >= 99 && s.pos <= 101 && s.a == 10 && s.b == 390:
			long = true
		case s.pos >= 98 && s.pos <= 99 && s.a == 50 && s.b == 120:
			short = true
		case s.pos >= 20 && s.pos < 40:
			fill = true
		}
	}
	if !long || !short || fill {
		t.Fatalf("rules %v: long rule %v, short rule beside it %v, fill taken as a rule %v", r.v, long, short, fill)
	}
}
