package execfast

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// Object writes what gqlgen's FieldSet writes for the same fields and values.
func TestObjectMatchesFieldSet(t *testing.T) {
	field := func(alias string) graphql.CollectedField {
		return graphql.CollectedField{Field: &ast.Field{Alias: alias, Name: alias}}
	}
	many := make([]string, 0, 50)
	for i := range 40 {
		many = append(many, fmt.Sprintf("f%d", i))
	}
	many = append(many, "f3", "f39", "g") // repeats past the scanned size
	for _, aliases := range [][]string{
		nil,
		{"id"},
		{"id", "title", "__typename"},
		{"a", "b", "a", "c", "b"},
		{"odd\"key", "näme"},
		many,
	} {
		fields := make([]graphql.CollectedField, len(aliases))
		values := make([]graphql.Marshaler, len(aliases))
		for i, a := range aliases {
			fields[i] = field(a)
			values[i] = graphql.MarshalInt(i)
		}
		values = append(values[:0:0], values...)
		fs := graphql.NewFieldSet(fields)
		copy(fs.Values, values)
		var want, got bytes.Buffer
		fs.MarshalGQL(&want)
		Object(fields, values).MarshalGQL(&got)
		if got.String() != want.String() {
			t.Errorf("aliases %q:\n got %s\nwant %s", aliases, got.String(), want.String())
		}
	}
}
