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
