package execfast

import (
	"context"
	"io"
	"reflect"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Leaf resolves a scalar field that gqlgen reads straight from its object's
// struct field (no resolver, no method, no directive), as graphql.ResolveField
// does when no extension intercepts fields: a field context naming the field
// (so the marshaller's errors carry its path), the value marshalled, a panic
// reported on the field's path. What it leaves out is the work only a field
// interceptor could observe — the resolver closure, the middleware chain and
// the result boxed into the field context — five allocations of every
// scalar in a response. The generated code calls it only when Direct says the
// operation has no field interceptor, and gqlgen's path otherwise.
func Leaf[T any](ctx context.Context, oc *graphql.OperationContext, field graphql.CollectedField, object string,
	child func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error), v T,
	marshal func(context.Context, ast.SelectionSet, T) graphql.Marshaler) (ret graphql.Marshaler) {
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: object, Field: field, Child: child})
	defer func() {
		if r := recover(); r != nil {
			oc.Error(ctx, oc.Recover(ctx, r))
			ret = graphql.Null
		}
	}()
	return marshal(ctx, field.Selections, v)
}

// ScalarChild is a scalar field context's Child: a scalar has no fields, so
// asking for one is err (gqlgen's NewScalarFieldContext makes this closure on
// every resolution; the generated code makes it once per scalar type).
func ScalarChild(err error) func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error) {
	return func(context.Context, graphql.CollectedField) (*graphql.FieldContext, error) { return nil, err }
}

// plainMiddleware is the code of the field middleware gqlgen's executor
// gives an operation when no extension intercepts fields.
var plainMiddleware = func() uintptr {
	oc, _ := executor.New(tinySchema{}).CreateOperationContext(graphql.StartOperationTrace(context.Background()), &graphql.RawParams{Query: "{ ok }"})
	return reflect.ValueOf(oc.ResolverMiddleware).Pointer()
}()

// Direct reports whether the operation's field middleware is gqlgen's own
// pass-through, that is no handler extension intercepts fields, so Leaf
// resolves a plain field exactly as ResolveField would.
func Direct(oc *graphql.OperationContext) bool {
	return oc.ResolverMiddleware != nil && reflect.ValueOf(oc.ResolverMiddleware).Pointer() == plainMiddleware
}

// tinySchema is the least executable schema an executor accepts, used once
// to learn what gqlgen gives an operation without extensions.
type tinySchema struct{}

var tiny = gqlparser.MustLoadSchema(&ast.Source{Name: "tiny", Input: "type Query { ok: Boolean }"})

func (tinySchema) Schema() *ast.Schema { return tiny }
func (tinySchema) Complexity(context.Context, string, string, int, map[string]any) (int, bool) {
	return 0, false
}
func (tinySchema) Exec(context.Context) graphql.ResponseHandler { return graphql.OneShot(nil) }

// Time writes a time that is set as gqlgen's MarshalTime does (RFC 3339
// with nanoseconds, quoted: no character of it needs escaping), formatted
// into a buffer on the stack instead of a string and its quoted copy. The
// zero time, which the schema's Time refuses, stays on the Leaf path.
func Time(t time.Time) graphql.Marshaler { return timeValue(t) }

type timeValue time.Time

func (t timeValue) MarshalGQL(w io.Writer) {
	var buf [48]byte
	b := append(buf[:0], '"')
	b = time.Time(t).AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	_, _ = w.Write(b)
}
