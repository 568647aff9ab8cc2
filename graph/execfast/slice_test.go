package execfast

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// run marshals n elements with f inside an operation and response context,
// as the executor does, and returns the JSON and the errors.
func run(t *testing.T, n int, f func(ctx context.Context, i int) graphql.Marshaler) (string, []string) {
	t.Helper()
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Field: graphql.CollectedField{}})
	arr := MarshalSlice(ctx, n, 0, false, f)
	var errs []string
	for _, e := range graphql.GetErrors(ctx) {
		errs = append(errs, fmt.Sprintf("%v %s", e.Path, e.Message))
	}
	if arr == nil {
		return "null", errs
	}
	var b bytes.Buffer
	arr.MarshalGQL(&b)
	return b.String(), errs
}

// Quick elements are marshalled in order on the caller's goroutine, each
// with its own index in its field context.
func TestMarshalSliceInOrder(t *testing.T) {
	var order []int
	got, errs := run(t, 5, func(ctx context.Context, i int) graphql.Marshaler {
		if idx := graphql.GetFieldContext(ctx).Index; idx == nil || *idx != i {
			t.Errorf("element %d: index %v", i, idx)
		}
		order = append(order, i) // no lock: the same goroutine
		return graphql.MarshalInt(i * 10)
	})
	if got != "[0,10,20,30,40]" || len(errs) != 0 {
		t.Fatalf("got %s %v", got, errs)
	}
	if fmt.Sprint(order) != "[0 1 2 3 4]" {
		t.Fatalf("order %v", order)
	}
}

// An element that waits (a resolver's query) sends the rest of the list to
// run concurrently: ten elements waiting 20 ms each take about two waits,
// not ten, and each keeps its index.
func TestMarshalSliceWaitingElementsRunTogether(t *testing.T) {
	var running, most atomic.Int32
	start := time.Now()
	got, _ := run(t, 10, func(ctx context.Context, i int) graphql.Marshaler {
		if idx := graphql.GetFieldContext(ctx).Index; idx == nil || *idx != i {
			t.Errorf("element %d: index %v", i, idx)
		}
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return graphql.MarshalInt(i)
	})
	if got != "[0,1,2,3,4,5,6,7,8,9]" {
		t.Fatalf("got %s", got)
	}
	if most.Load() < 2 {
		t.Fatalf("elements that wait ran one at a time (%v for ten)", time.Since(start))
	}
}

// A panicking element makes the list null and reports an error on its own
// path, in order and once the rest run concurrently.
func TestMarshalSlicePanic(t *testing.T) {
	for _, slowFirst := range []bool{false, true} {
		got, errs := run(t, 4, func(ctx context.Context, i int) graphql.Marshaler {
			if slowFirst && i == 0 {
				time.Sleep(2 * blocking)
			}
			if i == 2 {
				panic("boom")
			}
			return graphql.MarshalInt(i)
		})
		if got != "null" || len(errs) != 1 || errs[0] != "[2] internal system error" {
			t.Fatalf("slow first %v: got %s, errors %q", slowFirst, got, errs)
		}
	}
}
