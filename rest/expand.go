package rest

import (
	"github.com/plangraph/plangraph/ent"
	listing "github.com/plangraph/plangraph/internal/service/query"
)

// The views shape a record with the relations ?expand= named (x), which
// the query service loaded into its Edges.

func projectView(p *ent.Project, _ listing.Expansion) Project { return projectOut(p) }

func fileView(f *ent.File, _ listing.Expansion) *File { return fileOut(f) }

func drawingView(d *ent.Drawing, x listing.Expansion) *Drawing {
	out := drawingOut(d)
	if x["file"] != nil && d.Edges.File != nil {
		out.File = fileOut(d.Edges.File)
	}
	return out
}

func sheetView(s *ent.Sheet, x listing.Expansion) *Sheet {
	out := sheetOut(s)
	if x["drawing"] != nil && s.Edges.Drawing != nil {
		out.Drawing = drawingView(s.Edges.Drawing, x["drawing"])
	}
	return out
}

func blockView(b *ent.Block, x listing.Expansion) *Block {
	out := blockOut(b)
	if x["sheet"] != nil && b.Edges.Sheet != nil {
		out.Sheet = sheetView(b.Edges.Sheet, x["sheet"])
	}
	return out
}

func overlayView(o *ent.Overlay, x listing.Expansion) *Overlay {
	out := overlayOut(o)
	if x["block_a"] != nil && o.Edges.BlockA != nil {
		out.BlockA = blockView(o.Edges.BlockA, x["block_a"])
	}
	if x["block_b"] != nil && o.Edges.BlockB != nil {
		out.BlockB = blockView(o.Edges.BlockB, x["block_b"])
	}
	if x["job"] != nil && o.Edges.Job != nil {
		out.Job = jobOut(o.Edges.Job)
	}
	return out
}

func jobView(j *ent.Job, x listing.Expansion) *Job {
	out := jobOut(j)
	if x["parent"] != nil && j.Edges.Parent != nil {
		out.Parent = jobOut(j.Edges.Parent)
	}
	return out
}
