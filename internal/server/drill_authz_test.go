package server_test

// Fault drill: an authorization matrix generated from what the service
// publishes — every operation of its OpenAPI document and every root field
// of its GraphQL schema (introspection) — asked with no key, with a key
// that does not exist, and with another organization's key naming this
// organization's records. Each must be refused (401) or not find them
// (404, null), and no answer may carry this organization's data.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/testenv"
)

func TestDrillAuthorizationMatrix(t *testing.T) {
	p := testenv.Profiles(t)[0] // embedded: the checks are the service's, not the database's
	s := startPipelines(t, p)
	key := s.CreateKey(t, "acme")
	other := s.CreateKey(t, "globex")
	wrong := "sk_" + strings.Repeat("Q", 43)

	// acme's records, one of each kind
	_, pdf := synthPDF(t, 11)
	proj := createProject(t, s, key, "Secret tower").ID
	fl := uploadFile(t, s, key, proj, "secret.pdf", "application/pdf", pdf)
	var acc accepted
	postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": proj, "file_id": fl.ID}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc)
	if raw := waitJobREST(t, s, key, acc.Data.JobID); raw["status"] != "Completed" {
		t.Fatalf("ingest: %v", raw)
	}
	firstID := func(path string) string {
		var l struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		s.Get(t, key, path).ExpectStatus(t, http.StatusOK).JSON(t, &l)
		if len(l.Data) == 0 {
			t.Fatalf("%s: empty", path)
		}
		return l.Data[0].ID
	}
	ep := createWebhook(t, s, key, map[string]any{"url": publicHook})
	ids := map[string]string{
		"projects": proj, "files": fl.ID, "drawings": acc.Data.Drawing.ID, "jobs": acc.Data.JobID,
		"sheets": firstID("/v1/sheets?drawing_id=" + acc.Data.Drawing.ID), "webhook_endpoints": ep.ID,
	}
	ids["blocks"] = firstID("/v1/blocks?sheet_id=" + ids["sheets"])
	secrets := []string{"Secret tower", "secret.pdf"}
	for _, id := range ids {
		secrets = append(secrets, id)
	}
	leaks := func(body []byte, sent ...string) []string {
		var out []string
		b := string(body)
		for _, sv := range sent { // an id the request named may be echoed in its error
			b = strings.ReplaceAll(b, sv, "")
		}
		for _, sv := range secrets {
			if strings.Contains(b, sv) {
				out = append(out, sv)
			}
		}
		return out
	}

	// REST: every operation of the OpenAPI document that asks for a key
	var doc struct {
		Paths map[string]map[string]struct {
			Security *[]any `json:"security"`
		} `json:"paths"`
	}
	s.Get(t, "", "/v1/openapi.json").ExpectStatus(t, http.StatusOK).JSON(t, &doc)
	param := regexp.MustCompile(`\{[^}]+\}`)
	ops := 0
	for path, methods := range doc.Paths {
		for method, op := range methods {
			method = strings.ToUpper(method)
			if !slicesContains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, method) || (op.Security != nil && len(*op.Security) == 0) {
				continue // public, or a signed URL's (the signature is the credential)
			}
			ops++
			// {id}: acme's record of the collection the path names
			coll := strings.Split(strings.TrimPrefix(path, "/v1/"), "/")[0]
			var sent []string
			target := param.ReplaceAllStringFunc(path, func(string) string {
				id := ids[coll]
				if id == "" {
					id = "ovl_01jd7m3v2k8q9r4s5t6v7w8x9y" // a kind no record of here: missing
				}
				sent = append(sent, id)
				return id
			})
			var body any
			if method == "POST" || method == "PUT" || method == "PATCH" {
				// names acme's records, so a handler that looked them up
				// across organizations would act on them
				body = map[string]any{"project_id": proj, "file_id": fl.ID, "drawing_id": ids["drawings"], "sheet_id": ids["sheets"],
					"block_id": ids["blocks"], "compare_to": ids["drawings"], "old_id": ids["drawings"], "new_id": ids["drawings"]}
				sent = append(sent, proj, fl.ID, ids["drawings"], ids["sheets"], ids["blocks"])
			}
			for _, who := range []struct{ name, key string }{{"no key", ""}, {"a wrong key", wrong}} {
				res := s.Do(t, testenv.Request{Method: method, Path: target, Key: who.key, Body: body})
				if res.Status != http.StatusUnauthorized && res.Status != http.StatusTooManyRequests {
					t.Errorf("%s %s with %s: %d, want 401 (or 429 once the address has failed too often): %.200s", method, path, who.name, res.Status, res.Body)
				}
			}
			res := s.Do(t, testenv.Request{Method: method, Path: target, Key: other, Body: body})
			switch {
			case strings.Contains(path, "{"):
				// a body the operation does not take may be refused (400) before any lookup
				if res.Status != http.StatusNotFound && (body == nil || res.Status != http.StatusBadRequest) {
					t.Errorf("%s %s with another organization's key: %d, want 404: %.300s", method, target, res.Status, res.Body)
				}
			case res.Status/100 == 2 || res.Status == http.StatusNotFound || res.Status == http.StatusBadRequest:
				// a list of its own, or acme's ids in the body not found
			default:
				t.Errorf("%s %s with another organization's key: %d: %.300s", method, path, res.Status, res.Body)
			}
			if l := leaks(res.Body, sent...); len(l) > 0 {
				t.Errorf("%s %s with another organization's key answered acme's %v: %.300s", method, target, l, res.Body)
			}
		}
	}
	if ops < 30 {
		t.Fatalf("only %d operations with a key in the OpenAPI document", ops)
	}

	// GraphQL: every root field of the schema
	var schema struct {
		Data struct {
			Schema struct {
				Types []gqlType `json:"types"`
			} `json:"__schema"`
		} `json:"data"`
	}
	res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: map[string]any{"query": introspection}})
	res.ExpectStatus(t, http.StatusOK).JSON(t, &schema)
	types := map[string]gqlType{}
	for _, ty := range schema.Data.Schema.Types {
		types[ty.Name] = ty
	}
	fields := 0
	for _, root := range []string{"Query", "Mutation"} {
		for _, f := range types[root].Fields {
			fields++
			q, vars, byID := gqlCall(root, f, types, ids)
			for _, who := range []struct{ name, key string }{{"no key", ""}, {"a wrong key", wrong}} {
				res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: who.key, Body: map[string]any{"query": q, "variables": vars}})
				if res.Status != http.StatusUnauthorized && res.Status != http.StatusTooManyRequests {
					t.Errorf("GraphQL %s.%s with %s: %d, want 401 (or 429): %.200s", root, f.Name, who.name, res.Status, res.Body)
				}
			}
			res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: other, Body: map[string]any{"query": q, "variables": vars}})
			var out struct {
				Data map[string]json.RawMessage `json:"data"`
			}
			_ = json.Unmarshal(res.Body, &out)
			if l := leaks(out.Data[f.Name]); len(l) > 0 {
				t.Errorf("GraphQL %s.%s with another organization's key answered acme's %v: %.300s", root, f.Name, l, res.Body)
			}
			if byID && root == "Query" && out.Data != nil && string(out.Data[f.Name]) != "null" && !strings.Contains(string(res.Body), "NOT_FOUND") {
				t.Errorf("GraphQL %s.%s of acme's record with another organization's key: %.300s", root, f.Name, res.Body)
			}
		}
	}
	if fields < 20 {
		t.Fatalf("only %d root fields in the GraphQL schema", fields)
	}
	t.Logf("%d REST operations and %d GraphQL root fields, each with no key, a wrong key and another organization's", ops, fields)
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

