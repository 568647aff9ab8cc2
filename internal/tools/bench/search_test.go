package bench

import (
	"slices"
	"testing"

	"github.com/plangraph/plangraph/internal/service/search"
)

func TestInvented(t *testing.T) {
	three, two := 3, 2
	a := &search.Answer{Answer: "5 exhaust fan on sheet M101: 3 on M101, 2 on M101. Counted from the legend entry EF.",
		Sources: []search.Source{{SheetNumber: "M101", Label: "EF", Snippet: "EF — EXHAUST FAN — 3 on sheet M101", Count: &three},
			{SheetNumber: "M101", Label: "EF", Snippet: "EF — EXHAUST FAN — 2 on sheet M101", Count: &two}}}
	if inv := Invented("how many exhaust fans on sheet M101?", a); len(inv) != 0 {
		t.Errorf("a sum of the cited counts: invented %v", inv)
	}
	a.Answer = "7 exhaust fan on sheet M101"
	if inv := Invented("how many exhaust fans on sheet M101?", a); !slices.Equal(inv, []string{"7"}) {
		t.Errorf("a number no source holds: invented %v, want [7]", inv)
	}
}
