// Command gqlpatch rewrites the executor gqlgen generates (graph/generated)
// where gqlgen wastes work on every field and has no option to stop it; it
// runs right after gqlgen in graph's go:generate, so `make generate` and
// `make check-generate` see its output. Each rewrite must apply at least
// once: a gqlgen upgrade that changes the code it matches fails generation
// instead of silently losing the rewrite.
//
//   - Lists are marshalled by execfast.MarshalSlice (in order while the
//     elements are quick) instead of graphql.MarshalSliceConcurrently (a
//     goroutine per element).
//   - A scalar field's "has no child fields" error is made once, not on every
//     resolution of the field.
//   - An object without @defer fields skips the deferred group, whose path
//     gqlgen computes (allocating) before finding it empty.
//   - A scalar field read straight from its object's struct field is
//     marshalled directly when no extension intercepts fields
//     (execfast.Direct), by gqlgen's ResolveField otherwise: strings, ids,
//     ints and booleans by their marshaller alone (it cannot fail, so it
//     needs no field context), times that are set by execfast.Time, other
//     scalars (and the zero time, an error) by execfast.Leaf.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"regexp"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gqlpatch graph/generated/generated.go")
		os.Exit(2)
	}
	path := os.Args[1]
	src, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	out, err := patch(src)
	if err != nil {
		fail(fmt.Errorf("%s: %w", path, err))
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gqlpatch:", err)
	os.Exit(1)
}

var (
	sliceCall = "graphql.MarshalSliceConcurrently("
	noChildRE = regexp.MustCompile(`errors\.New\("(field of type (\w+) does not have child fields)"\)`)
	deferRE   = regexp.MustCompile(`(?m)^\tatomic\.AddInt32\(&ec\.Deferred, int32\(min\(len\(deferLabelToView\), math\.MaxInt32\)\)\)\n\n\tec\.ProcessDeferredGroup\(graphql\.DeferredGroup\{\n((?:\t\t.*\n)+?)\t\}\)\n`)
	importRE  = regexp.MustCompile(`(?m)^\t"github.com/99designs/gqlgen/graphql"\n`)
	// a scalar field's context: no method, no resolver (after noChildRE)
	scalarCtxRE = regexp.MustCompile(`(?m)^func \(ec \*executionContext\) (fieldContext_\w+)\(_ context\.Context, field graphql\.CollectedField\) \(fc \*graphql\.FieldContext, err error\) \{\n\treturn graphql\.NewScalarFieldContext\("(\w+)", field, false, false, errNoChildFields(\w+)\)\n\}`)
	// a non-null marshaller of a Go value gqlgen marshals without ever
	// returning Null (TestTotalMarshallers keeps that so): it reads its
	// context only to report a null, so never
	totalRE = regexp.MustCompile(`(?m)^func \(ec \*executionContext\) (marshalN\w+)\(ctx context\.Context, sel ast\.SelectionSet, v (?:string|int|bool)\) graphql\.Marshaler \{\n\t_ = sel\n\tres := graphql\.Marshal(?:String|ID|Int|Boolean)\(v\)\n\tif res == graphql\.Null \{\n`)
	// the non-null time marshaller: Null (an error) only for the zero time
	timeRE = regexp.MustCompile(`(?m)^func \(ec \*executionContext\) (marshalNTime[^\s(]*)\(ctx context\.Context, sel ast\.SelectionSet, v time\.Time\) graphql\.Marshaler \{\n\t_ = sel\n\tres := graphql\.MarshalTime\(v\)\n\tif res == graphql\.Null \{\n`)
	// a field resolved from its object's struct field: ${1} the header,
	// ${2} its field context, ${3} the struct field, ${4} the value's type,
	// ${5} the marshaller
	plainFieldRE = regexp.MustCompile(`(?m)^(func \(ec \*executionContext\) _\w+\(ctx context\.Context, field graphql\.CollectedField, obj \*?[\w.]+\) \(ret graphql\.Marshaler\) \{\n)` +
		`\treturn graphql\.ResolveField\(\n\t\tctx,\n\t\tec\.OperationContext,\n\t\tfield,\n` +
		`\t\tfunc\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{\n\t\t\treturn ec\.(fieldContext_\w+)\(ctx, field\)\n\t\t\},\n` +
		`\t\tfunc\(ctx context\.Context\) \(any, error\) \{\n\t\t\treturn obj\.(\w+), nil\n\t\t\},\n` +
		`\t\tnil,\n` +
		`\t\tfunc\(ctx context\.Context, selections ast\.SelectionSet, v ([^)\n]+)\) graphql\.Marshaler \{\n\t\t\treturn ec\.([^\s(]+)\(ctx, selections, v\)\n\t\t\},\n`)
)

