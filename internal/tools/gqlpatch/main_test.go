package main

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

const sample = `package generated

import (
	"context"
	"errors"
	"math"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

func (ec *executionContext) _Sheet_dpi(ctx context.Context, field graphql.CollectedField, obj *ent.Sheet) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_Sheet_dpi(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			return obj.Dpi, nil
		},
		nil,
		func(ctx context.Context, selections ast.SelectionSet, v int) graphql.Marshaler {
			return ec.marshalNInt2ᚐint(ctx, selections, v)
		},
		true,
		true,
	)
}

func (ec *executionContext) _Sheet_title(ctx context.Context, field graphql.CollectedField, obj *ent.Sheet) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_Sheet_title(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			return obj.Title, nil
		},
		nil,
		func(ctx context.Context, selections ast.SelectionSet, v string) graphql.Marshaler {
			return ec.marshalNString2string(ctx, selections, v)
		},
		true,
		true,
	)
}

func (ec *executionContext) fieldContext_Sheet_title(_ context.Context, field graphql.CollectedField) (fc *graphql.FieldContext, err error) {
	return graphql.NewScalarFieldContext("Sheet", field, false, false, errors.New("field of type String does not have child fields"))
}

func (ec *executionContext) marshalNString2string(ctx context.Context, sel ast.SelectionSet, v string) graphql.Marshaler {
	_ = sel
	res := graphql.MarshalString(v)
	if res == graphql.Null {
		if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {
			graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")
		}
	}
	return res
}

func (ec *executionContext) _Sheet_createdAt(ctx context.Context, field graphql.CollectedField, obj *ent.Sheet) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_Sheet_createdAt(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			return obj.CreatedAt, nil
		},
		nil,
		func(ctx context.Context, selections ast.SelectionSet, v time.Time) graphql.Marshaler {
			return ec.marshalNTime2timeᚐTime(ctx, selections, v)
		},
		true,
		true,
	)
}

func (ec *executionContext) fieldContext_Sheet_createdAt(_ context.Context, field graphql.CollectedField) (fc *graphql.FieldContext, err error) {
	return graphql.NewScalarFieldContext("Sheet", field, false, false, errors.New("field of type Time does not have child fields"))
}

func (ec *executionContext) marshalNTime2timeᚐTime(ctx context.Context, sel ast.SelectionSet, v time.Time) graphql.Marshaler {
	_ = sel
	res := graphql.MarshalTime(v)
	if res == graphql.Null {
		if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {
			graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")
		}
	}
	return res
}

func (ec *executionContext) _Sheet_drawing(ctx context.Context, field graphql.CollectedField, obj *ent.Sheet) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_Sheet_drawing(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			return obj.Drawing, nil
		},
		nil,
		func(ctx context.Context, selections ast.SelectionSet, v *ent.Drawing) graphql.Marshaler {
			return ec.marshalNDrawing2ᚖ(ctx, selections, v)
		},
		true,
		true,
	)
}

func (ec *executionContext) fieldContext_Sheet_dpi(_ context.Context, field graphql.CollectedField) (fc *graphql.FieldContext, err error) {
	return graphql.NewScalarFieldContext("Sheet", field, false, false, errors.New("field of type Int does not have child fields"))
}

func (ec *executionContext) _Sheet(ctx context.Context, sel ast.SelectionSet, obj *ent.Sheet) graphql.Marshaler {
	fields := graphql.CollectFields(ec.OperationContext, sel, sheetImplementors)

	out := graphql.NewFieldSet(fields)
	deferredFieldSet := graphql.NewFieldSet(nil)
	deferLabelToView := make(map[string]*graphql.FieldSetView)
	for i, field := range fields {
		switch field.Name {
		case "drawing":
			field := field
			innerFunc := func(ctx context.Context, fs *graphql.FieldSet) (res graphql.Marshaler) {
				return ec._Sheet_drawing(ctx, field, obj)
			}

			if field.IsDeferred() {
				deferredFieldSet.AddField(field)
				fieldIndex := len(deferredFieldSet.Values) - 1
				deferredFieldSet.Concurrently(fieldIndex, func(ctx context.Context) graphql.Marshaler {
					return innerFunc(ctx, deferredFieldSet)
				})

				for _, deferrable := range field.Deferrables {
					view, ok := deferLabelToView[deferrable.Label]
					if !ok {
						view = deferredFieldSet.NewView()
						deferLabelToView[deferrable.Label] = view
					}
					view.AddIndices(fieldIndex)
				}

				// don't run the out.Concurrently() call below
				out.Values[i] = graphql.Null
				continue
			}

			out.Concurrently(i, func(ctx context.Context) graphql.Marshaler { return innerFunc(ctx, out) })
		}
	}
	out.Dispatch(ctx)
	if out.Invalids > 0 {
		return graphql.Null
	}

	atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))

	ec.ProcessDeferredGroup(graphql.DeferredGroup{
		Defers:   deferLabelToView,
		Path:     graphql.GetPath(ctx),
		FieldSet: deferredFieldSet,
		Context:  ctx,
	})

	return out
}

func (ec *executionContext) marshalNSheet2ᚕ(ctx context.Context, v []*ent.Sheet) graphql.Marshaler {
	ret := graphql.MarshalSliceConcurrently(ctx, len(v), 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		return ec.marshalNSheet2ᚖ(ctx, v[i])
	})
	return ret
}
`

