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
		"why":        {"description": "Which retrievers found it: `lexical` (its words), `vocabulary` (abbreviations and synonyms of the words), `structure` (a sheet number, discipline, block type or legend label the query names), `visual` (the image or region shows its legend symbol; the snippet gives the matcher's confidence).", "items": node{"type": "string", "enum": []string{search.Lexical, search.Vocabulary, search.Structure, search.Visual}}},
	}
	for k, v := range common {
		hit[k] = v
	}
	fieldDocs[reflect.TypeFor[search.Hit]()] = hit
	fieldDocs[reflect.TypeFor[search.Source]()] = common
	fieldDocs[reflect.TypeFor[search.Meta]()] = map[string]node{
		"retrievers": {"description": "The retrievers that ran: lexical, vocabulary (when the query has known abbreviations or synonyms), structure, trigram (PostgreSQL with pg_trgm, for query words the full-text index lacks) and semantic (when the operator configured an embeddings endpoint) on a query; visual on an image or region.", "items": node{"type": "string"}},
		"semantic":   {"description": "Whether semantic vectors were compared: true when the operator configured an embeddings endpoint (`--embeddings-url`) and it embedded the query; false otherwise (search is lexical, vocabulary and structure). Rows not embedded yet, or a failing endpoint, are said in `notes`."},
		"visual":     {"description": "Whether an image or region was compared with the project's legend symbols."},
		"indexed":    {"description": "Rows the project has in the search index; 0 means nothing has been ingested yet."},
		"expanded":   {"description": "The vocabulary expansions used, `query words → other forms`.", "items": node{"type": "string"}},
		"reason":     {"description": "Why there are no results, when there are none."},
		"notes":      {"description": "What a visual search left out: legend symbols past the most compared, the time budget reached, no legend symbols indexed.", "items": node{"type": "string"}},
	}
	fieldDocs[reflect.TypeFor[search.Answer]()] = map[string]node{
		"answer":        {"description": "The answer in words, taken from the cited rows only; says so when the drawings do not answer it."},
		"question_type": {"description": "How the question was understood: `count`, `sheets`, `lookup`, `changes` (what changed between revisions, from compare results), or `passage` (answered with the closest passages).", "enum": []string{"count", "sheets", "lookup", "changes", "passage"}},
		"sources":       {"description": "The rows the answer is taken from (at most max_sources)."},
		"confidence":    {"description": "0–1: 0 when nothing was found, under 0.5 when the answer is only the closest match or counts over sheets some of which were never parsed.", "minimum": 0, "maximum": 1},
		"answered_by":   {"description": "`index`: computed from the search index without a language model; `llm`: a lookup or open question worded by the operator's language model (`--llm-url`) from the cited sources only, every sentence citing one as [n] (n: its place in `sources`). Counts, sheet lists and changes are always the index's.", "enum": []string{search.AnsweredByIndex, search.AnsweredByLLM}},
	}
}

const sourceTypesText = "`sheet`, `block`, `legend_entry`, `symbol` (a legend entry's instances on one block, with `count`), `word` (a line of a sheet's words) or `change` (what the sheet's latest comparison with an older revision found: a summary per compared sheet, with `count` changes, whose source_id is the compare job; a described change, source_id the change's id; a view added or removed)."

