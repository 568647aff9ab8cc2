package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Limits bound what one GraphQL operation may ask for. They are checked
// once the operation is parsed and validated, before anything runs.
type Limits struct {
	// MaxDepth is the deepest nesting of fields (the root fields are 1).
	MaxDepth int
	// MaxAliases is the most aliased fields, counted as often as the
	// fragments holding them are spread.
	MaxAliases int
	// MaxFields is the most fields, counted the same way (it also bounds
	// the work of checking an operation).
	MaxFields int
	// MaxComplexity bounds the operation's cost: each field costs 1 plus
	// its selections', a connection 1 plus its page size (first or last,
	// DefaultPage when neither is given, at most MaxPage) times its
	// selections', and nodes(ids:) 1 plus the ids times its selections'.
	MaxComplexity int
	// MaxNodeIDs is the most ids nodes(ids:) takes.
	MaxNodeIDs int
}

// DefaultLimits are the limits the server applies.
func DefaultLimits() Limits {
	return Limits{MaxDepth: 15, MaxAliases: 30, MaxFields: 2000, MaxComplexity: 5000, MaxNodeIDs: MaxPage}
}

// DefaultPage is a connection's page when neither first nor last is given.
const DefaultPage = 20

// VisionFields are the root fields of the vision class (ratelimit.Vision:
// the operations REST's POST /v1/parse, /compare, /overlays/{id}/analyze,
// /projects/{id}/search and /ask are), each charged to that class's budget,
// once per alias.
var VisionFields = []string{"Mutation.parse", "Mutation.compare", "Mutation.analyzeOverlay", "Query.search", "Query.ask"}

// Cost is what an operation is charged: its vision root fields and its
// other root fields (aliases counted).
type Cost struct {
	Vision, Management int
}

// Charger charges an operation's cost to the caller's budgets before it
// runs (an error refuses the operation).
type Charger func(ctx context.Context, c Cost) error

// Guard is the gqlgen extension applying Limits and Charge to every
// operation, whatever transport brought it (HTTP or a websocket). Each
// connection, however deep, is given a page: first: DefaultPage when
// neither first nor last is set, and first or last at most MaxPage, so
// that Ent's eager loading of nested connections reads a page, never all
// rows.
type Guard struct {
	Limits Limits
	Charge Charger
	vision map[string]bool
}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = &Guard{}

// ExtensionName names the extension.
func (*Guard) ExtensionName() string { return "OperationLimits" }

// Validate is called once with the schema.
func (g *Guard) Validate(graphql.ExecutableSchema) error {
	g.vision = map[string]bool{}
	for _, f := range VisionFields {
		g.vision[f] = true
	}
	return nil
}

// limitErr is a refusal of the operation, with a machine code.
func limitErr(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	errcode.Set(err, code)
	return err
}

// MutateOperationContext checks the operation, charges it and gives its
// connections their pages.
func (g *Guard) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := &walker{g: g, vars: oc.Variables, frags: map[string]*ast.FragmentDefinition{}}
	sel, cost, err := w.selections(oc.Operation.SelectionSet, 1)
	if err != nil {
		return err
	}
	if cost > g.Limits.MaxComplexity {
		return limitErr("COMPLEXITY_LIMIT_EXCEEDED", "operation has complexity %d, which exceeds the limit of %d (a connection costs its page size times its selections; ask for smaller pages or fewer nested connections)", cost, g.Limits.MaxComplexity)
	}
	if w.changed {
		op := *oc.Operation
		op.SelectionSet = sel
		doc := *oc.Doc
		doc.Operations = ast.OperationList{&op}
		doc.Fragments = make(ast.FragmentDefinitionList, 0, len(oc.Doc.Fragments))
		for _, f := range oc.Doc.Fragments {
			if nf, ok := w.frags[f.Name]; ok && nf != nil {
				f = nf
			}
			doc.Fragments = append(doc.Fragments, f)
		}
		oc.Operation, oc.Doc = &op, &doc
	}
	if g.Charge != nil {
		c := Cost{}
		root := "Query."
		switch oc.Operation.Operation {
		case ast.Mutation:
			root = "Mutation."
		case ast.Subscription:
			root = "Subscription."
		}
		for _, f := range graphql.CollectFields(oc, oc.Operation.SelectionSet, nil) {
			if g.vision[root+f.Name] {
				c.Vision++
			} else if !strings.HasPrefix(f.Name, "__") {
				c.Management++
			}
		}
		if e := g.Charge(ctx, c); e != nil {
			setRetryAfter(ctx, e)
			return gqlerror.WrapIfUnwrapped(e)
		}
	}
	return nil
}

// walker walks one operation: it counts fields and aliases, measures depth
// and complexity, and rewrites (copying, never changing the cached
// document) the connection fields whose page must be set.
type walker struct {
	g       *Guard
	vars    map[string]any
	fields  int
	aliases int
	changed bool
	// frags are the fragments rewritten so far (nil: visited, unchanged)
	frags map[string]*ast.FragmentDefinition
}

