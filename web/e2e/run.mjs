// End-to-end test of the web app in a real browser: Debian's Chromium (or
// Firefox ESR, E2E_BROWSER=firefox) driven by playwright-core against a real `plangraph serve` with the embedded
// defaults (SQLite, in-process Redis, files, local CA) in a temporary
// directory. Sign in (a wrong key first), create a project, upload a
// synthetic PDF, watch it process, open the sheet, run a parse, and check
// that the detections the UI counts are those the API lists; export the CSV;
// correct a sheet's title inline (and see a refusal's detail); list a count's
// instances; upload a revision, compare the two and check that the changes
// the UI counts are those the API lists; the jobs tree; webhook endpoints
// (secret shown once, rotation, deliveries, redelivery); the 1024×768 tablet
// layout and keyboard reach; no console errors throughout.
//
//   PLANGRAPH_BIN=../bin/plangraph node e2e/run.mjs
//   E2E_SCREENSHOTS=../docs/screenshots  also saves a PNG of each screen
//   CHROMIUM=/path/to/chromium           another browser binary
//   E2E_BROWSER=firefox                  Debian's firefox-esr (FIREFOX=/path to another) through
//                                        WebDriver BiDi: playwright-core's "moz-firefox" channel drives
//                                        a stock Firefox, no Playwright build of it (playwright-core
//                                        is pinned at 1.64.1: 1.65 sends a BiDi command Firefox 153 lacks)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { browserFor, gqlClient, launch, request, startServer } from "./server.mjs";
import { compareFlow, downloader, findSymbols, jobsAndWebhooks, setRange, tablet, typeInto } from "./flows.mjs";