const execfast = "github.com/plangraph/plangraph/graph/execfast"

// an object marshaller's deferred field set and labels, made on every call;
// the branch of a deferred field; the marshaller's return of its FieldSet
const (
	deferDecl    = "\tout := graphql.NewFieldSet(fields)\n\tdeferredFieldSet := graphql.NewFieldSet(nil)\n\tdeferLabelToView := make(map[string]*graphql.FieldSetView)\n"
	deferredIf   = "\t\t\tif field.IsDeferred() {\n"
	objectReturn = "\n\treturn out\n}\n"
)

// patch applies every rewrite to the generated executor's source.
func patch(src []byte) ([]byte, error) {
	s := string(src)
	if strings.Contains(s, `"`+execfast+`"`) {
		return nil, fmt.Errorf("already patched: run gqlgen first")
	}
	n := strings.Count(s, sliceCall)
	if n == 0 {
		return nil, fmt.Errorf("no %s call: gqlgen's list marshalling changed, review gqlpatch", sliceCall)
	}
	s = strings.ReplaceAll(s, sliceCall, "execfast.MarshalSlice(")

	types := map[string]string{}
	s = noChildRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := noChildRE.FindStringSubmatch(m)
		name := "errNoChildFields" + sub[2]
		types[name] = sub[1]
		return name
	})
	if len(types) == 0 {
		return nil, fmt.Errorf("no scalar field context error: gqlgen changed, review gqlpatch")
	}
	s += varBlock("made once by gqlpatch (gqlgen made them on every field resolution)", types,
		func(k, typ string) string { return fmt.Sprintf("%s = errors.New(%q)", k, typ) })

	if !deferRE.MatchString(s) {
		return nil, fmt.Errorf("no deferred group: gqlgen changed, review gqlpatch")
	}
	s = deferRE.ReplaceAllString(s, "\tif len(deferLabelToView) > 0 {\n\t\tatomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))\n\t\tec.ProcessDeferredGroup(graphql.DeferredGroup{\n${1}\t\t})\n\t}\n")

	s, err := patchLeaves(s)
	if err != nil {
		return nil, err
	}
	if s, err = patchObjects(s); err != nil {
		return nil, err
	}

	loc := importRE.FindStringIndex(s)
	if loc == nil {
		return nil, fmt.Errorf("no import of gqlgen's graphql package")
	}
	// among the module imports (format.Source sorts the group)
	s = s[:loc[1]] + "\t\"" + execfast + "\"\n" + s[loc[1]:]
	return format.Source([]byte(s))
}

