package search

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

// AnsweredByIndex: the answer was computed from the index alone;
// AnsweredByLLM: the operator's language model worded it from the cited
// sources (llm.go).
const (
	AnsweredByIndex = "index"
	AnsweredByLLM   = "llm"
)

// DefaultSources and MaxSources bound an answer's citations.
const DefaultSources, MaxSources = 5, 20

// AskInput is a question about one project.
type AskInput struct {
	Question   string `json:"question"`
	DrawingID  string `json:"drawing_id,omitempty"`
	MaxSources int    `json:"max_sources,omitempty"`
}

// Source is a row an answer cites; its snippet contains what the answer
// took from it. Bounds are sheet pixels.
type Source struct {
	SourceType  string    `json:"source_type"`
	SourceID    string    `json:"source_id"`
	SheetID     string    `json:"sheet_id"`
	SheetNumber string    `json:"sheet_number"`
	Label       string    `json:"label"`
	Snippet     string    `json:"snippet"`
	Bounds      *geom.Box `json:"bounds"`
	Count       *int      `json:"count,omitempty"`
	Score       float64   `json:"score"`
}

// Answer is ask's answer. Confidence is 0–1: 0 when nothing was found,
// below 0.5 when the answer is a guess (closest passages, or counts over
// sheets some of which were never parsed).
type Answer struct {
	Answer       string   `json:"answer"`
	QuestionType string   `json:"question_type"`
	Sources      []Source `json:"sources"`
	Confidence   float64  `json:"confidence"`
	AnsweredBy   string   `json:"answered_by"`
}

// Ask answers a question from the project's index.
func (s *Service) Ask(ctx context.Context, projectID string, in AskInput) (*Answer, error) {
	q, err := checkText("question", in.Question)
	if err != nil {
		return nil, err
	}
	if err := bounded("max_sources", &in.MaxSources, DefaultSources, MaxSources); err != nil {
		return nil, err
	}
	if err := s.checkProject(ctx, projectID); err != nil {
		return nil, err
	}
	sc := index.Scope{ProjectID: projectID}
	if in.DrawingID != "" {
		if err := s.checkDrawing(ctx, "drawing_id", projectID, in.DrawingID); err != nil {
			return nil, err
		}
		sc.DrawingID = in.DrawingID
	}
	n, err := s.Index().Count(ctx, sc)
	if err != nil {
		return nil, err
	}
	pq := textsearch.ParseQuestion(q, textsearch.Default)
	a := &Answer{QuestionType: pq.Kind, Sources: []Source{}, AnsweredBy: AnsweredByIndex}
	if n == 0 {
		a.Answer = "Nothing is indexed in this project yet, so the drawings cannot answer: ingest (and parse) a drawing first."
		return a, nil
	}
	switch pq.Kind {
	case textsearch.KindCount:
		err = s.count(ctx, sc, pq, in.MaxSources, a)
	case textsearch.KindSheets:
		err = s.sheets(ctx, sc, pq, in.MaxSources, a)
	case textsearch.KindLookup:
		err = s.lookup(ctx, sc, pq, in.MaxSources, a)
	case textsearch.KindChanges:
		err = s.changes(ctx, sc, pq, in.MaxSources, a)
	default:
		err = s.passages(ctx, sc, pq.Subject, in.MaxSources, a)
	}
	if err == nil && (pq.Kind == textsearch.KindLookup || pq.Kind == textsearch.KindPassage) {
		s.word(ctx, q, a)
	}
	return a, err
}

// stopWords are left out of a subject before it is matched.
var stopWords = []string{"the", "a", "an", "all", "any", "every", "of", "total", "number", "there", "are", "is",
	"do", "we", "have", "i", "symbol", "device", "shown", "drawn", "placed", "for", "me"}

func content(toks []string) []string {
	var out []string
	for _, t := range toks {
		if !slices.Contains(stopWords, t) {
			out = append(out, t)
		}
	}
	return out
}

