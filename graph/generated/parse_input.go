package generated

import "github.com/plangraph/plangraph/internal/service/parse"

// The parse mutation's input types are the parse service's (gqlgen.yml
// binds them), so gqlgen no longer writes these. The names remain for
// callers written against them (cmd/plangraph); new code uses parse's.
type (
	ParseInput             = parse.Input
	ParseOptions           = parse.Options
	ParseSymbolOptions     = parse.SymbolOptions
	ParseLegendSymbolInput = parse.LegendSymbol
)
