package compare

import "github.com/plangraph/plangraph/vision/geom"

// Report is a compare job's result (changes.summarize): what was matched,
// what was added or removed, and per block pair its overlay and changes.
// jobs/compare builds it; vision/compare/report renders it as Markdown, as
// a PDF and as the newer drawing marked up with revision clouds.
type Report struct {
	// Type is what was compared: Drawing, Sheet or Block.
	Type string `json:"type"`
	// Old and New name the compared records (the older is A).
	Old ReportSide `json:"old"`
	New ReportSide `json:"new"`
	// HasChanges is true when change analysis ran and found any change, or
	// a sheet or block was added or removed.
	HasChanges bool `json:"has_changes"`
	// Analyzed is false when only overlays were asked for (analyze: []).
	Analyzed bool `json:"analyzed"`
	// Sheets added to, removed from and renumbered in the newer drawing.
	SheetsAdded      []ReportSheet    `json:"sheets_added"`
	SheetsRemoved    []ReportSheet    `json:"sheets_removed"`
	SheetsRenumbered []ReportRenumber `json:"sheets_renumbered"`
	// Pairs are the matched sheet pairs (one for a Sheet or Block compare).
	Pairs []ReportSheetPair `json:"pairs"`
	// Counts of changes by category, by severity and by kind.
	ByCategory map[string]int `json:"by_category"`
	BySeverity map[string]int `json:"by_severity"`
	ByKind     map[string]int `json:"by_kind"`
	Warnings   []string       `json:"warnings,omitempty"`
}

// ReportSide names one compared record.
type ReportSide struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ReportSheet is a sheet of either drawing.
type ReportSheet struct {
	SheetID string `json:"sheet_id"`
	Number  string `json:"number"`
	Title   string `json:"title"`
	Page    int    `json:"page"`
}

// ReportRenumber is a sheet matched across revisions under another number.
type ReportRenumber struct {
	Old ReportSheet `json:"old"`
	New ReportSheet `json:"new"`
}

// ReportSheetPair is a matched pair of sheets and its block pairs.
type ReportSheetPair struct {
	Old ReportSheet `json:"old"`
	New ReportSheet `json:"new"`
	// BlocksAdded and BlocksRemoved are blocks of one side that match none
	// of the other's.
	BlocksAdded   []ReportBlock   `json:"blocks_added"`
	BlocksRemoved []ReportBlock   `json:"blocks_removed"`
	Overlays      []ReportOverlay `json:"overlays"`
}

// ReportBlock is a block of either drawing.
type ReportBlock struct {
	BlockID string   `json:"block_id"`
	Type    string   `json:"type"`
	Title   string   `json:"title"`
	Bounds  geom.Box `json:"bounds"` // on its sheet, sheet pixels
}

// ReportOverlay is one compared block pair.
type ReportOverlay struct {
	OverlayID string      `json:"overlay_id"`
	Old       ReportBlock `json:"old"`
	New       ReportBlock `json:"new"`
	Score     float64     `json:"score"`
	Transform Transform   `json:"transform"`
	// Registered is false when the blocks did not register (Transform
	// then only lines up their ink boxes; Warnings say why).
	Registered bool `json:"registered"`
	// URI is the combined overlay image's path on the API.
	URI     string         `json:"uri"`
	Changes []ReportChange `json:"changes"`
	// Counts of this overlay's changes by category.
	ByCategory map[string]int `json:"by_category"`
	Warnings   []string       `json:"warnings,omitempty"`
}

// ReportChange is a change as stored (with its id).
type ReportChange struct {
	ID string `json:"id"`
	Change
}
