// Fast tests of the card table's page (courtlearn/widgets/static/table.js) with Node's own
// test runner, jsdom and a fake anywidget model: no kernel, no browser.
//
//   make test-js      (installs jsdom under build/js, writes build/js/fixtures.json from
//                      real CardTable snapshots, then runs: node --test tests/js/)
import { test, beforeEach, afterEach, mock } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const BUILD = new URL("../../build/js/", import.meta.url);
const require = createRequire(BUILD);
const { JSDOM } = require("jsdom");
const FIX = JSON.parse(readFileSync(new URL("fixtures.json", BUILD), "utf8"));

const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
globalThis.CSS = { escape: (s) => String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`) };
dom.window.Element.prototype.animate = function () { return { onfinish: null }; };
const { default: widget } = await import("../../courtlearn/widgets/static/table.js");

/** A stand-in for anywidget's model: traitlets by name, custom messages both ways. */
function fakeModel(state, { animate = false, speed = 0 } = {}) {
  const values = { state, animate, speed, size: "normal" };
  const handlers = {};
  const sent = [];
  return {
    sent,
    get: (k) => values[k],
    set(k, v) { values[k] = v; (handlers[`change:${k}`] || []).forEach((f) => f()); },
    on(ev, f) { (handlers[ev] ||= []).push(f); },
    off(ev, f) { handlers[ev] = (handlers[ev] || []).filter((g) => g !== f); },
    send(msg) { sent.push(structuredClone(msg)); },
    reply(msg) { (handlers["msg:custom"] || []).forEach((f) => f(msg)); },
  };
}

let mounted = [];

function mount(state, opts) {
  const el = document.createElement("div");
  document.body.replaceChildren(el);
  const model = fakeModel(state, opts);
  const cleanup = widget.render({ model, el });
  mounted.push(cleanup);
  return { el, model, cleanup, root: el.querySelector("[data-role=table]") };
}

const handCards = (root) => [...root.querySelectorAll("[data-role=hand] [data-card]")];

beforeEach(() => mock.timers.reset());
afterEach(() => { mounted.forEach((f) => f()); mounted = []; });

test("face-down cards carry no identity anywhere in the page", () => {
  const { el, root } = mount(FIX.east_to_play);
  const html = el.innerHTML;
  for (const code of FIX.hidden_from_east) {
    assert.ok(!new RegExp(`data-card="${code}"`).test(html), `${code} is in the page`);
  }
  const backs = root.querySelectorAll("[data-facedown]");
  assert.equal(backs.length, 12 + 13 + 13);          // South (who led 2C), North, West
  for (const b of backs) assert.equal(b.getAttribute("data-card"), null);
  // the viewer's cards are face up and marked lawful or not
  const mine = handCards(root);
  assert.equal(mine.length, 13);
  const legal = mine.filter((c) => c.dataset.legal === "true").map((c) => c.dataset.card);
  assert.deepEqual(legal, FIX.east_to_play.frames.at(-1).seats[1].legal);
});

test("a click sends one intent with a request id; clicks wait for its reply", () => {
  const { model, root } = mount(FIX.east_to_play);
  const [first, second] = handCards(root);
  first.click();
  second.click();                                     // while the first is with Python
  assert.deepEqual(model.sent, [{ type: "play", card: first.dataset.card, id: 1 }]);
  assert.equal(root.dataset.pending, "true");
  model.reply({ reply_to: 99, ok: true });            // someone else's reply changes nothing
  assert.equal(root.dataset.pending, "true");
  model.reply({ reply_to: 1, ok: true });
  assert.equal(root.dataset.pending, "false");
  assert.equal(root.dataset.reply, "accepted");
  second.click();
  assert.equal(model.sent.length, 2);
  assert.equal(model.sent[1].id, 2);
  assert.equal("rev" in model.sent[1], false);        // nobody reads it: not sent
});

test("a refused intent shows the reason and frees the table", () => {
  const { model, root } = mount(FIX.east_to_play);
  const illegal = handCards(root).find((c) => c.dataset.legal === "false");
  illegal.click();
  assert.equal(model.sent[0].card, "KD");
  const reason = "East cannot play K♦: clubs were led and East holds A♣ K♣.";
  model.reply({ reply_to: 1, ok: false, reason });
  assert.equal(root.dataset.reply, "refused");
  assert.equal(root.dataset.refused, reason);
  assert.equal(root.dataset.pending, "false");
  // the state Python syncs with the refusal is drawn in the message line
  const frames = FIX.east_to_play.frames.map((f) => ({ ...f, message: reason, message_kind: "error" }));
  model.set("state", { ...FIX.east_to_play, rev: 99, frames });
  const msg = root.querySelector("[data-role=message]");
  assert.equal(msg.textContent, reason);
  assert.equal(msg.dataset.kind, "error");
});

test("a kernel that never answers does not freeze the table for good", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  const { model, root } = mount(FIX.east_to_play);
  handCards(root)[0].click();
  assert.equal(root.dataset.pending, "true");
  mock.timers.tick(15001);
  assert.equal(root.dataset.pending, "false");
  handCards(root)[1].click();
  assert.equal(model.sent.length, 2);
});

test("arrow keys move over the lawful cards and Enter plays the focused one", () => {
  const { model, root } = mount(FIX.east_to_play);
  const legal = handCards(root).filter((c) => c.dataset.legal === "true");
  assert.equal(legal[0].getAttribute("tabindex"), "0");
  legal[0].focus();
  const key = (target, k) => target.dispatchEvent(new dom.window.KeyboardEvent("keydown", { key: k, bubbles: true }));
  key(legal[0], "ArrowRight");
  assert.equal(document.activeElement.dataset.card, legal[1].dataset.card);
  key(document.activeElement, "End");
  assert.equal(document.activeElement.dataset.card, legal.at(-1).dataset.card);
  key(document.activeElement, "ArrowRight");          // wraps round
  assert.equal(document.activeElement.dataset.card, legal[0].dataset.card);
  key(document.activeElement, "Enter");
  assert.deepEqual(model.sent, [{ type: "play", card: legal[0].dataset.card, id: 1 }]);
});

test("the bots' answers are queued and drawn one after the other", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  const frames = FIX.bots_answer.frames;
  assert.ok(frames.length >= 4);
  const { root } = mount({ ...FIX.bots_answer, follows: false }, { animate: true, speed: 400 });
  const count = () => Number(root.querySelector("[data-role=trick]").dataset.count);
  const seen = [count()];
  assert.equal(root.dataset.busy, "true");
  for (let i = 1; i < frames.length; i++) { mock.timers.tick(1000); seen.push(count()); }
  assert.deepEqual(seen, frames.map((f) => f.trick.length));
  mock.timers.tick(2000);
  assert.equal(root.dataset.busy, "false");
});

test("suit words come from the snapshot's names", () => {
  const state = structuredClone(FIX.trump_phase);
  const snap = state.frames.at(-1);
  snap.names.suits.S.plural = "hukum";
  const { model, root } = mount(state);
  const buttons = [...root.querySelectorAll("[data-role=call-trump]")];
  assert.deepEqual(buttons.map((b) => b.dataset.suit), ["S", "H", "C", "D"]);
  assert.match(buttons[0].textContent, /hukum/);
  buttons[1].click();
  assert.deepEqual(model.sent, [{ type: "call_trump", suit: "H", id: 1 }]);
});

test("an Urdu snapshot draws its own words, right to left, with its font's name", () => {
  const { root } = mount(FIX.urdu_trump_phase);
  assert.equal(root.lang, "ur");
  assert.equal(root.dataset.dir, "rtl");
  const words = FIX.urdu_trump_phase.frames.at(-1).words;
  assert.equal(root.querySelector("[data-role=caller]").textContent, words.caller);
  assert.equal(root.querySelector(".cl-actions-label").textContent, "رنگ بولیے:");
  const spade = root.querySelector("[data-role=call-trump][data-suit=S]");
  assert.equal(spade.getAttribute("aria-label"), "حکم بولیے");
  assert.equal(handCards(root)[0].getAttribute("aria-label"), "A\u2660 حکم کا یکّا");   // as shown, then said
  // no English word is left in what the page shows or reads aloud
  const shown = [root.textContent, ...[...root.querySelectorAll("[aria-label],[title]")]
    .map((e) => `${e.getAttribute("aria-label") || ""} ${e.getAttribute("title") || ""}`)].join(" ");
  assert.deepEqual(shown.match(/[A-Za-z]{2,}/g), null);
});

test("each pile says its own count, in the snapshot's words", () => {
  for (const fixture of [FIX.bots_answer, FIX.urdu_trump_phase]) {
    const state = structuredClone(fixture);
    const snap = state.frames.at(-1);
    snap.piles[0].count = 1;
    snap.piles[1].count = 5;
    state.frames = [snap];
    const { root } = mount(state);
    const texts = [...root.querySelectorAll("[data-role=pile]")].map((p) =>
      [p.dataset.count, p.querySelector(".cl-pile-count").textContent]);
    assert.deepEqual(texts.map(([count, text]) => text.startsWith(`${count} `)), [true, true], texts);
  }
});

test("cleanup removes every listener from the model", () => {
  const { model, cleanup, root } = mount(FIX.east_to_play);
  handCards(root)[0].click();
  cleanup();
  model.set("state", { ...FIX.trump_phase, rev: 5 });   // nothing is drawn any more
  assert.equal(root.dataset.phase, "play");
  model.reply({ reply_to: 1, ok: true });
  assert.equal(root.dataset.pending, "true");
});

test("the hinted card's tag is the table's own word for a hint", () => {
  const { root } = mount(FIX.urdu_hint);
  const hinted = root.querySelectorAll("[data-role=hand] [data-hint=true]");
  assert.equal(hinted.length, 1);
  const word = FIX.urdu_hint.frames.at(-1).words.hint;
  assert.equal(hinted[0].dataset.tag, word);            // table.css shows attr(data-tag)
  assert.match(word, /^[^A-Za-z]+$/);
});

test("a face-up hand across the felt says how long its first row is on a narrow table", () => {
  const { root } = mount(FIX.all_hands);
  const rows = [...root.querySelectorAll(".cl-hand-row")];
  assert.deepEqual(rows.map((h) => [h.dataset.seat, h.style.getPropertyValue("--cl-cols")]),
    [["2", "7"], ["0", "7"]]);                          // North and South: seven, then six
  assert.equal(root.querySelectorAll(".cl-hand-side.cl-hand-row").length, 0);
  const five = mount(FIX.trump_phase).root.querySelector(".cl-hand-row");
  assert.equal(five.style.getPropertyValue("--cl-cols"), "5");    // the first batch: one row
  // face-down hands are no rows of cards to fit
  assert.equal(mount(FIX.east_to_play).root.querySelectorAll(".cl-hand-row").length, 1);
});

test("a swept trick flies inside the table and nothing holds it away when the flight ends", () => {
  const proto = dom.window.Element.prototype;
  const { animate, getBoundingClientRect } = proto;
  const calls = [];
  proto.animate = function (keyframes, options) { calls.push({ el: this, keyframes, options }); return { onfinish: null }; };
  try {
    // no stylesheet on the table (jsdom has none): nothing is where it will be drawn, no flight
    mount(FIX.swept, { animate: true });
    assert.equal(calls.length, 0);
    // with the stylesheet, and a pile measured absurdly far away (a layout that is not the one
    // on screen): the cards still stay within the table's own size, and no fill keeps them
    globalThis.getComputedStyle = () => ({ getPropertyValue: (n) => (n === "--cl-size-w" ? "58px" : "") });
    proto.getBoundingClientRect = function () {
      const box = (left, top, width, height) => ({ left, top, width, height, right: left + width, bottom: top + height });
      if (this.classList.contains("cl-table")) return box(0, 0, 300, 500);
      if (this.dataset.role === "pile") return box(40, 2400, 40, 60);
      return box(120, 200, 50, 70);
    };
    mount(FIX.swept, { animate: true });
    const flights = calls.filter((c) => c.el.dataset.card);
    assert.equal(flights.length, 4);
    for (const { keyframes, options } of flights) {
      assert.ok(!options.fill || options.fill === "none", options.fill);
      const [dx, dy] = keyframes.map((k) => k.translate).filter(Boolean)
        .map((t) => t.split(" ").map(parseFloat)).reduce((a, b) => (Math.hypot(...b) > Math.hypot(...a) ? b : a));
      assert.ok(Math.abs(dx) <= 300 && Math.abs(dy) <= 500, `${dx} ${dy}`);
      assert.equal(keyframes.at(-1).translate, "0px 0px");    // back in its slot
      assert.equal("opacity" in keyframes.at(-1), false);     // at its own (dimmed) opacity
    }
  } finally {
    proto.animate = animate;
    proto.getBoundingClientRect = getBoundingClientRect;
    delete globalThis.getComputedStyle;
  }
});

test("the last trick can be looked at while the next one is open, and put away again", () => {
  const { root } = mount(FIX.second_trick);
  const last = FIX.second_trick.frames.at(-1).last_trick;
  assert.deepEqual([last.number, last.winner], [1, 1]);
  assert.equal(root.querySelector("[data-role=trick]").dataset.count, "1");     // KC, open
  assert.equal(root.querySelector("[data-role=last-trick-view]"), null);
  const button = () => root.querySelector("[data-role=last-trick-button]");
  assert.equal(button().getAttribute("aria-pressed"), "false");
  button().click();
  const view = root.querySelector("[data-role=last-trick-view]");
  assert.deepEqual([...view.querySelectorAll("[data-card]")].map((c) => c.dataset.card),
    last.cards.map((c) => c.card));
  assert.equal(view.querySelector(".cl-winning").dataset.card, "AC");
  assert.equal(view.querySelector(".cl-last-caption").textContent, "Trick 1: East won it.");
  assert.equal(root.querySelector("[data-role=trick]").dataset.count, "1");     // still there
  assert.equal(button().getAttribute("aria-pressed"), "true");
  assert.equal(button().getAttribute("aria-controls"), view.id);
  // Escape puts it away and leaves the keyboard on its button
  button().focus();
  root.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  assert.equal(root.querySelector("[data-role=last-trick-view]"), null);
  assert.equal(document.activeElement, button());
});
