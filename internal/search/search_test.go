package search

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestTokensAndStem(t *testing.T) {
	got := Tokens(`"EXHAUST FANS" (typ.) boxes, batteries; A-101 gas*`)
	want := []string{"exhaust", "fan", "typ", "box", "battery", "a", "101", "gas"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens = %v, want %v", got, want)
	}
	for w, s := range map[string]string{"switches": "switch", "glass": "glass", "bus": "bus", "efs": "efs", "chassis": "chassis", "2x4s": "2x4s"} {
		if Stem(w) != s {
			t.Errorf("Stem(%q) = %q, want %q", w, Stem(w), s)
		}
	}
}

func TestVocabulary(t *testing.T) {
	v := Default
	for q, want := range map[string]string{
		"EF":                   "exhaust fan",
		"EFs on the 2nd FLR":   "exhaust fan on the 2nd floor",
		"GFI REC":              "gfci receptacle",
		"RCP":                  "reflected ceiling plan",
		"fire damper":          "fire damper",
		"unknown words stay":   "unknown word stay",
		"typ clg":              "typical ceiling",
		"ground fault outlets": "gfci receptacle",
	} {
		if got := strings.Join(v.Canonical(Tokens(q)), " "); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", q, got, want)
		}
	}
	for q, want := range map[string][]int{
		"second floor":                 {2},
		"2nd flr":                      {2},
		"Level 3":                      {3},
		"FIRST AND SECOND FLOOR PLANS": {2, 1},
		"roof plan":                    {99},
		"power plan":                   nil,
		"ground floor":                 {1},
	} {
		if got := v.Levels(Tokens(q)); !reflect.DeepEqual(got, want) {
			t.Errorf("Levels(%q) = %v, want %v", q, got, want)
		}
	}
	// every concept has its canonical form first, and the file is sizeable
	if len(v.concepts) < 60 {
		t.Errorf("the vocabulary has %d concepts, want at least 60", len(v.concepts))
	}
	if _, err := ParseVocabulary([]byte("{")); err == nil {
		t.Error("a broken vocabulary file parsed")
	}
}

func TestParseQuestion(t *testing.T) {
	v := Default
	for q, want := range map[string]Question{
		"How many exhaust fans on the second floor?":           {Kind: KindCount, Subject: "exhaust fans", Levels: []int{2}},
		"how many GFCI receptacles are there":                  {Kind: KindCount, Subject: "gfci receptacles"},
		"How many EF on sheet M-101?":                          {Kind: KindCount, Subject: "ef", SheetNumber: "M101", SheetText: "M-101"},
		"how many fans in the lobby":                           {Kind: KindCount, Subject: "fans in the lobby"},
		"How many heat detector, rate of rise on sheet E-201?": {Kind: KindCount, Subject: "heat detector, rate of rise", SheetNumber: "E201", SheetText: "E-201"},
		"Which sheets are electrical?":                         {Kind: KindSheets, Subject: "electrical"},
		"list all sheets":                                      {Kind: KindSheets, Subject: ""},
		"Where is the panel schedule?":                         {Kind: KindLookup, Subject: "panel schedule"},
		"What is detail 5 on A3?":                              {Kind: KindLookup, Subject: "detail 5", ViewKind: "detail", ViewNumber: "5", SheetNumber: "A3", SheetText: "A3"},
		"what does note 3 say":                                 {Kind: KindPassage, Subject: "what does note 3 say"},
		"Which sheets changed in revision 2?":                  {Kind: KindChanges, Revision: "2", SheetList: true},
		"which sheets were revised in rev. B":                  {Kind: KindChanges, Revision: "b", SheetList: true},
		"list the changed sheets":                              {Kind: KindChanges, SheetList: true},
		"What changed on A101?":                                {Kind: KindChanges, SheetNumber: "A101", SheetText: "A101"},
		"what has changed on sheet E-2.1 in revision 3":        {Kind: KindChanges, SheetNumber: "E21", SheetText: "E-2.1", Revision: "3"},
		"How many changes on M-101?":                           {Kind: KindChanges, SheetNumber: "M101", SheetText: "M-101"},
		"show me the changes in the door schedule":             {Kind: KindChanges, Subject: "door schedule"},
	} {
		if got := ParseQuestion(q, v); !reflect.DeepEqual(got, want) {
			t.Errorf("ParseQuestion(%q) = %+v, want %+v", q, got, want)
		}
	}
}

func TestBM25(t *testing.T) {
	docs := [][]string{
		strings.Fields("ceiling exhaust fan"),
		strings.Fields("exhaust air grille"),
		strings.Fields("fan coil unit fan"),
		strings.Fields("duplex receptacle"),
	}
	s := BM25(docs, 4, [][]string{{"exhaust"}, {"fan"}})
	if !(s[0] > s[1] && s[0] > s[2] && s[3] == 0 && s[1] > 0 && s[2] > 0) {
		t.Errorf("scores %v: want the doc with both words first and the unrelated one 0", s)
	}
	// a phrase counts only contiguous
	p := BM25(docs, 4, [][]string{{"exhaust fan"}})
	if !(p[0] > 0 && p[1] == 0 && p[2] == 0) {
		t.Errorf("phrase scores %v", p)
	}
	// idf: a rarer word weighs more (ln(1 + (N-df+0.5)/(df+0.5)))
	idf := func(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }
	if idf(4, 1) <= idf(4, 2) {
		t.Error("idf does not fall with df")
	}
}

func TestFuse(t *testing.T) {
	f := Fuse([]Ranked{
		{Retriever: "lexical", Keys: []string{"a", "b", "c"}},
		{Retriever: "structure", Keys: []string{"c", "a"}},
	}, nil)
	if len(f) != 3 || f[0].Key != "a" || f[1].Key != "c" || f[2].Key != "b" {
		t.Fatalf("fused %+v", f)
	}
	if math.Abs(f[0].Score-(1.0/61+1.0/62)) > 1e-12 || !reflect.DeepEqual(f[0].Retrievers, []string{"lexical", "structure"}) {
		t.Errorf("a: %+v", f[0])
	}
	// shared ranks fuse to equal scores
	h := Fuse([]Ranked{{Retriever: "x", Keys: []string{"old", "new", "c"}, Ranks: []int{1, 1, 3}}}, func(a, b string) bool { return a == "new" })
	if h[0].Key != "new" || h[1].Key != "old" || h[0].Score != h[1].Score || h[2].Score != 1.0/63 {
		t.Errorf("shared ranks %+v", h)
	}
	// ties go to less: here the larger key first
	g := Fuse([]Ranked{{Retriever: "x", Keys: []string{"a"}}, {Retriever: "y", Keys: []string{"b"}}}, func(a, b string) bool { return a > b })
	if g[0].Key != "b" {
		t.Errorf("tie order %+v", g)
	}
}

func TestSnippet(t *testing.T) {
	m := map[string]bool{"exhaust": true, "fan": true}
	if got := Snippet("EF — CEILING EXHAUST FANS", m, 0); got != "EF — CEILING «EXHAUST» «FANS»" {
		t.Errorf("snippet %q", got)
	}
	long := strings.Repeat("word ", 100) + "EXHAUST FAN" + strings.Repeat(" more", 100)
	got := Snippet(long, m, 60)
	if !strings.Contains(got, "«EXHAUST» «FAN»") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || len([]rune(got)) > 70 {
		t.Errorf("long snippet %q", got)
	}
}
