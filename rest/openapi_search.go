package rest

// The search part of the OpenAPI document: its representations join
// componentTypes and fieldDocs, and searchOps are its rows of the route
// table (with their handlers).

import (
	"fmt"
	"reflect"

	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/sheetmeta"
)

func init() {
	componentTypes[reflect.TypeFor[search.Hit]()] = "SearchResult"
	componentTypes[reflect.TypeFor[search.Meta]()] = "SearchMeta"
	componentTypes[reflect.TypeFor[search.Answer]()] = "Answer"
	componentTypes[reflect.TypeFor[search.Source]()] = "AnswerSource"
	common := map[string]node{
		"source_type":  {"description": sourceTypesText, "enum": index.Types},
		"source_id":    {"description": "The row's record: the sheet, block or legend entry id (a symbol's legend entry), or `{sheet_id}:{n}` for a line of words."},
		"sheet_id":     {"description": "The sheet it is on."},
		"sheet_number": {"description": "That sheet's number as printed."},
		"label":        {"description": "Its name: sheet number and title, block title, legend label, or the line's words."},
		"snippet":      {"description": "Its text with the matched words marked «like this»; a symbol's says how many and where."},
		"bounds":       {"description": "Where it is on the sheet, in sheet pixels (zoom a viewer to it); a symbol's is the union of its instances; null when unknown."},
		"count":        {"description": "For a symbol: the instances of the legend entry on that block (as the parse found them)."},
		"score":        {"description": "Relevance; comparable within one answer only."},
	}
	hit := map[string]node{
		"drawing_id": {"description": "The drawing (revision) it belongs to."},
		"block_id":   {"description": "The block it is in, or null."},
		"why":        {"description": "Which retrievers found it: `lexical` (its words), `vocabulary` (abbreviations and synonyms of the words), `structure` (a sheet number, discipline, block type or legend label the query names).", "items": node{"type": "string", "enum": []string{search.Lexical, search.Vocabulary, search.Structure}}},
	}
	for k, v := range common {
		hit[k] = v
	}
	fieldDocs[reflect.TypeFor[search.Hit]()] = hit
	fieldDocs[reflect.TypeFor[search.Source]()] = common
	fieldDocs[reflect.TypeFor[search.Meta]()] = map[string]node{
		"retrievers": {"description": "The retrievers that ran: lexical, vocabulary (when the query has known abbreviations or synonyms), structure, and trigram (PostgreSQL with pg_trgm, for query words the full-text index lacks).", "items": node{"type": "string"}},
		"semantic":   {"description": "Whether semantic vectors were used: always false (not configured in this version)."},
		"visual":     {"description": "Whether visual search ran: always false (not available yet)."},
		"indexed":    {"description": "Rows the project has in the search index; 0 means nothing has been ingested yet."},
		"expanded":   {"description": "The vocabulary expansions used, `query words → other forms`.", "items": node{"type": "string"}},
		"reason":     {"description": "Why there are no results, when there are none."},
	}
	fieldDocs[reflect.TypeFor[search.Answer]()] = map[string]node{
		"answer":        {"description": "The answer in words, taken from the cited rows only; says so when the drawings do not answer it."},
		"question_type": {"description": "How the question was understood: `count`, `sheets`, `lookup`, `changes` (what changed between revisions, from compare results), or `passage` (answered with the closest passages).", "enum": []string{"count", "sheets", "lookup", "changes", "passage"}},
		"sources":       {"description": "The rows the answer is taken from (at most max_sources)."},
		"confidence":    {"description": "0–1: 0 when nothing was found, under 0.5 when the answer is only the closest match or counts over sheets some of which were never parsed.", "minimum": 0, "maximum": 1},
		"answered_by":   {"description": "`index`: computed from the search index without a language model.", "enum": []string{search.AnsweredByIndex}},
	}
}

const sourceTypesText = "`sheet`, `block`, `legend_entry`, `symbol` (a legend entry's instances on one block, with `count`), `word` (a line of a sheet's words) or `change` (what the sheet's latest comparison with an older revision found: a summary per compared sheet, with `count` changes, whose source_id is the compare job; a described change, source_id the change's id; a view added or removed)."

