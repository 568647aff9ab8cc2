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
)

const execfast = "github.com/plangraph/plangraph/graph/execfast"

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
	names := make([]string, 0, len(types))
	for k := range types {
		names = append(names, k)
	}
	sort.Strings(names)
	var vars bytes.Buffer
	vars.WriteString("\n// made once by gqlpatch (gqlgen made them on every field resolution)\nvar (\n")
	for _, k := range names {
		fmt.Fprintf(&vars, "\t%s = errors.New(%q)\n", k, types[k])
	}
	vars.WriteString(")\n")
	s += vars.String()

	if !deferRE.MatchString(s) {
		return nil, fmt.Errorf("no deferred group: gqlgen changed, review gqlpatch")
	}
	s = deferRE.ReplaceAllString(s, "\tif len(deferLabelToView) > 0 {\n\t\tatomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))\n\t\tec.ProcessDeferredGroup(graphql.DeferredGroup{\n${1}\t\t})\n\t}\n")

	loc := importRE.FindStringIndex(s)
	if loc == nil {
		return nil, fmt.Errorf("no import of gqlgen's graphql package")
	}
	// among the module imports (format.Source sorts the group)
	s = s[:loc[1]] + "\t\"" + execfast + "\"\n" + s[loc[1]:]
	return format.Source([]byte(s))
}
