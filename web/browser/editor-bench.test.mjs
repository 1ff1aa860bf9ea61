// The editor at scale (issue 37, item 3): the mixed-1000 and mixed-5000 benchmark IRs opened by their deep link in
// chromium on this machine. It records, as the page sees them (requestAnimationFrame and a long-task observer), the
// time from the IR's arrival to the first drawn canvas, the longest task while opening, and the p95 frame time while
// a user pans (mouse drag) and zooms (wheel) at the fitted zoom and at 100 %. The figures are printed for
// docs/studio.md; the test asserts what the user sees (the whole graph fitted, nodes drawn), never times.
import { expect, test } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoDir, useStudio } from "./harness.mjs";

// Playwright's trace takes a DOM snapshot around every action, which at 5,000 nodes blocks the page for a second
// each time: the figures would be the trace's. A failed run here is re-run with the trace on by hand.
test.use({ trace: "off" });

let studio;
useStudio({ edge: false }, (s) => (studio = s));

const viewport = { width: 1440, height: 900 };

// EDGEFLOW_BENCH_PROFILE=DIR also records a CPU profile (Chrome DevTools protocol) of the opening and of the panning
// and zooming, writes them to DIR as NAME-open.cpuprofile and NAME-pan.cpuprofile (DevTools' Performance panel
// opens them) and prints the functions with the most self time, which a loaded machine disturbs less than the
// wall-clock figures.
const profileDir = process.env.EDGEFLOW_BENCH_PROFILE;

async function startProfile(page) {
  if (!profileDir) return null;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
  await cdp.send("Profiler.start");
  return cdp;
}

/** stopProfile writes the profile and prints its top functions by self time. */
async function stopProfile(cdp, file) {
  if (!cdp) return;
  const { profile } = await cdp.send("Profiler.stop");
  await cdp.detach();
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(path.join(profileDir, file), JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const f = byId.get(profile.samples[i]).callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`# ${file}: ${Math.round(total)} ms sampled; self time:`);
  for (const [k, ms] of top) console.log(`#   ${ms.toFixed(0).padStart(6)} ms  ${k}`);
}

// the opening's trace: tasks and their rendering stages, and the JavaScript samples in them
const traceCategories = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
  "blink.user_timing",
];

/** frames records the page's frame intervals while act() runs and resolves to their p95 and count. */
async function frames(page, act) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    window.__framing = true;
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__framing) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await act();
  const d = await page.evaluate(() => {
    window.__framing = false;
    return window.__frames.slice(1);
  });
  d.sort((a, b) => a - b);
  return { p95: d[Math.floor(d.length * 0.95)] ?? 0, count: d.length };
}

/**
 * emptySpot finds a point of the canvas near its centre where the pane itself is under the mouse (no node, handle,
 * panel or minimap), so that a drag from it pans the view instead of moving a node or drawing a connection.
 */
async function emptySpot(page, box) {
  const at = await page.evaluate((b) => {
    const free = (x, y) => {
      const el = document.elementFromPoint(x, y);
      return !!el?.closest(".react-flow") && !el.closest(".react-flow__node, .react-flow__handle, .react-flow__panel");
    };
    for (let r = 0; r < Math.min(b.width, b.height) / 2; r += 6) {
      for (let a = 0; a < 24; a++) {
        const x = b.x + b.width / 2 + r * Math.cos((a * Math.PI) / 12);
        const y = b.y + b.height / 2 + r * Math.sin((a * Math.PI) / 12);
        if (free(x, y)) return { x, y };
      }
    }
    return null;
  }, box);
  expect(at, "the canvas has an empty spot to pan from").not.toBeNull();
  return at;
}

async function panAndZoom(page, box) {
  for (let round = 0; round < 2; round++) {
    const { x, y } = await emptySpot(page, box);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 300, y - 200, { steps: 30 });
    await page.mouse.move(x + 200, y + 150, { steps: 30 });
    await page.mouse.up();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, i < 4 ? -120 : 120);
  }
}

