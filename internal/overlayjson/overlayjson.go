// Package overlayjson is the stored form of an overlay's JSON fields — the
// transform that aligns its blocks, the difference regions and the
// described changes — and the ids of changes.
//
// It is a leaf apart from vision/compare (whose types these mirror field for
// field, so they convert with a plain conversion) because ent/schema imports
// it: the compare engine links OpenCV, which every package importing ent
// would otherwise link too.
package overlayjson

import (
	"strconv"

	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/vision/geom"
)

// Transform is the similarity transform mapping the older block's (A's)
// pixels onto the newer's (B's): x_B = Scale·(cos θ·x_A − sin θ·y_A) + Tx,
// y_B = Scale·(sin θ·x_A + cos θ·y_A) + Ty, θ = RotationDeg in degrees in
// image coordinates (y down). ResidualPx is the registration's RMS error in
// B's pixels. It has compare.Transform's fields.
type Transform struct {
	Scale       float64 `json:"scale"`
	RotationDeg float64 `json:"rotation_deg"`
	Tx          float64 `json:"tx"`
	Ty          float64 `json:"ty"`
	ResidualPx  float64 `json:"residual_px"`
}

// Region is one group of differing ink, in B's block pixels, with the
// counts of added and removed ink pixels in it (compare.Region's fields).
// Change analysis run later on a stored overlay reads them back.
type Region struct {
	Bounds  geom.Box `json:"bounds"`
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
}

// Change is one described difference as stored and served: compare.Change
// with its id. Bounds are in B's block pixels, BoundsA (when the change was
// on A: removed, modified, moved) in A's.
type Change struct {
	ID          string    `json:"id"`
	Kind        string    `json:"kind"`
	Category    string    `json:"category"`
	Description string    `json:"description"`
	Bounds      geom.Box  `json:"bounds"`
	BoundsA     *geom.Box `json:"bounds_a,omitempty"`
	Severity    string    `json:"severity"`
	Confidence  float64   `json:"confidence"`
}

// ChangeID is the id of the i-th change (from 0) of an overlay: derived
// from the overlay's id and the index, so an analysis run again (a retried
// task) gives its changes the same ids instead of new ones.
func ChangeID(overlayID string, i int) string {
	return ids.Derived(ids.Change, overlayID, strconv.Itoa(i))
}