// searchOps are POST /v1/projects/{id}/search and /ask.
func searchOps() []op {
	projectID := pathID("prj", "project")
	query := node{"type": "string", "minLength": 1, "maxLength": search.MaxQuery}
	bound := func(name string) node {
		return node{"type": "number", "minimum": 0, "description": name + ", sheet pixels."}
	}
	searchBody := object(nil, node{
		"query": with(query, "What to look for: words, abbreviations (EF, GFI, RCP), sheet numbers (A-101 = A101 = A 101). Quotes, `*`, `NEAR` and other full-text syntax are searched as plain words. At least one of `query`, `image_url` and `region` is required."),
		"types": node{"type": "array", "items": node{"type": "string", "enum": index.Types}, "description": "Only results of these types: " + sourceTypesText},
		"filters": object(nil, node{
			"drawing_id":   str("Only this drawing (revision) of the project."),
			"discipline":   enumOf("Only sheets of this discipline.", sheetmeta.Disciplines()),
			"sheet_number": str("Only this sheet (compared without separators and case: A-101 = a101)."),
			"block_type":   enumOf("Only blocks (and their legend entries, symbols and words) of this type.", schema.BlockTypes),
		}),
		"limit":     node{"type": "integer", "minimum": 1, "maximum": search.MaxLimit, "description": fmt.Sprintf("At most this many results (default %d).", search.DefaultLimit)},
		"image_url": str("Visual search by image: a picture of a symbol (PNG, JPEG or TIFF) as a `data:` URL, this service's `/v1/blocks/{id}/image` or `/v1/files/{id}`, or an https URL on the operator's allowlist (the rules of parse's symbol images). It is compared with the project's legend symbols at any rotation, mirrored or not, at 0.5–2× their size; results are the legend entries it shows and their instances per block (`symbol` rows with counts), by the matcher's confidence. Not with `region`."),
		"region": object([]string{"sheet_id", "bounds"}, node{
			"sheet_id": str("A sheet of this project."),
			"bounds": object([]string{"x_min", "y_min", "x_max", "y_max"}, node{
				"x_min": bound("Left"), "y_min": bound("Top"), "x_max": bound("Right"), "y_max": bound("Bottom"),
			}),
		}),
	})
	searchBody["properties"].(node)["region"].(node)["description"] = "Visual search by a part of a sheet (a symbol or a few, at most " + fmt.Sprint(search.MaxRegionPixels) +
		" pixels): the legend symbols drawn there, read with the drawing around the region, and their instances across the project, as for `image_url`. Not with `image_url`."
	askBody := object([]string{"question"}, node{
		"question":    with(query, "A question in English: counts (`how many exhaust fans on the second floor?`), sheet lists (`which sheets are electrical?`), lookups (`where is the panel schedule?`, `what is detail 5 on A3?`)."),
		"drawing_id":  str("Answer from this drawing (revision) only."),
		"max_sources": node{"type": "integer", "minimum": 1, "maximum": search.MaxSources, "description": fmt.Sprintf("At most this many cited sources (default %d).", search.DefaultSources)},
	})
	errText := map[int]string{
		400: "The request is invalid (VALIDATION_ERROR with `errors` by field: no query, image_url or region; an empty or too long query, an unknown type or filter value, a drawing of another project; an image that is not a PNG, JPEG or TIFF, too large, blank, or at a URL that is not fetched; a region on a sheet of another project, outside the sheet or too large).",
		404: "No such project in this organization (NOT_FOUND).",
	}
	return []op{
		{method: "POST", path: "/v1/projects/{id}/search", id: "searchProject", handler: jsonOp((*API).searchProject), class: ratelimit.Vision, tag: "Search",
			summary: "Search a project's drawings",
			desc: "Searches the project's index — sheets (number, title, discipline), blocks (type, title), legend entries (label, description), symbol counts " +
				"(legend entry × block) and lines of the sheets' words — built when drawings are ingested and parsed. Retrievers: full text on the query's words " +
				"ranked by BM25 (k1 1.2, b 0.75, over the project's rows), the same on the construction vocabulary's forms of them (REC = receptacle, EF = exhaust fan…), " +
				"structure (sheet numbers, disciplines, block types, legend labels the query names) and, on PostgreSQL with pg_trgm, trigram similarity for words the index " +
				"lacks; an image or a region of a sheet (visual search) is compared with the project's legend symbols by the symbol matcher, which returns the " +
				"symbols it shows and their parsed instances by confidence. Rankings are fused by reciprocal rank fusion (Σ 1/(60 + rank)), duplicates merged, the newest drawing first on ties. With an " +
				"operator's OpenAI-compatible embeddings endpoint (`--embeddings-url`), workers embed every row's text and a semantic retriever ranks rows by the cosine of their vectors with the query's (exact, rows within 0.15 of the nearest); without one `_meta.semantic` is false. A project with nothing indexed answers an empty list whose `_meta.reason` says why.",
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
