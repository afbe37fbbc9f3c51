// The class's learner page (courtlearn/classroom/static/learner.js) in jsdom, against a
// real class server (`courtlearn class serve` on 127.0.0.1, started here): joining from
// the address with code and name, the seat buttons, the table drawn by the widget's own
// table.js through the page's WebSocket model, a move and its reply, names as text, and
// the page finding its seat again after the server is killed and started again.
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
const CODE = "JSDOM2";
const DB = join(mkdtempSync(join(tmpdir(), "class-js-")), "class.sqlite");

let server = null;

/** Start the class server; resolves with its port once it says so. */
function serve(port = 0) {
  return new Promise((resolve, reject) => {
    server = spawn(PYTHON, ["-m", "courtlearn.classroom.cli", "class", "serve", "--db", DB,
      "--code", CODE, "--host", "127.0.0.1", "--port", String(port), "--tables", "1"],
    { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^port: (\d+)$/m);
      if (m) resolve(Number(m[1]));
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

test("a learner joins, sits, plays, and finds the seat again after a restart", async () => {
  const port = await serve();
  const base = `http://127.0.0.1:${port}/`;
  const html = await (await fetch(base)).text();
  const name = "<b>Zoya</b>";
  const dom = new JSDOM(html, { url: `${base}?code=${CODE.toLowerCase()}&name=${encodeURIComponent(name)}`,
    pretendToBeVisual: true });
  const w = dom.window;
  Object.assign(globalThis, { window: w, document: w.document, location: w.location,
    localStorage: w.localStorage, history: w.history, WebSocket: w.WebSocket });
  globalThis.CSS = { escape: (s) => String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`) };
  w.Element.prototype.animate = function () { return { onfinish: null }; };
  // the page imports ./table.js and ./dom.js beside it, as the server serves them under /static/
  const dir = new URL("classroom-page/", BUILD);
  mkdirSync(dir, { recursive: true });
  copyFileSync(new URL("courtlearn/classroom/static/learner.js", ROOT), new URL("learner.js", dir));
  copyFileSync(new URL("courtlearn/widgets/static/table.js", ROOT), new URL("table.js", dir));
  copyFileSync(new URL("courtlearn/widgets/static/dom.js", ROOT), new URL("dom.js", dir));
  const { makeModel } = await import(new URL("learner.js", dir).href);
  assert.equal(typeof makeModel, "function");
  const $ = (sel) => w.document.querySelector(sel);
  const $$ = (sel) => [...w.document.querySelectorAll(sel)];

  // joined at once from the address: the seat buttons, the address cleaned of its query
  await until(() => $$("[data-role=take-seat]").length === 4, 10000, "the seat buttons");
  assert.equal($("[data-role=connection]").dataset.connected, "true");
  assert.equal($("[data-role=whoami]").textContent, name);          // text, not markup
  assert.equal($("[data-role=whoami] b"), null);
  assert.equal(w.location.search, "");
  const token = w.localStorage.getItem("courtlearn.class.token");
  assert.ok(token && token.length >= 40);
  const seat = $('[data-role=take-seat][data-table="0"][data-seat="0"]');
  seat.click();

  // the table, drawn by table.js: the viewer's cards face up, the others face down
  await until(() => $$("[data-role=table] [data-role=hand] [data-card]").length >= 5, 10000, "the hand");
  assert.equal($$("[data-role=hand-other] [data-card]").length, 0);
  assert.ok($$("[data-facedown]").length > 0);
  // the roster comes in its own message (it may follow the picture)
  await until(() => $("[data-role=roster-seat][data-seat='0'][data-connected='true']"), 5000, "the roster");
  // the bots play the empty seats until it is South's turn; then South moves
  const table = () => $("[data-role=table]");
  await until(() => table().dataset.toPlay === "0" && table().dataset.busy === "false", 10000, "South's turn");
  const call = $("[data-role=call-trump]");
  if (call) call.click();
  else $('[data-role=hand] [data-card][data-legal="true"]').click();
  await until(() => table().dataset.reply === "accepted", 5000, "the reply");

  // the server is killed and started again on the same file and port: the page's own
  // reconnect loop brings it back to its seat and hand, without a click
  const hand = $$("[data-role=hand] [data-card]").map((c) => c.dataset.card).join(" ");
  const old = server;
  old.kill("SIGKILL");
  await until(() => $("[data-role=connection]").dataset.connected === "false", 5000, "the drop");
  const restarted = Date.now();
  await serve(port);
  await until(() => $("[data-role=connection]").dataset.connected === "true", 5000, "the return");
  await until(() => $$("[data-role=hand] [data-card]").length > 0, 5000, "the hand again");
  assert.ok(Date.now() - restarted < 5000);
  assert.equal($$("[data-role=hand] [data-card]").map((c) => c.dataset.card).join(" "), hand);
  assert.equal(w.localStorage.getItem("courtlearn.class.token"), token);
  w.close();
});