const bin = resolve(process.env.PLANGRAPH_BIN ?? "../bin/plangraph");
const { name: browserName, path: browserPath } = browserFor(process.env);
const shots = process.env.E2E_SCREENSHOTS ? resolve(process.env.E2E_SCREENSHOTS) : "";
const started = Date.now();
const step = (msg) => console.log(`[e2e ${browserName} ${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);

const dir = mkdtempSync(join(tmpdir(), "plangraph-e2e-"));
const dataDir = join(dir, "data");
const downloadsPath = join(dir, "downloads");
mkdirSync(downloadsPath);
const download = downloader(browserName, downloadsPath);
let stopServer;
let srv;
let browser;
let failed = false;
const consoleErrors = [];
let page;
try {
  const written = execFileSync(bin, ["synth", "--out", join(dir, "synth"), "--seed", "5", "--sheets", "1", "--page", "24x18", "--revision"]).toString().split("\n");
  const pdf = written[0].trim();
  const revised = written.map((l) => l.trim()).find((l) => l.endsWith("-rev.pdf"));
  assert.ok(pdf.endsWith(".pdf") && revised, `synth wrote ${written}`);
  srv = await startServer(bin, dataDir, { flags: ["--render-dpi", "150", "--webhook-allow-private-urls"] });
  stopServer = srv.stop;
  const { base, ca, key } = srv;
  step(`server ready at ${base}`);

  const gql = gqlClient(base, ca, key);
  const rest = async (path) => {
    const r = await request(`${base}${path}`, { ca, headers: { Authorization: `Bearer ${key}` } });
    assert.equal(r.status, 200, `GET ${path}: ${r.body}`);
    return JSON.parse(r.body);
  };

  browser = await launch({ name: browserName, path: browserPath }, downloadsPath);
  // each page a window of its own (a context), its console errors collected
  const openPage = async (viewport) => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport, acceptDownloads: true });
    const p = await context.newPage();
    p.setDefaultTimeout(30_000);
    p.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    p.on("pageerror", (e) => consoleErrors.push(String(e)));
    return p;
  };
  page = await openPage({ width: 1280, height: 800 });
  const shot = async (name) => {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`) });
  };

  // sign in: a wrong key is refused with the server's message
  await page.goto(base + "/");
  await typeInto(page.getByLabel("API key"), "sk_wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  const refusal = await page.getByRole("alert").textContent();
  assert.match(refusal ?? "", /key/i, `wrong key: ${refusal}`);
  consoleErrors.length = 0; // the browser logs the refused request (401) itself
  await typeInto(page.getByLabel("API key"), key);
  await shot("1-sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  step("signed in");

  // webhook settings: an endpoint (this server itself: its deliveries fail,
  // which the log shows), its secret shown once, then rotated
  await page.getByRole("link", { name: "Webhooks" }).click();
  await typeInto(page.getByLabel("Endpoint URL"), `${base}/e2e-hook`);
  await typeInto(page.getByLabel("Description"), "e2e receiver");
  await page.getByRole("button", { name: "Create endpoint" }).click();
  const secret1 = (await page.getByTestId("secret").textContent()) ?? "";
  assert.match(secret1, /^whsec_/);
  await page.getByRole("button", { name: "Done" }).click();
  assert.equal(await page.getByTestId("secret").count(), 0, "the secret is not shown again");
  await page.getByRole("button", { name: "Rotate secret" }).click();
  const secret2 = (await page.getByTestId("secret").textContent()) ?? "";
  assert.match(secret2, /^whsec_/);
  assert.notEqual(secret2, secret1, "rotation makes a new secret");
  await page.getByText(/previous secret also signs/).waitFor();
  await page.getByRole("button", { name: "Done" }).click();
  await page.locator("header").getByRole("link", { name: "Projects" }).click();

  // create a project
  await typeInto(page.getByLabel("New project name"), "Tower A");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("heading", { name: "Tower A" }).waitFor();
  const projectID = decodeURIComponent(new URL(page.url()).hash.split("/")[2]);

  // upload and watch it process, live
  await page.getByLabel("Files to upload").setInputFiles(pdf);
  await page.locator('[data-testid=upload] .processing[data-stage="Ready"]').waitFor({ timeout: 120_000 });
  assert.match((await page.locator("[data-testid=upload] .pages").textContent()) ?? "", /^1 page done/);
  step("drawing ready");
  await shot("2-project-upload");
  await page.getByRole("link", { name: /synth-5/ }).click();

  // the sheets grid
  const card = page.getByTestId("sheet-card").first();
  await card.locator("img.thumb").waitFor();
  await shot("3-sheets");

  // correct a sheet inline: a refused value shows the server's detail, a good one is saved
  const gridURL = page.url();
  await page.getByRole("button", { name: /^Correct / }).first().click();
  const editForm = page.locator("form.sheet-edit");
  await typeInto(editForm.getByLabel("Discipline"), "astrology");
  await editForm.getByRole("button", { name: "Save" }).click();
  const refused = (await editForm.getByRole("alert").textContent()) ?? "";
  assert.match(refused, /discipline: must be one of/, `refusal: ${refused}`);
  await typeInto(editForm.getByLabel("Discipline"), "electrical");
  await typeInto(editForm.getByLabel("Title"), "LIGHTING PLAN (corrected)");
  await shot("6-sheet-correction");
  await editForm.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("sheet-card").first().getByText("LIGHTING PLAN (corrected)").waitFor();
  const drawingID = decodeURIComponent(new URL(gridURL).hash.split("/")[2]);
  const corrected = await gql(`query($id: ID!) { drawing(id: $id) { sheets(first: 1) { edges { node { title discipline } } } } }`, { id: drawingID });
  assert.deepEqual(corrected.drawing.sheets.edges[0].node, { title: "LIGHTING PLAN (corrected)", discipline: "electrical" });
  step("sheet corrected inline");
  await card.click();
  const sheetID = decodeURIComponent(new URL(page.url()).hash.split("/")[2]);

  // the viewer: tiles arrive through OpenSeadragon
  const tile = page.waitForResponse((r) => r.url().includes("/tiles_files/") && r.status() === 200);
  await page.getByTestId("viewer").waitFor();
  await tile;
  step("viewer shows tiles");

  // find symbols: a parse, watched live, then every detection drawn and counted
  await findSymbols(page, 150_000);
  step("parse done");
  const api = await gql(`query($id: ID!) { sheet(id: $id) { symbolInstances(first: 1) { totalCount } } }`, { id: sheetID });
  const apiTotal = api.sheet.symbolInstances.totalCount;
  assert.ok(apiTotal > 0, "the parse found no symbol on the synthetic sheet");
  const counter = page.getByTestId("detection-count");
  await page.waitForFunction((n) => document.querySelector("[data-testid=detection-count]")?.getAttribute("data-total") === String(n), apiTotal);
  assert.equal(await counter.getAttribute("data-shown"), String(apiTotal), "all detections shown at threshold 0");
  const perEntry = (await page.getByTestId("entry-count").allTextContents()).map(Number);
  assert.equal(perEntry.reduce((a, b) => a + b, 0), apiTotal, `legend counts ${perEntry} vs API ${apiTotal}`);
  step(`UI counts ${apiTotal} detections, as the API does`);
  await shot("4-viewer-detections");

  // a count lists its instances; each zooms the viewer to it
  // (the first entry with instances)
  const counts = (await page.getByTestId("entry-count").allTextContents()).map(Number);
  const withSome = Math.max(0, counts.findIndex((n) => n > 0));
  const firstCount = page.getByTestId("entry-count").nth(withSome);
  const nFirst = counts[withSome];
  await firstCount.click();
  const list = page.getByTestId("instances");
  await list.waitFor();
  assert.equal(await list.getByTestId("instance").count(), nFirst, "the list holds the count's instances");
  if (nFirst > 0) {
    await list.getByTestId("instance").first().click();
    assert.equal(await list.getByTestId("instance").first().getAttribute("aria-current"), "true");
    await list.getByRole("button", { name: "Next" }).click();
    await page.waitForTimeout(1500); // the zoom animation
    await shot("7-instances");
    // visual search from the instance: its legend symbol comes first
    const label = (await list.locator("h2").textContent()).replace(/: \d+$/, "");
    await list.getByRole("button", { name: "Find similar" }).click();
    const similar = page.locator("[data-testid=similar][data-ready=true]");
    await similar.waitFor({ timeout: 60_000 });
    const first = await similar.getByTestId("similar-entry").first().textContent();
    assert.equal(first.trim(), label.trim(), "Find similar names the instance's legend symbol first");
    step(`Find similar on a ${label} instance: ${first} first`);
    await shot("7b-similar");
    await similar.getByRole("button", { name: "Close the similar symbols" }).click();
  }
  await list.getByRole("button", { name: "Close the instance list" }).click();

  // the CSV export holds the legend's counts
  const csv = (await download(page, () => page.getByRole("button", { name: "Export CSV" }).click())).toString().trim().split(/\r\n/);
  assert.equal(csv[0], "sheet,sheet_title,label,description,count");
  assert.equal(csv.length - 1, perEntry.length);
  const csvTotal = csv.slice(1).reduce((a, line) => a + Number(line.split(",").pop()), 0);
  assert.equal(csvTotal, apiTotal);

  // the threshold hides low-confidence detections
  await setRange(page.getByLabel("Confidence threshold"), 1);
  const shownAtOne = Number(await counter.getAttribute("data-shown"));
  assert.ok(shownAtOne <= apiTotal);

  // the drawing's export: every sheet's counts in one CSV (this drawing has one sheet)
  await page.goto(gridURL);
  const drawingCSV = (await download(page, () => page.getByRole("button", { name: "Export counts (CSV)" }).click())).toString().trim().split(/\r\n/);
  assert.equal(drawingCSV[0], "sheet,sheet_title,label,description,count");
  assert.equal(drawingCSV.slice(1).reduce((a, line) => a + Number(line.split(",").pop()), 0), apiTotal);
  assert.ok(drawingCSV.slice(1).every((line) => line.startsWith(csv[1].split(",")[0] + ",")), "every row names the sheet");
  step("drawing counts exported");

  // search over the project, from the project page
  await page.goto(`${base}/#/p/${encodeURIComponent(projectID)}`);
  await typeInto(page.getByLabel("Search or ask"), "legend");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.locator(".hitgroup, .search .empty").first().waitFor();
  await shot("5-search");
  // ask which sheets are electrical (the discipline corrected above): the
  // answer cites the sheet, and its source opens the sheet (the index follows
  // the correction asynchronously: asked again for up to 20 s)
  const source = page.locator(".answer li a").first();
  for (let tries = 0; ; tries++) {
    await typeInto(page.getByLabel("Search or ask"), "Which sheets are electrical?");
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    await page.locator(".answer, .search [role=alert]").first().waitFor();
    if ((await source.count()) > 0 && (await source.getAttribute("href"))?.startsWith(`#/s/${encodeURIComponent(sheetID)}`)) break;
    assert.ok(tries < 20, `ask never cited the sheet: ${await page.locator(".search").textContent()}`);
    await page.waitForTimeout(1000);
  }
  assert.match((await page.locator(".answer strong").textContent()) ?? "", /electrical/i);
  await source.click();
  await page.getByTestId("viewer").waitFor();
  assert.equal(decodeURIComponent(new URL(page.url()).hash.split("/")[2].split("?")[0]), sheetID, "the cited source opens its sheet");
  step("ask cites the electrical sheet; its source opens it");

  const compareJobID = await compareFlow({ page, base, rest, shot, revised, projectID, download });
  await jobsAndWebhooks({ page, base, shot, projectID });
  // the tablet: a 1024×768 window of its own, signed in afresh (in Firefox a
  // window that saved a download leaves keyboard focus with the downloads
  // panel, so keyboard reach is checked in a window that has not)
  page = await openPage({ width: 1024, height: 768 });
  await page.goto(base + "/");
  await typeInto(page.getByLabel("API key"), key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header").getByRole("link", { name: "Projects" }).waitFor();
  await tablet({ page, base, compareJobID, sheetID, shot });

  assert.deepEqual(consoleErrors, [], "console errors");
  assert.deepEqual(srv.panics, [], "the server recovered from panics");
  step(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  failed = true;
  console.error(e);
  if (consoleErrors.length) console.error("browser console errors:\n" + consoleErrors.join("\n"));
  if (page && shots) await page.screenshot({ path: join(shots, "failure.png") }).catch(() => {});
} finally {
  await browser?.close();
  await stopServer?.();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
