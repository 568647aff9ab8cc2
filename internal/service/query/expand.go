package query

import (
	"sort"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
)

// MaxExpandDepth is how deeply ?expand= may nest (a.b.c).
const MaxExpandDepth = 3

// Expandable lists, per collection, the relations a read may expand.
var Expandable = map[string][]string{
	"overlays": {"block_a", "block_b", "job", "block_a.sheet", "block_b.sheet", "block_a.sheet.drawing", "block_b.sheet.drawing"},
	"sheets":   {"drawing"},
	"blocks":   {"sheet", "sheet.drawing"},
	"drawings": {"file"},
	"jobs":     {"parent"},
	"projects": {},
	"files":    {},
}

// Expansion is a parsed expand tree: relation → nested expansions. The
// relations it names are loaded with the rows (one query per level for a
// whole page, Ent's eager loading) into their Edges.
type Expansion map[string]Expansion

// ParseExpand checks raw (comma-separated dotted paths) against what
// collection allows.
func ParseExpand(raw, collection string) (Expansion, error) {
	root := Expansion{}
	if raw == "" {
		return root, nil
	}
	allowed := Expandable[collection]
	for _, path := range strings.Split(raw, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		parts := strings.Split(path, ".")
		if len(parts) > MaxExpandDepth {
			return nil, apierr.Invalid("expand", "'"+path+"' is nested deeper than 3 levels").WithCode("VALIDATION_ERROR")
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == path
		}
		if !ok {
			names := append([]string(nil), allowed...)
			sort.Strings(names)
			msg := "'" + path + "' cannot be expanded here"
			if len(names) > 0 {
				msg += "; allowed: " + strings.Join(names, ", ")
			} else {
				msg += "; this resource has no expandable fields"
			}
			return nil, apierr.Invalid("expand", msg)
		}
		node := root
		for _, p := range parts {
			if node[p] == nil {
				node[p] = Expansion{}
			}
			node = node[p]
		}
	}
	return root, nil
}

// The with* functions ask q to load what x names.

func withDrawing(q *ent.DrawingQuery, x Expansion) {
	if x["file"] != nil {
		q.WithFile()
	}
}

func withSheet(q *ent.SheetQuery, x Expansion) {
	if x["drawing"] != nil {
		q.WithDrawing(func(d *ent.DrawingQuery) { withDrawing(d, x["drawing"]) })
	}
}

func withBlock(q *ent.BlockQuery, x Expansion) {
	if x["sheet"] != nil {
		q.WithSheet(func(s *ent.SheetQuery) { withSheet(s, x["sheet"]) })
	}
}

func withOverlay(q *ent.OverlayQuery, x Expansion) {
	if x["block_a"] != nil {
		q.WithBlockA(func(b *ent.BlockQuery) { withBlock(b, x["block_a"]) })
	}
	if x["block_b"] != nil {
		q.WithBlockB(func(b *ent.BlockQuery) { withBlock(b, x["block_b"]) })
	}
	if x["job"] != nil {
		q.WithJob()
	}
}
