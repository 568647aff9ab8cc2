package graph

// gqlgen resolves paths from the working directory, so run it at the root.
//go:generate sh -c "cd .. && go run -mod=mod github.com/99designs/gqlgen generate --config gqlgen.yml"
