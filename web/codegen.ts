// Typed GraphQL operations: the documents in src/ are checked against the
// server's schema (../graph/*.graphqls), so a schema change that breaks the
// app fails `npm run build`.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "../graph/*.graphqls",
  documents: ["src/**/*.{ts,tsx}", "!src/gql/**/*"],
  ignoreNoDocuments: false,
  errorsOnly: true,
  generates: {
    "src/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        scalars: { Time: "string", JSON: "unknown", Cursor: "string", Map: "Record<string, unknown>" },
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
      },
    },
  },
};
export default config;
