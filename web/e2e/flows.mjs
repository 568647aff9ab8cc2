// The end-to-end test's later flows (run.mjs runs them in order after the
// first upload, parse and search): compare two revisions, the jobs tree and
// the webhook delivery log, the tablet layout and keyboard reach.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";

const step = (msg) => console.log(`[e2e] ${msg}`);

/**
 * typeInto empties a text field and types text key by key, as a person does.
 * (Playwright's fill() over WebDriver BiDi sets the value from script, which
 * React's controlled inputs do not see as a change in Firefox.)
 */
export async function typeInto(locator, text) {
  await locator.fill("");
  await locator.pressSequentially(text);
}

/** findSymbols runs "Find symbols" in the sheet viewer and waits, up to timeout ms, for the parse to finish (the button enabled again, no job shown). */
export async function findSymbols(page, timeout) {
  await page.getByRole("button", { name: "Find symbols" }).click();
  await page.locator(".processing[data-status]").waitFor();
  await page.waitForFunction(
    () => {
      const b = [...document.querySelectorAll("button")].find((x) => x.textContent === "Find symbols");
      return b && !b.disabled && !document.querySelector(".processing[data-status]");
    },
    undefined,
    { timeout, polling: 500 },
  );
}

/**
 * downloader returns download(page, trigger): trigger() starts a download in the
 * page and the saved file's bytes are returned. Chromium: Playwright's download
 * event. Firefox over WebDriver BiDi: Firefox 153 announces a download without
 * the id Playwright 1.64 keys it by, so no event comes; the file is read from
 * the folder the browser was launched to save downloads in (downloadsPath).
 */
export function downloader(browserName, dir) {
  if (browserName !== "firefox") {
    return async (page, trigger) => {
      const dl = page.waitForEvent("download");
      await trigger();
      return readFileSync(await (await dl).path());
    };
  }
  return async (page, trigger) => {
    const before = new Set(readdirSync(dir));
    await trigger();
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(100)) {
      const now = readdirSync(dir);
      const fresh = now.filter((f) => !before.has(f) && !f.endsWith(".part"));
      if (fresh.length === 1 && !now.some((f) => f.endsWith(".part"))) return readFileSync(join(dir, fresh[0]));
      assert.ok(fresh.length <= 1, `one download expected, found ${fresh}`);
    }
    throw new Error(`no download saved in ${dir} within 30 s`);
  };
}

/** setRange moves a range input to value with the keyboard (End for its maximum, else Home and arrow steps) and checks where it landed. */
export async function setRange(locator, value) {
  const [min, max, step] = await locator.evaluate((el) => [Number(el.min || 0), Number(el.max || 100), Number(el.step || 1)]);
  await locator.focus();
  await locator.press(value === max ? "End" : "Home");
  if (value !== max) for (let i = Math.round((value - min) / step); i > 0; i--) await locator.press("ArrowRight");
  assert.equal(Number(await locator.inputValue()), value, "the range input's value after the key presses");
}

