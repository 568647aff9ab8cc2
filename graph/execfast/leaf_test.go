package execfast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
)

func operation(t *testing.T, e *executor.Executor) *graphql.OperationContext {
	t.Helper()
	oc, errs := e.CreateOperationContext(graphql.StartOperationTrace(context.Background()), &graphql.RawParams{Query: "{ ok }"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return oc
}

type fieldSpy struct{}

func (fieldSpy) ExtensionName() string                   { return "spy" }
func (fieldSpy) Validate(graphql.ExecutableSchema) error { return nil }
func (fieldSpy) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	return next(ctx)
}

// Direct holds for the extensions the server uses (none intercepts fields)
// and not once any extension or AroundFields intercepts fields.
func TestDirect(t *testing.T) {
	e := executor.New(tinySchema{})
	if !Direct(operation(t, e)) {
		t.Fatal("no extensions: not direct")
	}
	e.Use(extension.Introspection{})
	e.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](10)})
	if !Direct(operation(t, e)) {
		t.Fatal("introspection and APQ: not direct")
	}
	e.Use(fieldSpy{})
	if Direct(operation(t, e)) {
		t.Fatal("a field interceptor: direct")
	}
	e2 := executor.New(tinySchema{})
	e2.AroundFields(func(ctx context.Context, next graphql.Resolver) (any, error) { return next(ctx) })
	if Direct(operation(t, e2)) {
		t.Fatal("AroundFields: direct")
	}
	if Direct(&graphql.OperationContext{}) {
		t.Fatal("no middleware: direct")
	}
}

// marshalNTime is what gqlgen generates for a non-null Time: a zero time
// marshals to null and reports an error on the field's path.
func marshalNTime(ctx context.Context, _ ast.SelectionSet, v time.Time) graphql.Marshaler {
	if v.Year() == 1999 {
		panic("boom")
	}
	res := graphql.MarshalTime(v)
	if res == graphql.Null {
		if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {
			graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")
		}
	}
	return res
}

var errNoChild = errors.New("field of type Time does not have child fields")

// Leaf answers and fails as gqlgen's ResolveField does for the same field:
// the same JSON, the same errors on the same paths, panics included.
func TestLeafMatchesResolveField(t *testing.T) {
	oc := operation(t, executor.New(tinySchema{}))
	field := graphql.CollectedField{Field: &ast.Field{Alias: "createdAt", Name: "createdAt"}}
	child := ScalarChild(errNoChild)
	resolve := func(direct bool, v time.Time) (string, []string) {
		ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
		ctx = graphql.WithOperationContext(ctx, oc)
		ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{Field: &ast.Field{Alias: "sheet"}}})
		var m graphql.Marshaler
		if direct {
			m = Leaf[time.Time](ctx, oc, field, "Sheet", child, v, marshalNTime)
		} else {
			m = graphql.ResolveField(ctx, oc, field,
				func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
					return graphql.NewScalarFieldContext("Sheet", field, false, false, errNoChild)
				},
				func(ctx context.Context) (any, error) { return v, nil },
				nil, marshalNTime, true, true)
		}
		var b bytes.Buffer
		m.MarshalGQL(&b)
		var errs []string
		for _, e := range graphql.GetErrors(ctx) {
			errs = append(errs, fmt.Sprintf("%v %s", e.Path, e.Message))
		}
		return b.String(), errs
	}
	for _, v := range []time.Time{time.Date(2026, 11, 28, 18, 0, 0, 5, time.UTC), {}, time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)} {
		want, wantErrs := resolve(false, v)
		got, gotErrs := resolve(true, v)
		if got != want || fmt.Sprint(gotErrs) != fmt.Sprint(wantErrs) {
			t.Errorf("%v: Leaf %s %q, ResolveField %s %q", v, got, gotErrs, want, wantErrs)
		}
		if v.IsZero() && len(wantErrs) != 1 {
			t.Errorf("zero time: want one error, got %q", wantErrs)
		}
	}
	if _, err := child(context.Background(), field); err != errNoChild {
		t.Errorf("child: %v", err)
	}
}

// Time writes what gqlgen's MarshalTime writes for every time that is set.
func TestTimeMatchesMarshalTime(t *testing.T) {
	east := time.FixedZone("", 5*3600+30*60)
	for _, v := range []time.Time{
		time.Date(2026, 11, 29, 2, 41, 3, 0, time.UTC),
		time.Date(2026, 11, 29, 2, 41, 3, 123456789, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, east),
		time.Date(-5, 3, 1, 0, 0, 0, 0, time.FixedZone("", -8*3600)),
		time.Date(12345, 6, 7, 8, 9, 10, 11, time.UTC),
		time.Now(),
	} {
		var want, got bytes.Buffer
		graphql.MarshalTime(v).MarshalGQL(&want)
		Time(v).MarshalGQL(&got)
		if got.String() != want.String() {
			t.Errorf("%v: got %s, want %s", v, got.String(), want.String())
		}
	}
}
