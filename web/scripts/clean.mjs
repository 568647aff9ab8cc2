// Removes the previous build from dist/ but keeps the committed placeholder.
import { readdirSync, rmSync } from "node:fs";
for (const f of readdirSync("dist")) if (f !== "NOT_BUILT.txt") rmSync(`dist/${f}`, { recursive: true, force: true });
