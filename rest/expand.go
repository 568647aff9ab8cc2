package rest

import (
	"context"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/apierr"
)

const maxExpandDepth = 3

// expandable lists, per resource, what ?expand= may name.
var expandable = map[string][]string{
	"overlays": {"block_a", "block_b", "job", "block_a.sheet", "block_b.sheet", "block_a.sheet.drawing", "block_b.sheet.drawing"},
	"sheets":   {"drawing"},
	"blocks":   {"sheet", "sheet.drawing"},
	"drawings": {"file"},
	"jobs":     {"parent"},
	"projects": {},
	"files":    {},
}

// expansion is a parsed expand tree: relation → nested expansions.
type expansion map[string]expansion

// parseExpand checks raw against what resource allows.
func parseExpand(raw, resource string) (expansion, error) {
	root := expansion{}
	if raw == "" {
		return root, nil
	}
	allowed := expandable[resource]
	for _, path := range strings.Split(raw, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		parts := strings.Split(path, ".")
		if len(parts) > maxExpandDepth {
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
				node[p] = expansion{}
			}
			node = node[p]
		}
	}
	return root, nil
}

// The expanders below load one relation level for a whole page in one
// query (WHERE id IN …), then recurse for the next level.

func expandDrawings(ctx context.Context, c *ent.Client, ds []*Drawing, x expansion) error {
	if x["file"] == nil || len(ds) == 0 {
		return nil
	}
	var idList []string
	for _, d := range ds {
		if d.FileID != nil {
			idList = append(idList, *d.FileID)
		}
	}
	rows, err := c.File.Query().Where(file.IDIn(idList...)).All(ctx)
	if err != nil {
		return err
	}
	by := map[string]*File{}
	for _, f := range rows {
		by[f.ID] = fileOut(f)
	}
	for _, d := range ds {
		if d.FileID != nil {
			d.File = by[*d.FileID]
		}
	}
	return nil
}

func expandSheets(ctx context.Context, c *ent.Client, ss []*Sheet, x expansion) error {
	if x["drawing"] == nil || len(ss) == 0 {
		return nil
	}
	idList := make([]string, 0, len(ss))
	for _, s := range ss {
		idList = append(idList, s.DrawingID)
	}
	rows, err := c.Drawing.Query().Where(drawing.IDIn(idList...)).All(ctx)
	if err != nil {
		return err
	}
	by := map[string]*Drawing{}
	var out []*Drawing
	for _, d := range rows {
		by[d.ID] = drawingOut(d)
		out = append(out, by[d.ID])
	}
	if err := expandDrawings(ctx, c, out, x["drawing"]); err != nil {
		return err
	}
	for _, s := range ss {
		s.Drawing = by[s.DrawingID]
	}
	return nil
}

func expandBlocks(ctx context.Context, c *ent.Client, bs []*Block, x expansion) error {
	if x["sheet"] == nil || len(bs) == 0 {
		return nil
	}
	idList := make([]string, 0, len(bs))
	for _, b := range bs {
		idList = append(idList, b.SheetID)
	}
	rows, err := c.Sheet.Query().Where(sheet.IDIn(idList...)).All(ctx)
	if err != nil {
		return err
	}
	by := map[string]*Sheet{}
	var out []*Sheet
	for _, s := range rows {
		by[s.ID] = sheetOut(s)
		out = append(out, by[s.ID])
	}
	if err := expandSheets(ctx, c, out, x["sheet"]); err != nil {
		return err
	}
	for _, b := range bs {
		b.Sheet = by[b.SheetID]
	}
	return nil
}

func expandJobs(ctx context.Context, c *ent.Client, js []*Job, x expansion) error {
	if x["parent"] == nil || len(js) == 0 {
		return nil
	}
	var idList []string
	for _, j := range js {
		if j.ParentID != nil {
			idList = append(idList, *j.ParentID)
		}
	}
	rows, err := c.Job.Query().Where(job.IDIn(idList...)).All(ctx)
	if err != nil {
		return err
	}
	by := map[string]*Job{}
	for _, p := range rows {
		by[p.ID] = jobOut(p)
	}
	for _, j := range js {
		if j.ParentID != nil {
			j.Parent = by[*j.ParentID]
		}
	}
	return nil
}

func expandOverlays(ctx context.Context, c *ent.Client, os []*Overlay, x expansion) error {
	if len(os) == 0 {
		return nil
	}
	if x["block_a"] != nil || x["block_b"] != nil {
		var idList []string
		for _, o := range os {
			idList = append(idList, o.BlockAID, o.BlockBID)
		}
		rows, err := c.Block.Query().Where(block.IDIn(idList...)).All(ctx)
		if err != nil {
			return err
		}
		// block_a and block_b may ask for different depths: load the deeper
		// level once for all, which is still one query per level
		sub := expansion{}
		for _, k := range []string{"block_a", "block_b"} {
			for rel, nested := range x[k] {
				if sub[rel] == nil || len(nested) > len(sub[rel]) {
					sub[rel] = nested
				}
			}
		}
		by := map[string]*Block{}
		var out []*Block
		for _, b := range rows {
			by[b.ID] = blockOut(b)
			out = append(out, by[b.ID])
		}
		if err := expandBlocks(ctx, c, out, sub); err != nil {
			return err
		}
		for _, o := range os {
			if x["block_a"] != nil {
				o.BlockA = trimBlock(by[o.BlockAID], x["block_a"])
			}
			if x["block_b"] != nil {
				o.BlockB = trimBlock(by[o.BlockBID], x["block_b"])
			}
		}
	}
	if x["job"] != nil {
		var idList []string
		for _, o := range os {
			if o.JobID != nil {
				idList = append(idList, *o.JobID)
			}
		}
		rows, err := c.Job.Query().Where(job.IDIn(idList...)).All(ctx)
		if err != nil {
			return err
		}
		by := map[string]*Job{}
		for _, j := range rows {
			by[j.ID] = jobOut(j)
		}
		for _, o := range os {
			if o.JobID != nil {
				o.Job = by[*o.JobID]
			}
		}
	}
	return nil
}

// trimBlock returns a copy of b holding only the expansions x asks for
// (block_a and block_b share loaded rows but may differ in depth).
func trimBlock(b *Block, x expansion) *Block {
	if b == nil {
		return nil
	}
	cp := *b
	if x["sheet"] == nil {
		cp.Sheet = nil
	} else if cp.Sheet != nil && x["sheet"]["drawing"] == nil {
		s := *cp.Sheet
		s.Drawing = nil
		cp.Sheet = &s
	}
	return &cp
}
