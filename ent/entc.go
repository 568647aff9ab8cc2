//go:build ignore

package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithSchemaGenerator(),
		entgql.WithSchemaPath("../graph/ent.graphqls"),
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithWhereInputs(true),
		entgql.WithRelaySpec(true),
		entgql.WithNodeDescriptor(false),
	)
	if err != nil {
		log.Fatalf("entgql: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{gen.FeatureIntercept, gen.FeatureUpsert, gen.FeatureExecQuery, gen.FeatureLock, gen.FeatureVersionedMigration},
	}, entc.Extensions(ex))
	if err != nil {
		log.Fatalf("entc: %v", err)
	}
}
