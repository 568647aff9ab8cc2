// What the end-to-end test (run.mjs) and the browser benchmark (perf.mjs)
// share: a real `plangraph serve` with the embedded defaults in a temporary
// directory, an API key for it, HTTPS requests trusting its generated CA, and
// the browser they drive (Debian's Chromium, or Firefox ESR through WebDriver
// BiDi: playwright-core's "moz-firefox" channel, pinned at 1.64.1 because 1.65
// sends a BiDi command Firefox 153 lacks).
import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:net";
import https from "node:https";
import { chromium, firefox } from "playwright-core";

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** request makes an HTTPS request to the server, trusting its generated CA. */
export function request(url, { ca, method = "GET", headers = {}, body } = {}) {
  return new Promise((res, rej) => {
    const r = https.request(url, { method, headers, ca }, (resp) => {
      const chunks = [];
      resp.on("data", (c) => chunks.push(c));
      resp.on("end", () => res({ status: resp.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    r.on("error", rej);
    r.end(body);
  });
}

async function waitReady(base, dataDir, server) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`plangraph serve exited with ${server.exitCode}`);
    try {
      const ca = readFileSync(join(dataDir, "tls", "ca.pem"));
      const r = await request(`${base}/readyz`, { ca });
      if (r.status === 200) return ca;
    } catch {
      // not listening yet, or the CA is not written yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("plangraph serve did not become ready in 90 s");
}

/**
 * startServer runs `bin serve` on a free loopback port with its data under
 * dataDir and extra flags, waits until it is ready and makes an API key of
 * organization org. stop() ends it; panics lists the log lines of panics the
 * server recovered from.
 */
export async function startServer(bin, dataDir, { org = "e2e", flags = [] } = {}) {
  const port = await freePort();
  const base = `https://127.0.0.1:${port}`;
  const server = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--data-dir", dataDir, "--log-level", "warn", ...flags], {
    stdio: ["ignore", "inherit", "pipe"],
  });
  // the server's log passes through; a recovered panic is kept for the caller to fail on
  const panics = [];
  let rest = "";
  server.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const l of lines) if (/panic/i.test(l)) panics.push(l.slice(0, 300));
  });
  try {
    const ca = await waitReady(base, dataDir, server);
    const key = execFileSync(bin, ["keys", "create", "--org", org, "--data-dir", dataDir]).toString().trim();
    const stop = async () => {
      if (server.exitCode === null) {
        server.kill("SIGTERM");
        await new Promise((r) => server.once("exit", r));
      }
    };
    return { base, ca, key, stop, panics };
  } catch (e) {
    server.kill("SIGTERM");
    throw e;
  }
}

/** browserFor names the browser to drive from E2E_BROWSER (chromium or firefox) and its executable. */
export function browserFor(env) {
  const name = env.E2E_BROWSER ?? "chromium";
  if (!["chromium", "firefox"].includes(name)) throw new Error(`E2E_BROWSER: chromium or firefox, not ${name}`);
  const path = name === "firefox" ? (env.FIREFOX ?? "/usr/bin/firefox-esr") : (env.CHROMIUM ?? "/usr/bin/chromium");
  return { name, path };
}

/** launch starts the browser headless (downloads saved under downloadsPath). */
export function launch({ name, path }, downloadsPath) {
  return name === "firefox"
    ? firefox.launch({ channel: "moz-firefox", executablePath: path, headless: true, downloadsPath })
    : chromium.launch({ executablePath: path, headless: true, args: ["--no-sandbox"], downloadsPath });
}

/** gqlClient posts GraphQL operations with the key and fails on any error. */
export function gqlClient(base, ca, key) {
  return async (query, variables) => {
    const r = await request(`${base}/graphql`, {
      ca,
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    const j = JSON.parse(r.body);
    if (j.errors) throw new Error(JSON.stringify(j.errors));
    return j.data;
  };
}