// patchLeaves puts a direct path before gqlgen's ResolveField in every
// field resolved from a struct field whose context is a plain scalar's:
// the marshaller itself when it is total (it can neither fail nor panic, so
// no field context is needed), else execfast.Leaf; and declares the scalar
// types' Child functions Leaf is passed.
func patchLeaves(s string) (string, error) {
	type scalarCtx struct{ object, typ string }
	ctxs := map[string]scalarCtx{}
	for _, m := range scalarCtxRE.FindAllStringSubmatch(s, -1) {
		ctxs[m[1]] = scalarCtx{m[2], m[3]}
	}
	total := map[string]bool{}
	for _, m := range totalRE.FindAllStringSubmatch(s, -1) {
		total[m[1]] = true
	}
	times := map[string]bool{}
	for _, m := range timeRE.FindAllStringSubmatch(s, -1) {
		times[m[1]] = true
	}
	used := map[string]bool{}
	s = plainFieldRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := plainFieldRE.FindStringSubmatch(m)
		c, ok := ctxs[sub[2]]
		if !ok {
			return m // an object's field: its children need gqlgen's context
		}
		if total[sub[5]] {
			return sub[1] + fmt.Sprintf("\tif execfast.Direct(ec.OperationContext) {\n\t\treturn ec.%s(ctx, field.Selections, obj.%s)\n\t}\n",
				sub[5], sub[3]) + m[len(sub[1]):]
		}
		used[c.typ] = true
		set := ""
		if times[sub[5]] { // a time that is set cannot fail: written by execfast.Time
			set = fmt.Sprintf("\tif execfast.Direct(ec.OperationContext) && !obj.%s.IsZero() {\n\t\treturn execfast.Time(obj.%s)\n\t}\n", sub[3], sub[3])
		}
		return sub[1] + set + fmt.Sprintf("\tif execfast.Direct(ec.OperationContext) {\n\t\treturn execfast.Leaf[%s](ctx, ec.OperationContext, field, %q, scalarChild%s, obj.%s, ec.%s)\n\t}\n",
			sub[4], c.object, c.typ, sub[3], sub[5]) + m[len(sub[1]):]
	})
	if len(used) == 0 {
		return "", fmt.Errorf("no scalar field read from a struct field: gqlgen changed, review gqlpatch")
	}
	return s + varBlock("made once by gqlpatch: the Child of each scalar type's field context", used,
		func(k string, _ bool) string {
			return fmt.Sprintf("scalarChild%s = execfast.ScalarChild(errNoChildFields%s)", k, k)
		}), nil
}

// patchObjects makes each object marshaller allocate its deferred field
// set and labels only when a field is deferred, and return execfast.Object
// over its resolved fields instead of its FieldSet.
func patchObjects(s string) (string, error) {
	n := strings.Count(s, deferDecl)
	inits := strings.Count(s, deferredIf)
	if n == 0 || inits != strings.Count(s, "deferLabelToView[deferrable.Label] = view") {
		return "", fmt.Errorf("object marshallers' deferred fields changed (%d sets, %d deferred branches): review gqlpatch", n, inits)
	}
	s = strings.ReplaceAll(s, deferDecl, "\tout := graphql.NewFieldSet(fields)\n\tvar deferredFieldSet *graphql.FieldSet\n\tvar deferLabelToView map[string]*graphql.FieldSetView\n")
	s = strings.ReplaceAll(s, deferredIf, deferredIf+"\t\t\t\tif deferLabelToView == nil {\n\t\t\t\t\tdeferredFieldSet = graphql.NewFieldSet(nil)\n\t\t\t\t\tdeferLabelToView = make(map[string]*graphql.FieldSetView)\n\t\t\t\t}\n")
	if strings.Count(s, objectReturn) != n {
		return "", fmt.Errorf("%d object marshallers but %d return their FieldSet: review gqlpatch", n, strings.Count(s, objectReturn))
	}
	return strings.ReplaceAll(s, objectReturn, "\n\treturn execfast.Object(fields, out.Values)\n}\n"), nil
}

// varBlock declares one var per key of m, in key order, each line made by decl.
func varBlock[V any](comment string, m map[string]V, decl func(string, V) string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var b bytes.Buffer
	fmt.Fprintf(&b, "\n// %s\nvar (\n", comment)
	for _, k := range names {
		fmt.Fprintf(&b, "\t%s\n", decl(k, m[k]))
	}
	b.WriteString(")\n")
	return b.String()
}
