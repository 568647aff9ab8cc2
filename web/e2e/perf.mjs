// The web app's speed in a real browser (`make bench-web`; figures in
// BENCHMARKS.md): a real `plangraph serve` with the embedded defaults renders
// a synthetic 42×30 in sheet at 300 DPI (12,600 × 9,000 px = 113 MP) whose
// plans are filled with about 2,000 legend symbol instances
// (`synth --plan-instances`), the app's own "Find symbols" parses it, and
// then it measures, in the same browser:
//   - the first screen: from navigation to the sign-in form (a new window,
//     nothing cached; then again from the browser's cache), and from
//     navigation to the project list when the key is already kept;
//   - opening the sheet: to its first tile, and to every detection counted;
//   - panning and zooming the sheet with every detection drawn: frame
//     intervals while the mouse wheel zooms in and out and the mouse drags
//     the view, and the tasks that blocked the page for more than 50 ms;
//   - redrawing after a change of the confidence threshold and after hiding
//     and showing one legend entry (to the next painted frame);
//   - that the viewer holds no DOM node per detection and never loads the
//     sheet's whole image (tiles only: the largest image it fetched).
//
//   PLANGRAPH_BIN=../bin/plangraph node e2e/perf.mjs
//   E2E_BROWSER=firefox        Firefox ESR instead of Chromium
//   PERF_INSTANCES=1000        instances per plan asked of synth (default 1000:
//                              two plans on the seed's sheet, about 2,000)
//   PERF_SEED=3, PERF_RUNS=5   the synthetic sheet's seed; runs of each first-screen timing
//   PERF_JSON=out.json         also writes the figures as JSON
//   PERF_PROFILE=pz.cpuprofile a CPU profile of the page while it pans and zooms (Chromium; open it in DevTools)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { browserFor, gqlClient, launch, startServer } from "./server.mjs";
import { findSymbols, typeInto } from "./flows.mjs";

