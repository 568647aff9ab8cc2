// Builds the app into dist/, which web.go embeds. dist/ keeps its committed
// NOT_BUILT.txt (so `go build` works before the first npm build); the
// build script removes the previous build's files first.
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: false, sourcemap: false, chunkSizeWarningLimit: 1200 },
  server: { proxy: { "/graphql": { target: "https://127.0.0.1:8443", secure: false, ws: true }, "/v1": { target: "https://127.0.0.1:8443", secure: false } } },
  test: { environment: "jsdom", include: ["src/**/*.test.{ts,tsx}"] },
});