// names says whether a row's label or description names the subject: every
// content word of the subject (in canonical form: "ef" → "exhaust fan")
// is among the description's canonical words, or the label is the subject
// itself ("how many EF").
func names(d index.Doc, subj []string) bool {
	v := textsearch.Default
	want := v.Canonical(subj)
	if len(want) == 0 {
		return false
	}
	both := v.Canonical(textsearch.Tokens(d.Label + " " + d.Body))
	head := want[len(want)-1] // the noun must be the description's, not only the label's expansion
	if hasAll(both, want) && (d.Body == "" || slices.Contains(v.Canonical(textsearch.Tokens(d.Body)), head)) {
		return true
	}
	l := strings.Join(textsearch.Tokens(d.Label), " ")
	return l != "" && l == strings.Join(subj, " ")
}

func hasAll(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// rowLevels are the floors a row is on: its block title's, else its sheet
// title's.
func rowLevels(d index.Doc) []int {
	v := textsearch.Default
	if l := v.Levels(textsearch.Tokens(d.BlockTitle)); len(l) > 0 {
		return l
	}
	return v.Levels(textsearch.Tokens(d.SheetTitle))
}

func inScope(d index.Doc, pq textsearch.Question) bool {
	if pq.SheetNumber != "" && d.SheetNumberNorm != pq.SheetNumber {
		return false
	}
	if len(pq.Levels) > 0 {
		for _, l := range rowLevels(d) {
			if slices.Contains(pq.Levels, l) {
				return true
			}
		}
		return false
	}
	return true
}

// scopeText describes the question's scope for an answer.
func scopeText(pq textsearch.Question) string {
	var parts []string
	if pq.SheetNumber != "" {
		parts = append(parts, "on sheet "+asked(pq))
	}
	for _, l := range pq.Levels {
		parts = append(parts, "on "+levelName(l))
	}
	if len(parts) == 0 {
		return "in the project"
	}
	return strings.Join(parts, ", ")
}

func levelName(l int) string {
	switch l {
	case 0:
		return "the basement"
	case 99:
		return "the roof"
	}
	return fmt.Sprintf("level %d", l)
}

// count answers "how many X": the instances of the legend entries naming X,
// per sheet in scope, as the parse counted them.
func (s *Service) count(ctx context.Context, sc index.Scope, pq textsearch.Question, max int, a *Answer) error {
	subj := content(textsearch.Tokens(pq.Subject))
	if len(subj) == 0 {
		a.Answer = "I could not tell what to count."
		return nil
	}
	// the legend entries and symbol rows that hold a word of the subject or
	// of its vocabulary forms (every row naming it does), and the sheets and
	// blocks for the scope
	phrases := slices.Clone(subj)
	for _, m := range textsearch.Default.Find(subj) {
		phrases = append(phrases, m.Forms...)
	}
	rows := sc
	rows.Types = []string{index.TypeLegendEntry, index.TypeSymbol}
	docs, err := s.Index().Match(ctx, rows, phrases, 100000)
	if err != nil {
		return err
	}
	// the places in scope: sheets (a sheet's rows share its parsed flag), and
	// blocks only when a level is asked for (a view's title can name a level
	// its sheet's does not)
	rows.Types = []string{index.TypeSheet}
	if len(pq.Levels) > 0 {
		rows.Types = append(rows.Types, index.TypeBlock)
	}
	if pq.SheetNumber != "" {
		rows.SheetNumberNorm = pq.SheetNumber
	}
	places, err := s.Index().Docs(ctx, rows, 100000)
	if err != nil {
		return err
	}
	docs = append(docs, places...)
	type kind struct{ label, desc string }
	var kinds []kind
	var entries, syms []index.Doc
	scoped := map[string]index.Doc{} // sheets in scope by id
	for _, d := range docs {
		switch d.SourceType {
		case index.TypeLegendEntry, index.TypeSymbol:
			if !names(d, subj) {
				continue
			}
			k := kind{strings.ToUpper(d.Label), strings.ToUpper(d.Body)}
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
			if d.SourceType == index.TypeLegendEntry {
				entries = append(entries, d)
			} else if inScope(d, pq) {
				syms = append(syms, d)
			}
		case index.TypeSheet, index.TypeBlock:
			if inScope(d, pq) {
				scoped[d.SheetID] = d
			}
		}
	}
	what := strings.Join(textsearch.Tokens(pq.Subject), " ")
	if len(kinds) == 0 {
		a.Answer = fmt.Sprintf("I could not find a legend entry for %q in this project's legends, so I cannot count it.", what)
		return nil
	}
	// per sheet totals
	type sheetCount struct {
		number, id string
		n          int
	}
	bySheet := map[string]*sheetCount{}
	var order []string
	total := 0
	for _, d := range syms {
		c := bySheet[d.SheetID]
		if c == nil {
			c = &sheetCount{number: d.SheetNumber, id: d.SheetID}
			bySheet[d.SheetID] = c
			order = append(order, d.SheetID)
		}
		c.n += d.Count
		total += d.Count
	}
	sort.SliceStable(order, func(i, j int) bool {
		return sheetmeta.Normalize(bySheet[order[i]].number) < sheetmeta.Normalize(bySheet[order[j]].number)
	})
	var unparsed []string
	for id, d := range scoped {
		if !d.Parsed && bySheet[id] == nil {
			unparsed = append(unparsed, d.SheetNumber)
		}
	}
	slices.Sort(unparsed)
	var kindText []string
	for _, k := range kinds {
		kindText = append(kindText, fmt.Sprintf("%s %q", k.label, k.desc))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %s", total, what, scopeText(pq))
	if len(order) > 0 {
		var per []string
		for _, id := range order {
			per = append(per, fmt.Sprintf("%d on %s", bySheet[id].n, bySheet[id].number))
		}
		fmt.Fprintf(&b, ": %s", strings.Join(per, ", "))
	}
	fmt.Fprintf(&b, ". Counted from the parsed instances of the legend %s %s.", plural(len(kinds), "entry", "entries"), strings.Join(kindText, ", "))
	if len(unparsed) > 0 {
		fmt.Fprintf(&b, " Not counted: %s in scope %s never parsed for symbols.", plural(len(unparsed), "sheet", "sheets")+" "+strings.Join(unparsed, ", "), plural(len(unparsed), "was", "were"))
	}
	if len(scoped) == 0 && (len(pq.Levels) > 0 || pq.SheetNumber != "") {
		fmt.Fprintf(&b, " No sheet or view of this project is %s.", scopeText(pq))
	}
	a.Answer = b.String()
	switch {
	case len(scoped) == 0 && (len(pq.Levels) > 0 || pq.SheetNumber != ""):
		a.Confidence = 0.2
	case len(unparsed) > 0:
		a.Confidence = 0.4
	case len(kinds) > 1:
		a.Confidence = 0.7
	default:
		a.Confidence = 0.9
	}
	// cite the per-block counts (largest first), else the legend entries
	slices.SortStableFunc(syms, func(x, y index.Doc) int { return y.Count - x.Count })
	mark := markOf(subj)
	cited := syms
	if len(cited) == 0 {
		cited = entries
	}
	for _, d := range cited {
		if len(a.Sources) == max {
			break
		}
		a.Sources = append(a.Sources, sourceOf(d, mark, 1))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// markOf is the set of tokens to mark in snippets: the words and their
// vocabulary forms.
func markOf(toks []string) map[string]bool {
	m := map[string]bool{}
	for _, t := range toks {
		m[t] = true
	}
	for _, f := range textsearch.Default.Find(toks) {
		for _, form := range f.Forms {
			for _, t := range strings.Fields(form) {
				m[t] = true
			}
		}
	}
	return m
}

func sourceOf(d index.Doc, mark map[string]bool, score float64) Source {
	src := Source{SourceType: d.SourceType, SourceID: d.SourceID, SheetID: d.SheetID, SheetNumber: d.SheetNumber,
		Label: d.Label, Snippet: snippetOf(d, mark), Bounds: d.Bounds, Score: score}
	if d.SourceType == index.TypeSymbol {
		c := d.Count
		src.Count = &c
	}
	return src
}

// sheets answers "which sheets are X": the sheets of a discipline the
// question names, else those whose number and title contain its words (or
// name its floor).
func (s *Service) sheets(ctx context.Context, sc index.Scope, pq textsearch.Question, max int, a *Answer) error {
	subj := content(textsearch.Tokens(pq.Subject))
	canon := " " + strings.Join(textsearch.Default.Canonical(subj), " ") + " "
	rows := sc
	rows.Types = []string{index.TypeSheet}
	disc := ""
	for _, d := range sheetmeta.Disciplines() {
		if strings.Contains(canon, " "+strings.ReplaceAll(d, "_", " ")+" ") {
			disc = d
			break
		}
	}
	if disc == "" {
		disc = sheetmeta.DisciplineOfTitle(pq.Subject)
	}
	levels := textsearch.Default.Levels(subj)
	docs, err := s.Index().Docs(ctx, rows, 100000)
	if err != nil {
		return err
	}
	var hit []index.Doc
	for _, d := range docs {
		switch {
		case disc != "":
			if d.Discipline == disc {
				hit = append(hit, d)
			}
		case len(levels) > 0:
			if inScope(d, textsearch.Question{Levels: levels}) {
				hit = append(hit, d)
			}
		case len(subj) > 0:
			if hasAll(textsearch.Default.Canonical(strings.Fields(d.Terms)), textsearch.Default.Canonical(subj)) {
				hit = append(hit, d)
			}
		}
	}
	slices.SortStableFunc(hit, func(x, y index.Doc) int { return strings.Compare(x.SheetNumberNorm, y.SheetNumberNorm) })
	about := strings.Join(subj, " ")
	if disc != "" {
		about = strings.ReplaceAll(disc, "_", " ")
	}
	if len(hit) == 0 {
		a.Answer = fmt.Sprintf("I could not find any %s sheets in this project.", about)
		return nil
	}
	var list []string
	for _, d := range hit {
		list = append(list, strings.TrimSpace(d.SheetNumber+" "+d.SheetTitle))
	}
	a.Answer = fmt.Sprintf("%d %s %s: %s.", len(hit), plural(len(hit), "sheet is", "sheets are"), about, strings.Join(list, "; "))
	a.Confidence = 0.9
	if disc == "" {
		a.Confidence = 0.6
	}
	mark := markOf(append(subj, textsearch.Tokens(about)...))
	for _, d := range hit {
		if len(a.Sources) == max {
			break
		}
		a.Sources = append(a.Sources, sourceOf(d, mark, 1))
	}
	return nil
}

// lookup answers "where is X" and "what is detail 5 on A3" with the best
// search result, when it contains every word asked for.
func (s *Service) lookup(ctx context.Context, sc index.Scope, pq textsearch.Question, max int, a *Answer) error {
	subj := content(textsearch.Tokens(pq.Subject))
	if len(subj) == 0 {
		a.Answer = "I could not tell what to look for."
		return nil
	}
	if pq.SheetNumber != "" {
		sc.SheetNumberNorm = pq.SheetNumber
		n, err := s.Index().Count(ctx, index.Scope{ProjectID: sc.ProjectID, DrawingID: sc.DrawingID, SheetNumberNorm: pq.SheetNumber})
		if err != nil {
			return err
		}
		if n == 0 {
			a.Answer = fmt.Sprintf("I could not find sheet %s in this project.", asked(pq))
			return nil
		}
	}
	if pq.ViewNumber != "" {
		// the view's number is its own word: search the number alone among the sheet's blocks and words
		sc.Types = []string{index.TypeBlock, index.TypeWord}
	}
	// the pool is wider than the citations: the sheet or view titled as
	// asked may rank below notes and index lines that repeat its words
	res, err := s.search(ctx, sc, strings.Join(subj, " "), nil, lookupPool)
	if err != nil {
		return err
	}
	want := textsearch.Default.Canonical(subj)
	var exact []Hit
	for _, h := range res.Hits {
		if containsAll(h.Label+" "+h.Snippet, want) {
			exact = append(exact, h)
		}
	}
	// where a thing is, is where it is drawn: a sheet or view titled as
	// asked before a mention of it (a drawing index on the cover sheet, a
	// note's "SEE …")
	slices.SortStableFunc(exact, func(x, y Hit) int { return lookupTier(x, want) - lookupTier(y, want) })
	what := strings.Join(textsearch.Tokens(pq.Subject), " ")
	if len(exact) == 0 {
		if len(res.Hits) == 0 {
			a.Answer = fmt.Sprintf("I could not find %q %s.", what, scopeText(pq))
			return nil
		}
		best := res.Hits[0]
		a.Answer = fmt.Sprintf("I could not find %q exactly; the closest match is %q on sheet %s.", what, best.Label, best.SheetNumber)
		a.Confidence = 0.3
		a.Sources = append(a.Sources, sourceOfHit(best))
		return nil
	}
	best := exact[0]
	kind := best.SourceType
	switch best.SourceType {
	case index.TypeBlock:
		kind = "the view"
	case index.TypeWord:
		kind = "the words"
	case index.TypeSheet:
		kind = "the sheet"
	case index.TypeLegendEntry, index.TypeSymbol:
		kind = "the legend entry"
	}
	a.Answer = fmt.Sprintf("%s is on sheet %s: %s %q.", capitalise(what), best.SheetNumber, kind, best.Label)
	if len(exact) > max {
		exact = exact[:max]
	}
	if len(exact) > 1 {
		var others []string
		for _, h := range exact[1:] {
			others = append(others, fmt.Sprintf("%q on %s", h.Label, h.SheetNumber))
		}
		a.Answer += " Also: " + strings.Join(others, ", ") + "."
	}
	a.Confidence = 0.8
	for _, h := range exact {
		if len(a.Sources) == max {
			break
		}
		a.Sources = append(a.Sources, sourceOfHit(h))
	}
	return nil
}

// lookupPool is how many search results a lookup reads for the hits that
// hold every word asked for.
const lookupPool = 50

// lookupTier ranks a hit holding every word of a lookup (want, canonical):
// 0 a sheet or view whose title has no other content word, 1 another sheet
// or view, 2 anything else (words, legend entries).
func lookupTier(h Hit, want []string) int {
	if h.SourceType != index.TypeSheet && h.SourceType != index.TypeBlock {
		return 2
	}
	toks := textsearch.Tokens(h.Label)
	if num := textsearch.Tokens(h.SheetNumber); h.SourceType == index.TypeSheet && len(num) <= len(toks) && slices.Equal(toks[:len(num)], num) {
		toks = toks[len(num):] // a sheet's label is its number and title
	}
	got := textsearch.Default.Canonical(content(toks))
	for _, t := range got {
		if t != "and" && !slices.Contains(want, t) {
			return 1
		}
	}
	return 0
}

func containsAll(text string, want []string) bool {
	return hasAll(textsearch.Default.Canonical(textsearch.Tokens(text)), want)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func sourceOfHit(h Hit) Source {
	return Source{SourceType: h.SourceType, SourceID: h.SourceID, SheetID: h.SheetID, SheetNumber: h.SheetNumber,
		Label: h.Label, Snippet: h.Snippet, Bounds: h.Bounds, Count: h.Count, Score: h.Score}
}

// passages answers anything else extractively: the best passages' own
// words, or that the drawings do not say.
func (s *Service) passages(ctx context.Context, sc index.Scope, q string, max int, a *Answer) error {
	toks := content(textsearch.Tokens(q))
	if len(toks) == 0 {
		a.Answer = "The drawings do not say."
		return nil
	}
	res, err := s.search(ctx, sc, strings.Join(toks, " "), nil, max)
	if err != nil {
		return err
	}
	if len(res.Hits) == 0 {
		a.Answer = "The drawings do not say."
		return nil
	}
	var quotes []string
	for i, h := range res.Hits {
		if i == 3 {
			break
		}
		quotes = append(quotes, fmt.Sprintf("%q (sheet %s)", h.Label, h.SheetNumber))
	}
	a.Answer = "I cannot answer this exactly; the drawings' closest passages are: " + strings.Join(quotes, "; ") + "."
	a.Confidence = 0.2
	for _, h := range res.Hits {
		a.Sources = append(a.Sources, sourceOfHit(h))
	}
	return nil
}

// asked is the sheet number a question names, as asked ("PL1.1", not its
// normalised "PL11").
func asked(pq textsearch.Question) string {
	if pq.SheetText != "" {
		return pq.SheetText
	}
	return pq.SheetNumber
}
