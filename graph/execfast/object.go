package execfast

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// Object writes an object's resolved fields as a JSON object, as
// graphql.FieldSet's MarshalGQL does — every field in order under its alias,
// a repeated alias written once (its first value) — without the copy of each
// field that FieldSet's iterator allocates, nor the map of written aliases.
// The generated code returns it in place of the FieldSet once every field
// has been resolved (after Dispatch), so values holds no nil.
func Object(fields []graphql.CollectedField, values []graphql.Marshaler) graphql.Marshaler {
	return &object{fields: fields, values: values}
}

type object struct {
	fields []graphql.CollectedField
	values []graphql.Marshaler
}

// aliasesSeenByScan: up to this many fields, a repeated alias is found by
// scanning the ones before it; past it, by a map.
const aliasesSeenByScan = 32

func (o *object) MarshalGQL(w io.Writer) {
	var seen map[string]struct{}
	if len(o.fields) > aliasesSeenByScan {
		seen = make(map[string]struct{}, len(o.fields))
	}
	_, _ = io.WriteString(w, "{")
	first := true
	for i := range o.fields {
		alias := o.fields[i].Alias
		if repeated(o.fields[:i], alias, seen) {
			continue
		}
		if !first {
			_, _ = io.WriteString(w, ",")
		}
		first = false
		writeName(w, alias)
		_, _ = io.WriteString(w, ":")
		o.values[i].MarshalGQL(w)
	}
	_, _ = io.WriteString(w, "}")
}

// repeated tells whether alias was written before: by seen when there is
// one (and records it), else by the fields before it.
func repeated(before []graphql.CollectedField, alias string, seen map[string]struct{}) bool {
	if seen != nil {
		if _, ok := seen[alias]; ok {
			return true
		}
		seen[alias] = struct{}{}
		return false
	}
	for i := range before {
		if before[i].Alias == alias {
			return true
		}
	}
	return false
}

// writeName writes a response key as a JSON string. Keys are GraphQL names
// (letters, digits, underscore), which need no escaping; anything else goes
// through gqlgen's string marshaller.
func writeName(w io.Writer, name string) {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			graphql.MarshalString(name).MarshalGQL(w)
			return
		}
	}
	_, _ = io.WriteString(w, `"`)
	_, _ = io.WriteString(w, name)
	_, _ = io.WriteString(w, `"`)
}
