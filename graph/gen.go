package graph

//go:generate go run -mod=mod github.com/99designs/gqlgen generate --config ../gqlgen.yml
