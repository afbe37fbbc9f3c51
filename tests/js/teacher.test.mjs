// The teacher's page (/teacher: courtlearn/classroom/static/teacher.js drawing the
// dashboard with dashboard.js and the projector with the widget's table.js) in jsdom,
// against a real class server (`courtlearn class serve --show-teacher-link` on 127.0.0.1,
// started here): the token taken from the address's #fragment into sessionStorage and out
// of the address bar, a wrong one refused (the token form), the link pasted into the form,
// the dashboard live with a learner's name as text, pause/resume, the same deal, the
// projector with every hand face up and a step back, a seat handed to a bot, a learner
// removed (two clicks).
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
const CODE = "TEACH2";
const DB = join(mkdtempSync(join(tmpdir(), "class-teacher-js-")), "class.sqlite");
const NAME = "<img src=x onerror=alert(1)>Zoya";

let server = null;

/** Start the class server; resolves with its port and the teacher's link. */
function serve() {
  return new Promise((resolve, reject) => {
    server = spawn(PYTHON, ["-m", "courtlearn.classroom.cli", "class", "serve", "--db", DB,
      "--code", CODE, "--host", "127.0.0.1", "--port", "0", "--tables", "2",
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

after(() => { if (server) server.kill("SIGKILL"); });

async function until(test, ms = 10000, what = "the page") {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A learner (a bare WebSocket) joins and sits at table 0, seat 1. */
async function learner(port) {
  const w = new JSDOM("", { url: `http://127.0.0.1:${port}/` }).window;
  const ws = new w.WebSocket(`ws://127.0.0.1:${port}/ws`);
  const got = [];
  ws.onmessage = (ev) => got.push(JSON.parse(ev.data));
  await until(() => ws.readyState === 1, 5000, "the learner's socket");
  ws.send(JSON.stringify({ type: "hello", code: CODE, name: NAME }));
  await until(() => got.some((m) => m.type === "welcome"), 5000, "the welcome");
  ws.send(JSON.stringify({ type: "take_seat", table: 0, seat: 1 }));
  await until(() => got.some((m) => m.type === "seated"), 5000, "the seat");
  return { ws, got, w };
}

test("the teacher page: token, dashboard, buttons, projector", async () => {
  const { port, link } = await serve();
  const base = `http://127.0.0.1:${port}/`;
  assert.ok(link.startsWith(`${base}teacher#`));
  const lr = await learner(port);

  const html = await (await fetch(`${base}teacher`)).text();
  assert.ok(!html.includes(link.split("#")[1]));
  // opened with a wrong token in the fragment
  const dom = new JSDOM(html, { url: `${base}teacher#${"x".repeat(43)}`, pretendToBeVisual: true });
  const w = dom.window;
  Object.assign(globalThis, { window: w, document: w.document, location: w.location,
    sessionStorage: w.sessionStorage, history: w.history, WebSocket: w.WebSocket });
  globalThis.CSS = { escape: (s) => String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`) };
  w.Element.prototype.animate = function () { return { onfinish: null }; };
  const dir = new URL("teacher-page/", BUILD);
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

  // the fragment left the address bar at once; the wrong token is refused and forgotten
  assert.equal(w.location.hash, "");
  await until(() => $("[data-role=teacher-login]"), 10000, "the token form");
  assert.equal(w.sessionStorage.getItem("courtlearn.class.teacher"), null);
  assert.ok($("[data-role=teacher-notice]").textContent.length > 0);
  assert.equal($("[data-role=dashboard]"), null);

  // the whole link pasted into the form opens the dashboard
  $("[data-role=teacher-token]").value = link;
  $("[data-role=teacher-login]").dispatchEvent(new w.Event("submit", { cancelable: true }));
  await until(() => $$("[data-role=dash-table]").length === 2, 10000, "the dashboard");
  assert.equal(w.sessionStorage.getItem("courtlearn.class.teacher"), link.split("#")[1]);
  assert.equal($("[data-role=class-code]").textContent, CODE);
  const name = () => $('[data-role=dash-seat][data-table="0"][data-seat="1"] [data-role=learner-name]');
  await until(() => name() && name().textContent === NAME, 5000, "the learner's name");
  assert.equal(w.document.querySelector("[data-role=dashboard] img"), null);   // text, not markup
  assert.equal($('[data-role=dash-seat][data-table="0"][data-seat="1"]').dataset.connected, "true");

  // pause and resume every table
  const root = () => $("[data-role=dashboard]");
  $("[data-role=pause-all]").click();
  await until(() => root().dataset.paused === "true", 5000, "paused");
  assert.ok(lr.got.some((m) => m.type === "table" && m.paused));
  $("[data-role=resume-all]").click();
  await until(() => root().dataset.paused === "false", 5000, "resumed");

  // a seed that is no seed is refused with a sentence; then the same deal everywhere (when
  // the bots have begun table 1's deal, the page asks first: the teacher says yes)
  const sameDeal = () => {
    $("[data-role=same-deal]").click();
    const ask = $("[data-role=deal-confirm]");
    if (!ask.hidden) {
      assert.match(ask.textContent, /Table 1 is in the middle of a deal/);
      $("[data-role=deal-confirm-yes]").click();
      assert.ok(ask.hidden);
    }
  };
  $("[data-role=seed]").value = "-3";
  sameDeal();
  await until(() => root().dataset.reply === "refused", 5000, "the refusal");
  assert.match($("[data-role=dash-message]").textContent, /seed/i);
  $("[data-role=seed]").value = "7";
  sameDeal();
  await until(() => $$("[data-role=dash-table]").every((t) => t.dataset.batch !== "") &&
    $$("[data-role=compare-row]").length === 2, 5000, "the same deal");
  const batches = new Set($$("[data-role=dash-table]").map((t) => t.dataset.batch));
  assert.equal(batches.size, 1);

  // the projector: table 0 large, every hand face up, a step back and live again
  $('[data-role=project][data-table="0"]').click();
  const proj = () => $("[data-role=projector]");
  await until(() => !proj().hidden && proj().querySelector(".cl-table [data-card]"), 5000, "the projector");
  for (const seat of [0, 1, 2, 3]) {
    await until(() => proj().querySelectorAll(`[data-card][data-seat="${seat}"]`).length > 0,
      5000, `seat ${seat}'s cards face up`);
  }
  assert.equal(proj().querySelectorAll("[data-facedown]").length, 0);
  // who is connected, on the table itself: the learner's seat has the marker, bot seats none
  const conn = (seat) => proj().querySelector(`[data-role=seat][data-seat="${seat}"] [data-role=connected]`);
  assert.equal(conn(1).dataset.connected, "true");
  assert.equal(proj().querySelector('[data-role=seat][data-seat="1"] [data-role=seat-name]').dataset.connected, "true");
  for (const seat of [0, 2, 3]) assert.equal(conn(seat), null);
  assert.equal(proj().dataset.replay, "live");
  await until(() => Number(proj().dataset.actions) > 0, 10000, "a move at the table");
  $("[data-role=replay-back]").click();
  await until(() => proj().dataset.replay !== "live", 5000, "a step back");
  assert.equal(Number(proj().dataset.replay), Number(proj().dataset.actions) - 1);
  $('[data-role=projector-seat][data-seat="2"]').click();
  await until(() => proj().dataset.seat === "2", 5000, "North at the bottom");
  $("[data-role=replay-live]").click();
  await until(() => proj().dataset.replay === "live", 5000, "live again");
  $("[data-role=projector-close]").click();
  await until(() => proj().hidden, 5000, "the projector closed");

  // the seat to a bot (the learner waits in the lobby), then removed with two clicks
  $('[data-role=dash-seat][data-table="0"][data-seat="1"] [data-role=to-bot]').click();
  await until(() => $("[data-role=lobby-learner]"), 5000, "the lobby");
  const remove = () => $("[data-role=lobby-learner] [data-role=remove]");
  remove().click();
  assert.equal(remove().dataset.armed, "true");
  remove().click();
  await until(() => !$("[data-role=lobby-learner]"), 5000, "the learner removed");
  await until(() => lr.got.some((m) => m.type === "removed"), 5000, "the learner told");

  lr.ws.close();
  lr.w.close();
  w.close();
});