func TestPatch(t *testing.T) {
	out, err := patch([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`"github.com/plangraph/plangraph/graph/execfast"`,
		"execfast.MarshalSlice(ctx, len(v), 0, false,",
		`graphql.NewScalarFieldContext("Sheet", field, false, false, errNoChildFieldsInt)`,
		`= errors.New("field of type Int does not have child fields")`,
		"if len(deferLabelToView) > 0 {\n\t\tatomic.AddInt32(",
		"if execfast.Direct(ec.OperationContext) {\n\t\treturn execfast.Leaf[int](ctx, ec.OperationContext, field, \"Sheet\", scalarChildInt, obj.Dpi, ec.marshalNInt2ᚐint)\n\t}\n\treturn graphql.ResolveField(",
		"= execfast.ScalarChild(errNoChildFieldsInt)",
		"\tout := graphql.NewFieldSet(fields)\n\tvar deferredFieldSet *graphql.FieldSet\n\tvar deferLabelToView map[string]*graphql.FieldSetView\n",
		"if field.IsDeferred() {\n\t\t\t\tif deferLabelToView == nil {\n\t\t\t\t\tdeferredFieldSet = graphql.NewFieldSet(nil)\n\t\t\t\t\tdeferLabelToView = make(map[string]*graphql.FieldSetView)\n\t\t\t\t}\n\t\t\t\tdeferredFieldSet.AddField(field)",
		"\n\treturn execfast.Object(fields, out.Values)\n}\n",
		"if execfast.Direct(ec.OperationContext) && !obj.CreatedAt.IsZero() {\n\t\treturn execfast.Time(obj.CreatedAt)\n\t}\n\tif execfast.Direct(ec.OperationContext) {\n\t\treturn execfast.Leaf[time.Time](ctx, ec.OperationContext, field, \"Sheet\", scalarChildTime, obj.CreatedAt, ec.marshalNTime2timeᚐTime)\n\t}\n\treturn graphql.ResolveField(",
		"if execfast.Direct(ec.OperationContext) {\n\t\treturn ec.marshalNString2string(ctx, field.Selections, obj.Title)\n\t}\n\treturn graphql.ResolveField(",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("patched code lacks %q:\n%s", want, s)
		}
	}
	// the object field (its context is not a scalar's) keeps gqlgen's path alone
	if strings.Count(s, "execfast.Leaf[") != 2 || strings.Count(s, "graphql.ResolveField(") != 4 || strings.Contains(s, "scalarChildString") {
		t.Errorf("leaf rewrite wrong:\n%s", s)
	}
	if strings.Contains(s, "MarshalSliceConcurrently") || strings.Count(s, "errors.New(") != 3 {
		t.Errorf("left unpatched:\n%s", s)
	}
	if _, err := patch(out); err == nil {
		t.Error("patching twice succeeded")
	}
}

// A gqlgen whose output no longer holds what a rewrite matches fails
// generation rather than silently dropping the rewrite.
func TestPatchRefusesChangedCode(t *testing.T) {
	for _, drop := range []string{"graphql.MarshalSliceConcurrently(", `errors.New("field of type Int`, "ec.ProcessDeferredGroup(", "return obj.Dpi, nil",
		"deferredFieldSet := graphql.NewFieldSet(nil)", "if field.IsDeferred() {", "deferLabelToView[deferrable.Label] = view", "\treturn out\n"} {
		src := strings.ReplaceAll(sample, drop, "somethingElse(")
		if _, err := patch([]byte(src)); err == nil {
			t.Errorf("without %q: no error", drop)
		}
	}
}

// The committed executor is the patched one (make check-generate compares
// it with a fresh generation).
func TestGeneratedIsPatched(t *testing.T) {
	src, err := os.ReadFile("../../../graph/generated/generated.go")
	if err != nil {
		t.Fatal(err) // the executor is committed beside this tool
	}
	if strings.Contains(string(src), "MarshalSliceConcurrently") || !strings.Contains(string(src), "execfast.MarshalSlice(") || !strings.Contains(string(src), "execfast.Leaf[") || !strings.Contains(string(src), "execfast.Object(") || !strings.Contains(string(src), "execfast.Time(") {
		t.Fatal("graph/generated/generated.go is not patched: run make generate")
	}
}

// The marshallers totalRE lets run without a field context never return
// Null (the only case in which they read their context) for any value.
func TestTotalMarshallers(t *testing.T) {
	for _, s := range []string{"", "x", "\xff\xfe", strings.Repeat("é", 1000)} {
		if graphql.MarshalString(s) == graphql.Null || graphql.MarshalID(s) == graphql.Null {
			t.Errorf("%q marshals to null", s)
		}
	}
	for _, i := range []int{0, -1, math.MaxInt, math.MinInt} {
		if graphql.MarshalInt(i) == graphql.Null {
			t.Errorf("%d marshals to null", i)
		}
	}
	for _, b := range []bool{false, true} {
		if graphql.MarshalBoolean(b) == graphql.Null {
			t.Errorf("%v marshals to null", b)
		}
	}
}
