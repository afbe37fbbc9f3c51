// The results grid of the teacher's dashboard (dashboard.js on /teacher, in jsdom) against a
// real class server (`courtlearn class serve --show-teacher-link` on 127.0.0.1, started
// here): two learners' notebooks send results over POST api/results; the grid shows a row
// per learner (one stuck after three wrong tries), the question most of the class got
// wrong, names as text; Hide names leaves no name on the page; the CSV button downloads.
//
//   make test-js      (node --test tests/js/; needs .venv with courtlearn installed)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import { mkdirSync, copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url);
const BUILD = new URL("build/js/", ROOT);
const require = createRequire(BUILD);
const { JSDOM } = require("jsdom");
const PYTHON = process.env.PYTHON || new URL(".venv/bin/python", ROOT).pathname;
const CODE = "RESJS2";
const DB = join(mkdtempSync(join(tmpdir(), "class-results-js-")), "class.sqlite");
const ALI = "<img src=x onerror=alert(1)>Ali";

let server = null;
let page = null;          // the teacher page's window, closed even when a check fails

function serve() {
  return new Promise((resolve, reject) => {
    server = spawn(PYTHON, ["-m", "courtlearn.classroom.cli", "class", "serve", "--db", DB,
      "--code", CODE, "--host", "127.0.0.1", "--port", "0", "--tables", "1",
      "--show-teacher-link"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const port = out.match(/^port: (\d+)$/m);
      const link = out.match(/^teacher page: (\S+)$/m);
      if (port && link) resolve({ port: Number(port[1]), link: link[1] });
    });
    server.on("exit", (code) => reject(new Error(`the class server stopped (${code}): ${out}`)));
  });
}

after(() => {
  if (page) page.close();
  if (server) server.kill("SIGKILL");
});

async function until(check, ms = 10000, what = "the page") {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function api(base, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `token ${token}`;
  const r = await fetch(base + path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

/** A learner's notebook: joins, then sends its answers to trick_winner/1, one by one. */
async function notebook(base, name, answers) {
  const joined = await api(base, "api/join", { code: CODE, name });
  assert.equal(joined.status, 200);
  let n = 0;
  for (const answer of answers) {
    const id = `${joined.body.learner}-try-${String(++n).padStart(4, "0")}`;
    const sent = await api(base, "api/results", { results: [{ id, kind: "exercise",
      item: "trick_winner/1", answer }] }, joined.body.token);
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body.stored, [id]);
  }
}

test("the dashboard's results grid: who is stuck, the hardest question, names hidden, CSV", async () => {
  const { port, link } = await serve();
  const base = `http://127.0.0.1:${port}/`;
  await notebook(base, ALI, ["K♥"]);                          // right at the first try

  const html = await (await fetch(`${base}teacher`)).text();
  const dom = new JSDOM(html, { url: link, pretendToBeVisual: true });
  const w = page = dom.window;
  Object.assign(globalThis, { window: w, document: w.document, location: w.location,
    sessionStorage: w.sessionStorage, history: w.history, WebSocket: w.WebSocket });
  globalThis.CSS = { escape: (s) => String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`) };
  w.Element.prototype.animate = function () { return { onfinish: null }; };
  const dir = new URL("results-page/", BUILD);
  mkdirSync(dir, { recursive: true });
  for (const [from, name] of [["courtlearn/classroom/static/teacher.js", "teacher.js"],
    ["courtlearn/classroom/static/dashboard.js", "dashboard.js"],
    ["courtlearn/widgets/static/table.js", "table.js"],
    ["courtlearn/widgets/static/dom.js", "dom.js"]]) {
    copyFileSync(new URL(from, ROOT), new URL(name, dir));
  }
  await import(new URL("teacher.js", dir).href);
  const $ = (sel) => w.document.querySelector(sel);
  const $$ = (sel) => [...w.document.querySelectorAll(sel)];

  const rows = () => $$("[data-role=results-row]");
  await until(() => rows().length === 1, 10000, "the results grid");
  const box = $("[data-role=results]");
  assert.equal($("[data-role=hardest]"), null);              // nobody got anything wrong yet
  assert.ok(!box.textContent.includes("null") && !box.textContent.includes("undefined"));

  await notebook(base, "Zoya", ["2♥", "Q♥", "A♣"]);           // live: three wrong tries, stuck
  await until(() => rows().length === 2 && box.dataset.count === "4", 10000, "Zoya's tries");
  assert.equal(box.dataset.count, "4");
  const byName = Object.fromEntries(rows().map((r) =>
    [r.querySelector("[data-role=learner-name]").textContent, r]));
  assert.deepEqual(Object.keys(byName).sort(), [ALI, "Zoya"].sort());
  assert.equal(box.querySelector("img"), null);                 // a name is text, not markup
  const zoya = byName.Zoya;
  assert.equal(zoya.dataset.stuck, "tries");
  assert.ok(zoya.querySelector("[data-role=stuck]").textContent.includes("3"));
  const cell = (row) => row.querySelector('[data-role=results-cell][data-item="exercise:trick_winner/1"]');
  assert.equal(cell(zoya).dataset.state, "trying");
  assert.equal(cell(zoya).dataset.tries, "3");
  assert.equal(cell(byName[ALI]).dataset.state, "first");
  assert.equal(byName[ALI].dataset.stuck, "");
  const hard = $$("[data-role=hard-item]");
  assert.deepEqual(hard.map((x) => [x.dataset.item, x.dataset.wrong, x.dataset.tried]),
    [["exercise:trick_winner/1", "1", "2"]]);
  assert.ok(!box.textContent.includes("null") && !box.textContent.includes("undefined"));

  // names hidden for the projector: none left anywhere on the dashboard
  const hide = $("[data-role=hide-names]");
  assert.equal(hide.getAttribute("aria-pressed"), "false");
  hide.click();
  await until(() => hide.getAttribute("aria-pressed") === "true", 5000, "names hidden");
  const dash = $("[data-role=dashboard]");
  assert.ok(!dash.textContent.includes("Zoya") && !dash.textContent.includes("Ali"));
  assert.deepEqual(rows().map((r) => r.querySelector("[data-role=learner-name]").textContent).sort(),
    ["Learner 1", "Learner 2"]);
  hide.click();
  await until(() => hide.getAttribute("aria-pressed") === "false", 5000, "names shown");

  // one wrong try reads "1 try" (the language's plural forms), three "3 tries"
  await notebook(base, "Omar", ["2♥"]);
  await until(() => rows().length === 3, 10000, "Omar's try");
  const now = (name) => rows().find((r) =>
    r.querySelector("[data-role=learner-name]").textContent === name).textContent;
  assert.ok(now("Omar").includes("1 try") && !now("Omar").includes("1 tries"), now("Omar"));
  assert.ok(now("Zoya").includes("3 tries"), now("Zoya"));

  // the CSV: the reply brings it, the page hands it to the browser as a download
  $("[data-role=results-csv]").click();
  await until(() => Number(dash.dataset.csvBytes) > 0, 5000, "the CSV");
  assert.equal(dash.dataset.reply, "accepted");
});