// searchOps are POST /v1/projects/{id}/search and /ask.
func searchOps() []op {
	projectID := pathID("prj", "project")
	query := node{"type": "string", "minLength": 1, "maxLength": search.MaxQuery}
	searchBody := object([]string{"query"}, node{
		"query": with(query, "What to look for: words, abbreviations (EF, GFI, RCP), sheet numbers (A-101 = A101 = A 101). Quotes, `*`, `NEAR` and other full-text syntax are searched as plain words."),
		"types": node{"type": "array", "items": node{"type": "string", "enum": index.Types}, "description": "Only results of these types: " + sourceTypesText},
		"filters": object(nil, node{
			"drawing_id":   str("Only this drawing (revision) of the project."),
			"discipline":   enumOf("Only sheets of this discipline.", sheetmeta.Disciplines()),
			"sheet_number": str("Only this sheet (compared without separators and case: A-101 = a101)."),
			"block_type":   enumOf("Only blocks (and their legend entries, symbols and words) of this type.", schema.BlockTypes),
		}),
		"limit":     node{"type": "integer", "minimum": 1, "maximum": search.MaxLimit, "description": fmt.Sprintf("At most this many results (default %d).", search.DefaultLimit)},
		"image_url": str("Visual search by image: not available yet; a request with it is answered 400."),
		"region":    node{"type": "object", "description": "Visual search by a sheet region: not available yet; a request with it is answered 400."},
	})
	askBody := object([]string{"question"}, node{
		"question":    with(query, "A question in English: counts (`how many exhaust fans on the second floor?`), sheet lists (`which sheets are electrical?`), lookups (`where is the panel schedule?`, `what is detail 5 on A3?`)."),
		"drawing_id":  str("Answer from this drawing (revision) only."),
		"max_sources": node{"type": "integer", "minimum": 1, "maximum": search.MaxSources, "description": fmt.Sprintf("At most this many cited sources (default %d).", search.DefaultSources)},
	})
	errText := map[int]string{
		400: "The request is invalid (VALIDATION_ERROR with `errors` by field: an empty or too long query, an unknown type or filter value, a drawing of another project, or `image_url`/`region`: visual search is not available yet).",
		404: "No such project in this organization (NOT_FOUND).",
	}
	return []op{
		{method: "POST", path: "/v1/projects/{id}/search", id: "searchProject", handler: jsonOp((*API).searchProject), class: ratelimit.Vision, tag: "Search",
			summary: "Search a project's drawings",
			desc: "Searches the project's index — sheets (number, title, discipline), blocks (type, title), legend entries (label, description), symbol counts " +
				"(legend entry × block) and lines of the sheets' words — built when drawings are ingested and parsed. Retrievers: full text on the query's words " +
				"ranked by BM25 (k1 1.2, b 0.75, over the project's rows), the same on the construction vocabulary's forms of them (REC = receptacle, EF = exhaust fan…), " +
				"structure (sheet numbers, disciplines, block types, legend labels the query names) and, on PostgreSQL with pg_trgm, trigram similarity for words the index " +
				"lacks; their rankings are fused by reciprocal rank fusion (Σ 1/(60 + rank)), duplicates merged, the newest drawing first on ties. Semantic and visual " +
				"search are not available (`_meta` says so). A project with nothing indexed answers an empty list whose `_meta.reason` says why.",
			params: []node{projectID}, body: body(searchBody, true, "The search."),
			ok: map[int]node{200: okJSON("The results, best first.", object([]string{"data", "_meta"}, node{
				"data":  node{"type": "array", "items": schemaRef("SearchResult")},
				"_meta": schemaRef("SearchMeta"),
			}))},
			errs: []int{400, 401, 404, 413, 415, 429, 500, 503}, errText: errText},
		{method: "POST", path: "/v1/projects/{id}/ask", id: "askProject", handler: jsonOp((*API).askProject), class: ratelimit.Vision, tag: "Search",
			summary: "Ask a question about a project's drawings",
			desc: "Answers from the search index without a language model (`answered_by: index`): counts sum the parsed symbol instances of the legend entries " +
				"that name the thing asked about (through the vocabulary), per sheet, on the floors or sheet the question names (by block and sheet titles), and say which " +
				"sheets in scope were never parsed; sheet lists go by discipline or title words; lookups return the block, sheet or words that contain every word asked for. " +
				"Every answer cites the rows it comes from; when the index cannot answer, the answer says so with low confidence and never invents a number.",
			params: []node{projectID}, body: body(askBody, true, "The question."),
			ok:   map[int]node{200: okJSON("The answer.", object([]string{"data"}, node{"data": schemaRef("Answer")}))},
			errs: []int{400, 401, 404, 413, 415, 429, 500, 503}, errText: errText},
	}
}

func with(n node, desc string) node {
	out := maps(n)
	out["description"] = desc
	return out
}