const introspection = `{ __schema { types { name kind fields { name args { name type { ...T } } type { ...T } } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`

type gqlTypeRef struct {
	Kind   string      `json:"kind"`
	Name   *string     `json:"name"`
	OfType *gqlTypeRef `json:"ofType"`
}

func (r gqlTypeRef) named() (string, string) {
	for r.OfType != nil {
		r = *r.OfType
	}
	if r.Name == nil {
		return "", r.Kind
	}
	return *r.Name, r.Kind
}

func (r gqlTypeRef) String() string {
	switch r.Kind {
	case "NON_NULL":
		return r.OfType.String() + "!"
	case "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return *r.Name
}

type gqlField struct {
	Name string `json:"name"`
	Args []struct {
		Name string     `json:"name"`
		Type gqlTypeRef `json:"type"`
	} `json:"args"`
	Type gqlTypeRef `json:"type"`
}

type gqlType struct {
	Name   string     `json:"name"`
	Kind   string     `json:"kind"`
	Fields []gqlField `json:"fields"`
}

// gqlCall is an operation calling root field f with its required
// arguments: IDs are acme's records (by the argument's name), input
// objects empty, other scalars a plain value; the selection asks for
// __typename and id where there is one. byID says the field looks a record
// up by an id argument.
func gqlCall(root string, f gqlField, types map[string]gqlType, ids map[string]string) (string, map[string]any, bool) {
	var decl, args []string
	vars := map[string]any{}
	byID := false
	for _, a := range f.Args {
		if a.Type.Kind != "NON_NULL" && a.Name != "id" && a.Name != "ids" {
			continue
		}
		name, kind := a.Type.named()
		var v any
		switch {
		case name == "ID":
			id := ids["projects"]
			for coll, x := range ids {
				if strings.HasPrefix(strings.ToLower(a.Name), strings.TrimSuffix(strings.ReplaceAll(coll, "_", ""), "s")) {
					id = x
				}
			}
			if a.Name == "id" || a.Name == "ids" {
				byID = true
				id = ids[guessCollection(f.Name)]
			}
			v = id
			if a.Type.String() == "[ID!]!" || a.Type.String() == "[ID!]" {
				v = []string{id}
			}
		case kind == "INPUT_OBJECT":
			v = map[string]any{}
		case kind == "ENUM":
			continue
		case name == "Int":
			v = 1
		case name == "Boolean":
			v = true
		default:
			v = "x"
		}
		decl = append(decl, fmt.Sprintf("$%s: %s", a.Name, a.Type))
		args = append(args, fmt.Sprintf("%s: $%s", a.Name, a.Name))
		vars[a.Name] = v
	}
	sel := ""
	if name, kind := f.Type.named(); kind == "OBJECT" || kind == "INTERFACE" || kind == "UNION" {
		sel = "{ __typename }"
		if t, ok := types[name]; ok {
			for _, x := range t.Fields {
				if x.Name == "id" {
					sel = "{ __typename id }"
				}
			}
		}
	}
	op := strings.ToLower(root)
	call := f.Name
	if len(args) > 0 {
		call += "(" + strings.Join(args, ", ") + ")"
	}
	d := ""
	if len(decl) > 0 {
		sort.Strings(decl)
		d = "(" + strings.Join(decl, ", ") + ")"
	}
	return fmt.Sprintf("%s%s { %s %s }", op, d, call, sel), vars, byID
}

// guessCollection is the REST collection a root field's id names
// (drawing → drawings, webhookEndpoint → webhook_endpoints).
func guessCollection(field string) string {
	f := strings.ToLower(field)
	for _, c := range []string{"webhook_endpoints", "projects", "files", "drawings", "sheets", "blocks", "jobs"} {
		if strings.Contains(f, strings.ReplaceAll(strings.TrimSuffix(c, "s"), "_", "")) {
			return c
		}
	}
	return "projects" // node(id), nodes(ids): any record of acme's
}