/** compareFlow uploads the revision, compares it with the original and checks the UI's change count against the API's. */
export async function compareFlow({ page, base, rest, shot, revised, projectID, download }) {
  await page.goto(`${base}/#/p/${encodeURIComponent(projectID)}`);
  await page.getByLabel("Files to upload").setInputFiles(revised);
  await page.locator('[data-testid=upload] .processing[data-stage="Ready"]').waitFor({ timeout: 120_000 });
  step("revision ready");
  await page.getByRole("link", { name: "Compare revisions" }).click();

  // A: the original, B: the revision (drawings are named after their files)
  const pick = async (label, re) => {
    const sel = page.getByLabel(label);
    await sel.locator("option").nth(2).waitFor({ state: "attached" });
    const options = await sel.locator("option").evaluateAll((os) => os.map((o) => ({ value: o.value, text: o.textContent })));
    const o = options.find((x) => re.test(x.text ?? ""));
    assert.ok(o, `${label}: no option ${re} in ${JSON.stringify(options)}`);
    await sel.selectOption(o.value);
  };
  await page.getByRole("button", { name: "Start comparison" }).click();
  assert.match((await page.getByRole("alert").textContent()) ?? "", /older drawing/, "an incomplete choice is explained");
  await pick("Older (A) drawing", /^synth-5\.pdf/);
  await pick("Newer (B) drawing", /^synth-5-rev\.pdf/);
  await page.getByRole("button", { name: "Start comparison" }).click();
  await page.waitForURL(/#\/c\//);
  const jobID = decodeURIComponent(new URL(page.url()).hash.split("/")[2]);
  const counter = page.getByTestId("change-count");
  await counter.waitFor({ timeout: 300_000 });
  step("compare done");

  // the changes the UI counts are those the API lists for the job's overlays
  const overlays = await rest(`/v1/overlays?job_id=${encodeURIComponent(jobID)}&limit=100`);
  const apiChanges = overlays.data.reduce((n, o) => n + (o.changes?.length ?? 0), 0);
  assert.ok(apiChanges > 0, "the revision's known edits gave no change");
  assert.equal(await counter.getAttribute("data-total"), String(apiChanges));
  assert.equal(await counter.getAttribute("data-overlays"), String(overlays.data.length));
  step(`UI counts ${apiChanges} changes in ${overlays.data.length} overlays, as the API does`);

  // the overlay: a change clicked is selected (and zoomed to); the three modes
  await page.locator("[data-testid=overlay-viewer][data-ready=true]").waitFor({ timeout: 60_000 });
  const shownChanges = page.getByTestId("change");
  assert.ok((await shownChanges.count()) > 0, "the first pair with changes is shown");
  await shownChanges.first().click();
  assert.equal(await shownChanges.first().getAttribute("aria-pressed"), "true");
  await setRange(page.getByLabel("Slider position"), 0.3);
  await page.getByLabel("Onion skin").check();
  await setRange(page.getByLabel("Onion skin opacity of B"), 0.6);
  await page.getByLabel("Red/green overlay").check();
  await page.waitForTimeout(1500); // the zoom animation
  await shot("8-compare");

  // the reports download
  for (const [button, check] of [
    ["Report (PDF)", (b) => assert.equal(b.subarray(0, 5).toString(), "%PDF-")],
    ["Report (Markdown)", (b) => assert.match(b.toString(), /^#/m)],
  ]) {
    check(await download(page, () => page.getByRole("button", { name: button }).click()));
  }
  return jobID;
}

/** jobsAndWebhooks checks the project's jobs tree and the webhook endpoint's delivery log and redelivery. */
export async function jobsAndWebhooks({ page, base, shot, projectID }) {
  await page.goto(`${base}/#/p/${encodeURIComponent(projectID)}`);
  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  const compareRow = page.locator('[data-testid=job-row][data-type=compare]');
  await compareRow.waitFor();
  assert.equal(await compareRow.getAttribute("data-status"), "Completed");
  const before = await page.getByTestId("job-row").count();
  await compareRow.getByRole("button", { name: /^Show the \d+ jobs below compare/ }).click();
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=job-row]").length > n, before);
  step(`jobs tree: ${await page.getByTestId("job-row").count()} rows with the compare job's children`);
  await shot("9-jobs");

  // deliveries of the events so far (failing: the receiver is not one), one sent again
  await page.getByRole("link", { name: "Webhooks" }).click();
  await page.getByRole("button", { name: "Deliveries" }).click();
  const deadline = Date.now() + 90_000;
  while ((await page.getByTestId("delivery").count()) === 0) {
    assert.ok(Date.now() < deadline, "no delivery attempt logged in 90 s");
    await page.waitForTimeout(2000);
    await page.getByRole("button", { name: "Refresh" }).click();
  }
  await page.getByTestId("delivery").first().getByRole("button", { name: "Redeliver" }).click();
  await page.getByText(/queued again/).waitFor();
  step("webhook deliveries listed, one redelivered");
  await shot("10-webhooks");
}

/** tablet checks the compare and viewer screens at 1024×768: nothing wider than the screen, controls reached with Tab. */
export async function tablet({ page, base, compareJobID, sheetID, shot }) {
  await page.setViewportSize({ width: 1024, height: 768 });
  const tabTo = async (predicate, what) => {
    await page.locator("body").focus();
    for (let i = 0; i < 150; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(predicate)) return;
    }
    assert.fail(`${what} is not reached with Tab`);
  };
  const fits = async (what) => {
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(w <= 1024, `${what}: the page is ${w} px wide on a 1024 px screen`);
  };

  await page.goto(`${base}/#/c/${encodeURIComponent(compareJobID)}`);
  await page.locator("[data-testid=overlay-viewer][data-ready=true]").waitFor({ timeout: 60_000 });
  await fits("compare");
  for (const sel of ["[data-testid=overlay-viewer]", ".changes", ".pairs"]) {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b && b.x >= 0 && b.x + b.width <= 1024 && b.width > 100, `${sel} on screen: ${JSON.stringify(b)}`);
  }
  await tabTo(() => document.activeElement?.getAttribute("data-testid") === "change", "a change");
  await page.keyboard.press("Enter");
  // Enter selects the change (Firefox renders the selection after the key event returns: wait for it)
  await page.waitForFunction(() => document.activeElement?.getAttribute("aria-pressed") === "true", undefined, { timeout: 5_000 });
  await page.waitForTimeout(1000);
  await shot("11-tablet-compare");

  await page.goto(`${base}/#/s/${encodeURIComponent(sheetID)}`);
  await page.getByTestId("viewer").waitFor();
  await page.locator("[data-testid=detection-count][data-total]:not([data-total=''])").waitFor();
  await fits("viewer");
  await tabTo(() => document.activeElement?.textContent === "Find symbols", "Find symbols");
  await tabTo(() => document.activeElement?.getAttribute("data-testid") === "entry-count", "a legend count");
  await page.keyboard.press("Enter");
  await page.getByTestId("instances").waitFor();
  step("tablet layout fits 1024×768; controls reached with Tab");
}