for (const name of ["mixed-1000", "mixed-5000"]) {
  test(`${name}: open time, longest task and frame times while panning and zooming`, async () => {
    const ir = JSON.parse(readFileSync(path.join(repoDir, `testdata/bench/ir/${name}.json`), "utf8"));
    const user = await studio.apiSignUp();
    const w = await studio.api(user, "POST", "/api/workflows", { name });
    await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, { ir });
    const page = await studio.newPage(user.context);
    await page.setViewportSize(viewport);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.addInitScript(() => {
      const m = { longest: 0, drawn: 0, irAt: 0 };
      window.__open = m;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) m.longest = Math.max(m.longest, e.duration);
      }).observe({ type: "longtask", buffered: true });
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (/\/api\/workflows\/[^/]+\/full/.test(e.name)) m.irAt = e.responseEnd;
      }).observe({ type: "resource", buffered: true });
      const check = () => {
        // a node in the page, or the batched path that draws them zoomed out this far (web/src/editor/lod.tsx)
        const batched = Number(document.querySelector(".efn-batched-nodes")?.getAttribute("data-nodes") ?? 0);
        if (!m.drawn && (batched > 0 || document.querySelector(".react-flow__node"))) {
          // drawn: the frame after the first nodes are in the page
          requestAnimationFrame(() => (m.drawn ||= performance.now()));
        }
        if (!m.drawn) requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    const openProfile = await startProfile(page);
    // EDGEFLOW_BENCH_TRACE=DIR: a Chrome trace of the opening and of the fitted pan and zoom (tasks, rendering
    // stages and, with the CPU profiler's category, the JavaScript samples), for by-hand study
    const traceDir = process.env.EDGEFLOW_BENCH_TRACE;
    const tracing = traceDir ? page.context().browser() : null;
    await tracing?.startTracing(page, {
      path: path.join(traceDir ?? "", `${name}-open.json`),
      categories: traceCategories,
    });
    await page.goto(`/workflows/${w.id}`);
    await expect.poll(() => page.evaluate(() => window.__open.drawn > 0), { timeout: 120_000 }).toBe(true);
    await expect.poll(() => page.evaluate(() => window.__open.irAt > 0)).toBe(true);
    // opening is over once the page is quiet: the validation answer is shown (found by its class: a text search
    // would walk the whole canvas in the page for every poll and be timed as the page's own work)
    await expect(page.locator(".problems-status")).toHaveText(/The workflow is valid\./, { timeout: 120_000 });
    const open = await page.evaluate(() => window.__open);
    await tracing?.stopTracing();
    await stopProfile(openProfile, `${name}-open.cpuprofile`);

    // Zoom to fit shows the whole graph: every node lies inside the canvas
    await page.getByRole("button", { name: "Zoom to fit" }).click();
    const pane = page.locator(".react-flow");
    const box = await pane.boundingBox();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const vp = document.querySelector(".react-flow__viewport").style.transform;
          return vp;
        }),
      )
      .toMatch(/scale/);
    // zoomed out this far, the nodes are one batched path (web/src/editor/lod.tsx): its box counts for them
    const fitted = await page.evaluate(() => {
      const r = document.querySelector(".react-flow").getBoundingClientRect();
      const nodes = [...document.querySelectorAll(".react-flow__node")].map((n) => n.getBoundingClientRect());
      const batch = document.querySelector(".efn-batched-nodes");
      const batched = Number(batch?.getAttribute("data-nodes") ?? 0);
      if (batched > 0) nodes.push(batch.querySelector("path").getBoundingClientRect());
      const inside = nodes.filter(
        (b) => b.left >= r.left - 1 && b.right <= r.right + 1 && b.top >= r.top - 1 && b.bottom <= r.bottom + 1,
      ).length;
      return { drawn: nodes.length, inside, count: nodes.length - (batched > 0 ? 1 : 0) + batched };
    });
    expect(fitted.count, "every node is drawn").toBe(ir.nodes.length);
    expect(fitted.inside, "every drawn node is inside the fitted canvas").toBe(fitted.drawn);

    const panProfile = await startProfile(page);
    await tracing?.startTracing(page, { path: path.join(traceDir ?? "", `${name}-pan.json`) });
    const atFit = await frames(page, () => panAndZoom(page, box));
    await tracing?.stopTracing();
    // 100 %: the Controls' zoom buttons are what a user presses; the wheel is quicker to the same end
    await page.evaluate(() => undefined);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, -200);
    const atFull = await frames(page, () => panAndZoom(page, box));
    await stopProfile(panProfile, `${name}-pan.cpuprofile`);
    console.log(
      `# ${name}: first drawn ${Math.round(open.drawn - open.irAt)} ms after the IR arrived ` +
        `(${Math.round(open.drawn)} ms after navigation start), longest task while opening ${Math.round(open.longest)} ms; ` +
        `fitted: ${fitted.count} nodes drawn; p95 frame ${atFit.p95.toFixed(1)} ms at the fitted zoom (${atFit.count} frames), ` +
        `${atFull.p95.toFixed(1)} ms zoomed in (${atFull.count} frames)`,
    );
    studio.assertClean(page);
  });
}
