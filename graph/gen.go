package graph

// gqlgen resolves paths from the working directory, so run it at the root;
// gqlpatch then rewrites the executor where gqlgen wastes work per field
// (internal/tools/gqlpatch says what and why).
//go:generate sh -c "cd .. && go run -mod=mod github.com/99designs/gqlgen generate --config gqlgen.yml && go run ./internal/tools/gqlpatch graph/generated/generated.go"
