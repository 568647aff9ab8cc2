package search

import (
	"regexp"
	"strings"

	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// Question kinds the index answers by itself.
const (
	// KindCount: "how many exhaust fans on the second floor?" — the sum of a
	// legend entry's symbol counts over the sheets in scope.
	KindCount = "count"
	// KindSheets: "which sheets are electrical?" — a list of sheets.
	KindSheets = "sheets"
	// KindLookup: "where is the panel schedule?", "what is detail 5 on
	// A3?" — the block, sheet or words that match.
	KindLookup = "lookup"
	// KindChanges: "which sheets changed in revision 2?", "what changed on
	// A101?", "how many changes on A-101?" — from the comparisons' change
	// rows.
	KindChanges = "changes"
	// KindPassage: anything else, answered with the best passages.
	KindPassage = "passage"
)

// Question is a question as the index understands it.
type Question struct {
	Kind string
	// Subject is what is counted or looked up ("exhaust fans", "panel
	// schedule"), or the words a sheet list is about ("electrical").
	Subject string
	// Levels are the floors the scope names (see Vocabulary.Levels).
	Levels []int
	// SheetNumber is the sheet the scope names, normalised
	// (sheetmeta.Normalize: A-3 → A3), or ""; SheetText is it as asked
	// (upper case), for answers.
	SheetNumber, SheetText string
	// ViewKind and ViewNumber: "detail" and "5" for "detail 5".
	ViewKind, ViewNumber string
	// Revision is the revision mark the scope names ("2" for "in revision
	// 2", "b" for "rev B"), lower case, or "".
	Revision string
	// SheetList: a change question asks which sheets changed (else what
	// changed).
	SheetList bool
}

var (
	reCount   = regexp.MustCompile(`^(?:how many|number of|count(?: of)?(?: the| all)?|total(?: number of)?)\s+(.+?)(?:\s+(?:are there|are shown|are shown|do we have|do i have|are|is there|there are))?$`)
	reSheets  = regexp.MustCompile(`^(?:which|what|list|show(?: me)?)(?: all)?(?: the)? (?:sheets|sheet|drawings)\b\s*(?:are|is|have|show|for|in|of|with|cover|contain|belong to)?\s*(.*)$`)
	reView    = regexp.MustCompile(`^(?:what(?: is|'s)|show(?: me)?|where(?: is|'s))\s+(?:the\s+)?(detail|section|elevation|view|plan)\s+([a-z0-9]{1,4})\s+(?:on|in|of)\s+(?:sheet\s+)?(.+)$`)
	reWhere   = regexp.MustCompile(`^(?:where(?: is| are|'s| can i find| do i find)|find|locate|show(?: me)?)\s+(?:the\s+|all\s+|every\s+|any\s+)?(.+)$`)
	reSheetNo = regexp.MustCompile(`^(?:sheet\s+)?([a-z]{1,3}[ .-]?\d{1,4}(?:\.\d{1,3})?[a-z]?)$`)
	reSpace   = regexp.MustCompile(`\s+`)
	// change questions: which sheets changed / what changed / changes on …
	reChangedSheets = regexp.MustCompile(`^(?:which|what|list|show(?: me)?)(?: all)?(?: the)? (?:sheets|sheet|drawings|pages)(?: have| has| were| was| did| got)? (?:changed|change|revised|modified|updated|have changes|with changes)\b\s*(.*)$`)
	reChangedList   = regexp.MustCompile(`^(?:list|show(?: me)?)(?: all)?(?: the)? (?:changed|revised|modified|updated) (?:sheets|drawings|pages)\b\s*(.*)$`)
	reWhatChanged   = regexp.MustCompile(`^(?:what(?: has| have| was| were|'s)?|which changes(?: were| are)?) (?:changed|change|revised|modified|updated|new|different)\b\s*(.*)$`)
	reChanges       = regexp.MustCompile(`^(?:(?:list|show(?: me)?|what are|find)(?: all)?(?: the)? )?(?:changes|revisions|differences|modifications)\b\s*(.*)$`)
	reCountChanges  = regexp.MustCompile(`^(?:how many|number of)(?: the)? (?:changes|differences|modifications)\b\s*(?:are there|were made|were there)?\s*(.*)$`)
	reRevision      = regexp.MustCompile(`(?:^|\s)(?:in|of|for|on|at|since|to)?\s*(?:the\s+)?(?:revision|rev\.?|issue)\s+(?:no\.?\s*|number\s+|#)?([a-z0-9]{1,4})\b`)
)

// ParseQuestion recognises the kind of q and its parts. Unrecognised
// questions are KindPassage with the whole question as Subject.
func ParseQuestion(q string, v *Vocabulary) Question {
	s := strings.ToLower(strings.TrimSpace(q))
	s = strings.TrimRight(s, "?.! ")
	s = reSpace.ReplaceAllString(s, " ")
	if q, ok := changeQuestion(s, v); ok {
		return q
	}
	if m := reView.FindStringSubmatch(s); m != nil {
		out := Question{Kind: KindLookup, Subject: m[1] + " " + m[2], ViewKind: m[1], ViewNumber: m[2]}
		out.scope(m[3], v)
		return out
	}
	if m := reCount.FindStringSubmatch(s); m != nil {
		out := Question{Kind: KindCount, Subject: m[1]}
		out.splitScope(v)
		return out
	}
	if m := reSheets.FindStringSubmatch(s); m != nil {
		return Question{Kind: KindSheets, Subject: strings.TrimSpace(m[1])}
	}
	if m := reWhere.FindStringSubmatch(s); m != nil {
		out := Question{Kind: KindLookup, Subject: m[1]}
		out.splitScope(v)
		return out
	}
	return Question{Kind: KindPassage, Subject: s}
}

// splitScope moves a trailing "on the second floor" / "on sheet E-101"
// from Subject into Levels / SheetNumber, when it names one of them.
// The rightmost preposition that starts a scope wins ("rate of rise on
// sheet E-201": "on sheet E-201", not "of rise on sheet E-201").
func (q *Question) splitScope(v *Vocabulary) {
	words := strings.Fields(q.Subject)
	for i := len(words) - 2; i >= 1; i-- {
		switch words[i] {
		case "on", "in", "at", "for", "of":
		default:
			continue
		}
		if q.scope(strings.Join(words[i+1:], " "), v) {
			q.Subject = strings.Join(words[:i], " ")
			return
		}
	}
}

// scope reads a scope phrase into Levels or SheetNumber and says whether it
// named either.
func (q *Question) scope(s string, v *Vocabulary) bool {
	s = strings.TrimSpace(strings.TrimPrefix(s, "the "))
	if m := reSheetNo.FindStringSubmatch(s); m != nil && (strings.HasPrefix(s, "sheet ") || len(v.Levels(Tokens(s))) == 0) {
		q.SheetNumber = sheetmeta.Normalize(m[1])
		q.SheetText = strings.ToUpper(m[1])
		return true
	}
	if l := v.Levels(Tokens(s)); len(l) > 0 {
		q.Levels = l
		return true
	}
	return false
}

// changeQuestion recognises a question about what changed between
// revisions, with its scope: a revision ("in revision 2") and a sheet ("on
// A-101").
func changeQuestion(s string, v *Vocabulary) (Question, bool) {
	q := Question{Kind: KindChanges}
	var rest string
	switch {
	case reChangedSheets.MatchString(s):
		q.SheetList, rest = true, reChangedSheets.FindStringSubmatch(s)[1]
	case reChangedList.MatchString(s):
		q.SheetList, rest = true, reChangedList.FindStringSubmatch(s)[1]
	case reCountChanges.MatchString(s):
		rest = reCountChanges.FindStringSubmatch(s)[1]
	case reWhatChanged.MatchString(s):
		rest = reWhatChanged.FindStringSubmatch(s)[1]
	case reChanges.MatchString(s):
		rest = reChanges.FindStringSubmatch(s)[1]
	default:
		return q, false
	}
	if m := reRevision.FindStringSubmatchIndex(rest); m != nil {
		q.Revision = rest[m[2]:m[3]]
		rest = rest[:m[0]] + " " + rest[m[1]:]
	}
	rest = strings.TrimSpace(rest)
	for _, p := range []string{"between ", "since ", "from ", "on ", "in ", "at ", "of ", "for ", "to "} {
		rest = strings.TrimPrefix(rest, p)
	}
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "the "))
	if rest != "" {
		if !q.scope(rest, v) {
			q.Subject = rest
		}
	}
	return q, true
}