const bin = resolve(process.env.PLANGRAPH_BIN ?? "../bin/plangraph");
const browser0 = browserFor(process.env);
const perPlan = Number(process.env.PERF_INSTANCES ?? 1000);
const seed = process.env.PERF_SEED ?? "3";
const runs = Number(process.env.PERF_RUNS ?? 5);
const started = Date.now();
const step = (msg) => console.log(`[perf ${browser0.name} ${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const ms = (x) => `${Math.round(x)} ms`;
/** keep is an init script keeping the API key as the app does (about:blank, where storage is refused, left alone). */
const keep = (k) => {
  try {
    if (location.protocol === "https:") sessionStorage.setItem("plangraph-key", k);
  } catch {
    // no storage for this document
  }
};

/** windowContext is a browser context at 1280×800 keeping the API key (when given) as the app does. */
async function windowContext(browser, key) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
  if (key) await context.addInitScript(keep, key);
  return context;
}

/**
 * firstScreen times a window's navigation to what `ready` waits for, in ms on
 * the page's own clock, over runs: each in a new context (nothing cached), or
 * (warm) all in one context after a first load that fills its cache.
 */
async function firstScreen(browser, url, ready, { key, warm } = {}) {
  const times = [];
  const shared = warm ? await windowContext(browser, key) : null;
  try {
    for (let i = 0; i < runs + (warm ? 1 : 0); i++) {
      const context = shared ?? (await windowContext(browser, key));
      const page = await context.newPage();
      await page.goto(url);
      await ready(page);
      const t = await page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0];
        const script = performance.getEntriesByType("resource").find((r) => r.name.includes("/assets/") && r.name.endsWith(".js"));
        return { ready: performance.now(), dcl: nav?.domContentLoadedEventEnd ?? NaN, script: script ? script.responseEnd : NaN };
      });
      if (!(warm && i === 0)) times.push(t);
      await (shared ? page.close() : context.close());
    }
  } finally {
    await shared?.close();
  }
  const shown = times.map((x) => x.ready);
  return {
    p50: quantile(shown, 0.5),
    max: Math.max(...shown),
    runs: times.length,
    scriptLoaded: quantile(times.map((x) => x.script), 0.5),
    domContentLoaded: quantile(times.map((x) => x.dcl), 0.5),
  };
}

/** frames records the intervals between painted frames while act runs, and the page's long tasks (Chromium). */
async function frames(page, act) {
  await page.evaluate(() => {
    const w = window;
    w.__frames = [];
    w.__long = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (t) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
    try {
      w.__obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__long.push(e.duration)));
      w.__obs.observe({ type: "longtask", buffered: false });
    } catch {
      // Firefox has no longtask entries
    }
  });
  await act();
  return page.evaluate(() => {
    const w = window;
    w.__recording = false;
    w.__obs?.disconnect();
    return { frames: w.__frames, long: w.__long };
  });
}

/** nextPaint runs act in the page and times it to the frame painted after it. */
function nextPaint(page, act) {
  return page.evaluate(
    (src) =>
      new Promise((res) => {
        const t0 = performance.now();
        new Function(src)();
        requestAnimationFrame(() => setTimeout(() => res(performance.now() - t0), 0));
      }),
    act,
  );
}

const dir = mkdtempSync(join(tmpdir(), "plangraph-perf-"));
let stopServer;
let browser;
let failed = false;
const consoleErrors = [];
const out = { browser: browser0.name, date: new Date().toISOString() };
try {
  const pdf = execFileSync(bin, ["synth", "--out", join(dir, "synth"), "--seed", seed, "--sheets", "1", "--page", "42x30", "--plan-instances", String(perPlan)])
    .toString()
    .split("\n")[0]
    .trim();
  assert.ok(pdf.endsWith(".pdf"), `synth wrote ${pdf}`);
  mkdirSync(join(dir, "data"));
  const srv = await startServer(bin, join(dir, "data"), { org: "perf", flags: ["--render-dpi", "300"] });
  stopServer = srv.stop;
  const { base, ca, key } = srv;
  const gql = gqlClient(base, ca, key);
  step(`server ready at ${base}`);
  browser = await launch(browser0, join(dir, "downloads"));

  // the first screen, with nothing in the project list
  const signIn = await firstScreen(browser, base + "/", (p) => p.getByLabel("API key").waitFor());
  const signInWarm = await firstScreen(browser, base + "/", (p) => p.getByLabel("API key").waitFor(), { warm: true });
  out.signIn = signIn;
  out.signInCached = signInWarm;
  step(`sign-in form: p50 ${ms(signIn.p50)} (max ${ms(signIn.max)}; script loaded ${ms(signIn.scriptLoaded)}, DOMContentLoaded ${ms(signIn.domContentLoaded)}), from the cache ${ms(signInWarm.p50)}`);

  const context = await windowContext(browser, key);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));

  // a project, the sheet uploaded and processed through the app
  await page.goto(base + "/");
  await typeInto(page.getByLabel("New project name"), "Perf");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("heading", { name: "Perf" }).waitFor();
  const projectURL = page.url();
  let t = Date.now();
  await page.getByLabel("Files to upload").setInputFiles(pdf);
  await page.locator('[data-testid=upload] .processing[data-stage="Ready"]').waitFor({ timeout: 600_000 });
  out.ingestSeconds = (Date.now() - t) / 1000;
  step(`113 MP sheet ingested in ${out.ingestSeconds.toFixed(1)} s`);

  const projects = await firstScreen(browser, base + "/", (p) => p.getByRole("link", { name: "Perf" }).waitFor(), { key });
  out.projectList = projects;
  step(`project list with a kept key: p50 ${ms(projects.p50)} (max ${ms(projects.max)})`);

  await page.goto(projectURL);
  await page.getByRole("link", { name: /synth-/ }).click();
  await page.getByTestId("sheet-card").first().click();
  const sheetURL = page.url();
  const sheetID = decodeURIComponent(new URL(sheetURL).hash.split("/")[2]);
  const info = await gql(`query($id: ID!) { sheet(id: $id) { width height } }`, { id: sheetID });
  out.sheetPixels = [info.sheet.width, info.sheet.height];
  t = Date.now();
  await findSymbols(page, 1_800_000);
  out.parseSeconds = (Date.now() - t) / 1000;
  const api = await gql(`query($id: ID!) { sheet(id: $id) { symbolInstances(first: 1) { totalCount } } }`, { id: sheetID });
  const total = api.sheet.symbolInstances.totalCount;
  out.detections = total;
  step(`parsed in ${out.parseSeconds.toFixed(1)} s: ${total} detections`);

  // the API alone: the sheet's instances in pages of 100, as the viewer reads them
  const pages = [];
  for (let after = null; ; ) {
    const t0 = performance.now();
    const r = await gql(`query($id: ID!, $after: Cursor) { sheet(id: $id) { symbolInstances(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { id blockID definedByID confidence bounds { xMin yMin xMax yMax } } } } } }`, { id: sheetID, after });
    pages.push(performance.now() - t0);
    const c = r.sheet.symbolInstances;
    if (!c.pageInfo.hasNextPage) break;
    after = c.pageInfo.endCursor;
  }
  out.instancePages = { pages: pages.length, p50: quantile(pages, 0.5), max: Math.max(...pages), total: pages.reduce((a, b) => a + b, 0) };
  step(`API: ${pages.length} pages of instances, p50 ${ms(out.instancePages.p50)}, max ${ms(out.instancePages.max)}, all ${ms(out.instancePages.total)}`);

  // opening the sheet afresh: first tile, then every detection counted
  const images = [];
  page.on("response", async (r) => {
    const type = r.headers()["content-type"] ?? "";
    if (type.startsWith("image/")) images.push({ url: r.url(), bytes: Number(r.headers()["content-length"] ?? (await r.body().catch(() => "")).length) });
  });
  await page.goto(projectURL);
  await page.getByRole("heading", { name: "Perf" }).waitFor();
  const firstTile = page.waitForResponse((r) => r.url().includes("/tiles_files/") && r.status() === 200);
  const nav0 = await page.evaluate(() => performance.now());
  await page.evaluate((u) => (location.hash = new URL(u).hash), sheetURL);
  await firstTile;
  const tTile = (await page.evaluate(() => performance.now())) - nav0;
  await page.waitForFunction((n) => document.querySelector("[data-testid=detection-count]")?.getAttribute("data-total") === String(n), total, { timeout: 120_000 });
  const tAll = (await page.evaluate(() => performance.now())) - nav0;
  assert.equal(await page.getByTestId("detection-count").getAttribute("data-shown"), String(total), "every detection drawn at threshold 0");
  out.open = { firstTile: tTile, allDetections: tAll };
  step(`sheet opened: first tile ${ms(tTile)}, ${total} detections counted ${ms(tAll)}`);
  await page.waitForTimeout(1500); // the home view's tiles settle

  // pan and zoom with every detection drawn
  const box = await page.getByTestId("viewer").boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  const cdp = process.env.PERF_PROFILE && browser0.name === "chromium" ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
  }
  const rec = await frames(page, async () => {
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, -240);
      await page.waitForTimeout(120);
    }
    for (let i = 0; i < 6; i++) {
      await page.mouse.down();
      await page.mouse.move(cx - 250, cy - 120, { steps: 15 });
      await page.mouse.up();
      await page.mouse.move(cx, cy);
      await page.waitForTimeout(80);
    }
    for (let i = 0; i < 8; i++) {
      await page.mouse.wheel(0, 240);
      await page.waitForTimeout(120);
    }
    await page.waitForTimeout(500);
  });
  if (cdp) writeFileSync(process.env.PERF_PROFILE, JSON.stringify((await cdp.send("Profiler.stop")).profile));
  const f = rec.frames.filter((x) => x > 0);
  out.panZoom = {
    frames: f.length,
    p50: quantile(f, 0.5),
    p95: quantile(f, 0.95),
    max: Math.max(...f),
    over50: f.filter((x) => x > 50).length,
    longTasks: rec.long.length,
    longestTask: rec.long.length ? Math.max(...rec.long) : 0,
  };
  const pz = out.panZoom;
  step(`pan and zoom: ${pz.frames} frames, p50 ${ms(pz.p50)}, p95 ${ms(pz.p95)}, max ${ms(pz.max)}, ${pz.over50} over 50 ms; ${pz.longTasks} long tasks (longest ${ms(pz.longestTask)})`);

  // redraws after the threshold and an entry's toggle
  const threshold = await nextPaint(
    page,
    `const r = document.querySelector('input[aria-label="Confidence threshold"]');
     const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
     set.call(r, "0.5"); r.dispatchEvent(new Event("input", { bubbles: true }));`,
  );
  const toggle = await nextPaint(page, `document.querySelector('input[type=checkbox][aria-label^="Show "]').click();`);
  const toggleBack = await nextPaint(page, `document.querySelector('input[type=checkbox][aria-label^="Show "]').click();`);
  out.redraw = { threshold, toggle: Math.max(toggle, toggleBack) };
  step(`redraw: threshold ${ms(threshold)}, an entry hidden/shown ${ms(out.redraw.toggle)}`);

  // what the viewer is made of: no node per detection, tiles only
  out.viewerNodes = await page.evaluate(() => document.querySelector(".deepzoom")?.querySelectorAll("*").length ?? -1);
  const sheetImages = images.filter((i) => i.url.includes(`/sheets/`) || i.url.includes("/tiles_files/"));
  out.images = { fetched: sheetImages.length, largestBytes: Math.max(0, ...sheetImages.map((i) => i.bytes)), fullImage: sheetImages.some((i) => /\/sheets\/[^/]+\/image(\?|$)/.test(i.url)) };
  assert.ok(out.viewerNodes < 100, `the viewer holds ${out.viewerNodes} nodes`);
  assert.ok(!out.images.fullImage, "the viewer fetched the sheet's whole image");
  step(`viewer: ${out.viewerNodes} DOM nodes; ${out.images.fetched} sheet images fetched, the largest ${(out.images.largestBytes / 1024).toFixed(0)} KiB; whole image never fetched`);
  assert.deepEqual(consoleErrors, [], "console errors");
  assert.deepEqual(srv.panics, [], "the server recovered from panics");
  if (process.env.PERF_JSON) writeFileSync(process.env.PERF_JSON, JSON.stringify(out, null, 2));
  step("done");
} catch (e) {
  failed = true;
  console.error(e);
  if (consoleErrors.length) console.error("browser console errors:\n" + consoleErrors.join("\n"));
} finally {
  await browser?.close();
  await stopServer?.();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