// selections walks ss at depth, returning it (a copy when something below
// changed) and its complexity.
func (w *walker) selections(ss ast.SelectionSet, depth int) (ast.SelectionSet, int, *gqlerror.Error) {
	out := ss
	copied := false
	set := func(i int, s ast.Selection) {
		if !copied {
			out = append(ast.SelectionSet(nil), ss...)
			copied = true
		}
		out[i] = s
	}
	total := 0
	for i, s := range ss {
		switch s := s.(type) {
		case *ast.Field:
			nf, cost, err := w.field(s, depth)
			if err != nil {
				return nil, 0, err
			}
			if nf != s {
				set(i, nf)
			}
			total = addCost(total, cost)
		case *ast.InlineFragment:
			sub, cost, err := w.selections(s.SelectionSet, depth)
			if err != nil {
				return nil, 0, err
			}
			if !sameSet(sub, s.SelectionSet) {
				c := *s
				c.SelectionSet = sub
				set(i, &c)
			}
			total = addCost(total, cost)
		case *ast.FragmentSpread:
			if s.Definition == nil {
				continue
			}
			sub, cost, err := w.selections(s.Definition.SelectionSet, depth)
			if err != nil {
				return nil, 0, err
			}
			if !sameSet(sub, s.Definition.SelectionSet) {
				d := *s.Definition
				d.SelectionSet = sub
				w.frags[d.Name] = &d
				c := *s
				c.Definition = &d
				set(i, &c)
			}
			total = addCost(total, cost)
		}
	}
	return out, total, nil
}

func sameSet(a, b ast.SelectionSet) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// field walks one field.
func (w *walker) field(f *ast.Field, depth int) (*ast.Field, int, *gqlerror.Error) {
	l := w.g.Limits
	w.fields++
	if w.fields > l.MaxFields {
		return nil, 0, limitErr("FIELD_LIMIT_EXCEEDED", "operation selects more than %d fields (fragments counted each time they are spread)", l.MaxFields)
	}
	if depth > l.MaxDepth {
		return nil, 0, limitErr("DEPTH_LIMIT_EXCEEDED", "operation is nested more than %d fields deep", l.MaxDepth)
	}
	if f.Alias != "" && f.Alias != f.Name {
		w.aliases++
		if w.aliases > l.MaxAliases {
			return nil, 0, limitErr("ALIAS_LIMIT_EXCEEDED", "operation has more than %d aliased fields", l.MaxAliases)
		}
	}
	out := f
	sub, child, err := w.selections(f.SelectionSet, depth+1)
	if err != nil {
		return nil, 0, err
	}
	if !sameSet(sub, f.SelectionSet) {
		c := *f
		c.SelectionSet = sub
		out = &c
	}
	if f.Definition == nil {
		return out, addCost(1, child), nil
	}
	times := 1
	switch {
	case isConnection(f.Definition):
		args, n, changed := pageArgs(f, w.vars)
		if changed {
			if out == f {
				c := *f
				out = &c
			}
			out.Arguments = args
			w.changed = true
		}
		times = n
	case f.Name == "nodes" && f.ObjectDefinition != nil && f.ObjectDefinition.Name == "Query":
		ids, _ := f.ArgumentMap(w.vars)["ids"].([]any)
		if len(ids) > l.MaxNodeIDs {
			return nil, 0, limitErr("TOO_MANY_IDS", "nodes takes at most %d ids (got %d)", l.MaxNodeIDs, len(ids))
		}
		times = max(len(ids), 1)
	}
	if out != f {
		w.changed = true
	}
	return out, addCost(1, mulCost(times, child)), nil
}

// isConnection reports whether d is a Relay connection with first/last.
func isConnection(d *ast.FieldDefinition) bool {
	return d.Type != nil && strings.HasSuffix(d.Type.Name(), "Connection") &&
		d.Arguments.ForName("first") != nil && d.Arguments.ForName("last") != nil
}

// pageArgs are f's arguments with its page set: first: DefaultPage when
// neither first nor last is given, first and last at most MaxPage (a
// negative value is left for the resolver to refuse). n is the page size;
// changed says whether the arguments differ from f's.
func pageArgs(f *ast.Field, vars map[string]any) (args ast.ArgumentList, n int, changed bool) {
	m := f.ArgumentMap(vars)
	first, hasFirst := intArg(m["first"])
	last, hasLast := intArg(m["last"])
	args = f.Arguments
	set := func(name string, v int) {
		if !changed {
			args = append(ast.ArgumentList(nil), f.Arguments...)
			changed = true
		}
		val := &ast.Value{Kind: ast.IntValue, Raw: fmt.Sprint(v)}
		for i, a := range args {
			if a.Name == name {
				c := *a
				c.Value = val
				args[i] = &c
				return
			}
		}
		args = append(args, &ast.Argument{Name: name, Value: val, Position: f.Position})
	}
	switch {
	case !hasFirst && !hasLast:
		set("first", DefaultPage)
		return args, DefaultPage, changed
	}
	n = 0
	if hasFirst {
		if first > MaxPage {
			first = MaxPage
			set("first", first)
		}
		n = max(n, first)
	}
	if hasLast {
		if last > MaxPage {
			last = MaxPage
			set("last", last)
		}
		n = max(n, last)
	}
	return args, max(n, 0), changed
}

// intArg reads an Int argument's value (int64 from a literal, an int or
// json.Number-like value from variables).
func intArg(v any) (int, bool) {
	if v == nil {
		return 0, false
	}
	i, err := graphql.UnmarshalInt(v)
	if err != nil {
		return 0, false
	}
	return i, true
}

// addCost and mulCost saturate instead of overflowing.
func addCost(a, b int) int {
	if a > maxCost-b {
		return maxCost
	}
	return a + b
}

func mulCost(a, b int) int {
	if a != 0 && b > maxCost/a {
		return maxCost
	}
	return a * b
}

const maxCost = 1 << 40
