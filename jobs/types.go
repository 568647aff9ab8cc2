package jobs

// Job types (the Job record's type; the asynq task type is "job:" + type):
// the registry of every pipeline's types, so the framework can name them
// (EventTypes) without importing the pipelines.

// Ingestion (jobs/ingest) of a drawing's file.
const (
	TypeDrawingPreprocess = "drawing_preprocess"
)

// Job types of the per-page and per-sheet stages of ingestion (jobs/ingest).
const (
	TypeSheetPreprocess = "sheet_preprocess"
	TypeBlockPreprocess = "block_preprocess"
)

// Job types of parsing (jobs/parse). A parse job works in stages, each a set of child
// jobs: (for a file target) drawing_preprocess → vision.legend.parse, one
// per legend block → vision.symbols.match, one per view block, spread over
// the workers → the combined result, made by the parse job's finalizer.
const (
	TypeParse       = "parse"
	TypeLegendParse = "vision.legend.parse"
	TypeSymbolMatch = "vision.symbols.match"
)

// Job types of comparing revisions (jobs/compare). A compare job (its
// target the newer drawing, sheet or block) pairs the sheets and blocks of
// the two revisions, then works in stages: overlay.generate, one per block
// pair, spread over the workers → changes.analyze, one per overlay (unless
// only overlays were asked for) → changes.summarize, whose report is the
// compare job's result. A changes.analyze job is also started by itself on
// a stored overlay (POST /v1/overlays/{id}/analyze).
const (
	TypeCompare          = "compare"
	TypeOverlayGenerate  = "overlay.generate"
	TypeChangesAnalyze   = "changes.analyze"
	TypeChangesSummarize = "changes.summarize"
)
