// courtlearn card table: an anywidget ESM module.
//
// Python owns the game. It syncs `state` = {rev, frames: [snapshot, ...]}: the
// snapshots the viewer may see after each action since the last sync (one for
// a click, several when bots answered). This module draws them one after the
// other (animated, or only the last when motion is off) and sends intents
// (a clicked card, a called suit) with model.send, each with a request id that
// Python answers ({reply_to, ok, reason}); it never decides a rule, and every
// word naming a seat, team, game or suit comes in the snapshot (`names`).
// Every text goes in with textContent: nothing from the state is parsed as HTML.
import { fill, h } from "./dom.js";

/**
 * The snapshot Python sends (courtlearn/widgets/table.py: `Snapshot`; keep the two in step).
 * @typedef {{seat: number, name: string, pos: "bottom"|"left"|"top"|"right", team: number,
 *   viewer: boolean, controlled: boolean, hand: string[]|null, count: number, legal: string[],
 *   dealer: boolean,
 *   caller: boolean, turn: boolean, player: string|null,
 *   connected?: boolean|null}} SeatState   (connected: a class table's learner is connected
 *   (true) or away (false); null or missing: nobody to connect, no marker)
 * @typedef {{seat: number, card: string, pos: string}} PlayedCard
 * @typedef {{cards: PlayedCard[], winner: number, fresh: boolean, to: "centre"|"team",
 *   to_team: number, captured: number}} LastTrick
 * @typedef {{cards: PlayedCard[], winner: number, number: number}} PreviousTrick
 * @typedef {{team: number, name: string, count: number, mine: boolean}} PileState
 * @typedef {{seat: number, card: string|null}} HiddenTrump
 * @typedef {{game: string, seats: string[], teams: string[],
 *   suits: Object<string, {symbol: string, plural: string}>, ranks: Object<string, string>}} Names
 * @typedef {{game: string, title: string, names: Names, lang: string, dir: "ltr"|"rtl",
 *   words: Object<string, string>, viewer: number, show_all: boolean,
 *   replay: boolean, phase: "trump"|"play"|"over", to_play: number, dealer: number,
 *   trump_caller: number, trump: string|null, trump_note: string|null,
 *   trump_card: string|null, hidden_trump: HiddenTrump|null, seats: SeatState[],
 *   trick: PlayedCard[], last: LastTrick|null, last_trick: PreviousTrick|null,
 *   piles: PileState[], uses_centre: boolean,
 *   centre: number, score: string|null, message: string, message_kind: string,
 *   result: string|null, actions: string[], can_hint: boolean,
 *   hint: {card: string|null, suit: string|null, text: string}|null,
 *   can_best_play: boolean, best_play: BestPlay|null, can_review: boolean,
 *   review: ReviewStep|null,
 *   done: number, piles_raw: number[]}} Snapshot
 * @typedef {{on: boolean, seat: number, values: Object<string, number>|null, best: string[],
 *   measure: string, note: string|null}} BestPlay
 * @typedef {{index: number, count: number, kind: string, chosen: string, best: string[],
 *   verdict: "best"|"fine"|"unlucky"|"mistake", cost: number|null, text: string}} ReviewStep
 * @typedef {{rev: number, frames: Snapshot[], follows: boolean, more: boolean}} TableState
 * @typedef {{reply_to: number, ok: boolean, reason?: string}} Reply
 */

const RED = new Set(["H", "D"]);
// the words of the snapshot on show (set by draw), in its language: the suits, the ranks and
// the page's own labels. Before any snapshot, a card falls back to its own letters.
let SUITS = {};
let RANKS = {};
let WORDS = {};

/** One of the page's labels, its {name} parts filled in (Python's page_words). */
function w(key, vars = {}) {
  return fill(WORDS[key] === undefined ? key : WORDS[key], vars);
}
function tricksWord(n) { return w(n === 1 ? "tricks_one" : "tricks", { n }); }

function split(code) {
  const c = String(code);
  return { rank: c.slice(0, -1), suit: c.slice(-1) };
}

function suitWord(letter) { return (SUITS[letter] && SUITS[letter].plural) || letter; }
function pip(letter) { return (SUITS[letter] && SUITS[letter].symbol) || letter; }

export function cardLabel(code) {
  const { rank, suit } = split(code);
  if (WORDS.card === undefined) return `${rank}${suit}`;
  return w("card", { rank: RANKS[rank] || rank, suit: suitWord(suit) });
}

function faceCard(code, seat, cls = "") {
  const { rank, suit } = split(code);
  const symbol = pip(suit);
  const card = h("div", {
    class: `cl-card cl-face ${RED.has(suit) ? "cl-red" : "cl-black"} ${cls}`,
    "data-card": code,
    "data-seat": seat,
    "aria-label": cardLabel(code),
    role: "img",
  });
  const corner = h("span", { class: "cl-corner", "aria-hidden": "true" }, [
    h("span", { class: "cl-rank", text: rank }),
    h("span", { class: "cl-cpip", text: symbol }),
  ]);
  card.append(corner, h("span", { class: "cl-bigpip", "aria-hidden": "true", text: symbol }));
  return card;
}

function backCard(seat, cls = "") {
  return h("div", {
    class: `cl-card cl-back ${cls}`,
    "data-seat": seat,
    "data-facedown": "",
    "aria-label": w("face_down"),
    role: "img",
  });
}

/** Add the fonts Python sent (Urdu's Nastaliq, Hindi's Devanagari) to the page, once per
 * family: the browser-only site has no other way to get them offline. Once added they also
 * serve the lesson's own text: Urdu blocks (lang="ur") are set in Nastaliq, and both families
 * close the page's font lists, so a glyph no installed font has is drawn with them. */
const fontsAdded = new Set();
const PAGE_FONTS = `
[lang="ur"] {
  font-family: "Noto Nastaliq Urdu", var(--jp-content-font-family, system-ui), "Noto Sans Devanagari", sans-serif;
  line-height: 2;
}
[lang="hi"] {
  font-family: var(--jp-content-font-family, system-ui), "Noto Sans Devanagari", "Noto Nastaliq Urdu", sans-serif;
}
.jp-RenderedHTMLCommon, .jp-OutputArea-output pre {
  font-family: var(--jp-content-font-family, system-ui), "Noto Nastaliq Urdu", "Noto Sans Devanagari", sans-serif;
}
.jp-CodeCell .cm-content {
  font-family: var(--jp-code-font-family, monospace), "Noto Nastaliq Urdu", "Noto Sans Devanagari", monospace;
}`;
function addFont(model) {
  const fonts = model.get("fonts") || {};
  if (typeof FontFace === "undefined") return;
  for (const [family, data] of Object.entries(fonts)) {
    if (!data || fontsAdded.has(family)) continue;
    const bytes = data.buffer ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data;
    if (!bytes.byteLength) continue;
    fontsAdded.add(family);
    const face = new FontFace(family, bytes, { weight: "100 900" });
    face.load().then((f) => { document.fonts.add(f); pageFonts(); }, (err) => {
      fontsAdded.delete(family);
      console.warn(`courtlearn: the ${family} font did not load`, err);
    });
  }
}

/** The page's font lists, (re)written once a family has loaded: rewriting the rules makes
 * the browser lay out again text it drew before the font was there (else some cells keep
 * their empty boxes). */
function pageFonts() {
  let style = document.getElementById("courtlearn-page-fonts");
  if (!style) {
    style = document.createElement("style");
    style.id = "courtlearn-page-fonts";
    document.head.append(style);
  }
  // a shaping property whose value flips with each load (kerning stays on either way):
  // text drawn before the font arrived is shaped again (a font list change alone leaves
  // some cells with their empty boxes)
  const shaping = document.fonts.size % 2 ? '"kern" 1' : "normal";
  style.textContent = `${PAGE_FONTS}
.jp-RenderedHTMLCommon, .jp-RenderedHTMLCommon * { font-feature-settings: ${shaping}; }`;
}

function reducedMotion() {
  return typeof window !== "undefined" && window.matchMedia &&
    window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function render({ model, el }) {
  const root = h("div", {
    class: "cl-table", "data-role": "table", "data-rev": "-1", "data-busy": "false",
    "data-lm-suppress-shortcuts": "true",   // arrow keys and Enter belong to the table, not to JupyterLab
  });
  el.append(root);

  let shown = null;          // the snapshot on screen
  let queue = [];            // snapshots still to draw
  let timer = null;
  let pending = false;       // an intent is with Python, awaiting its reply
  let pendingTimer = null;
  let nextId = 1;            // request ids of the intents sent
  let waitingFor = null;     // the id whose reply ends `pending`
  let focusCode = null;      // keep keyboard focus across re-renders
  let lastDraw = 0;
  let settleAt = 0;          // when the animations on screen end
  let more = false;          // Python said bot moves are on their way
  let showLast = false;      // the Last trick view is open
  const lastViewId = `cl-last-${Math.random().toString(36).slice(2, 10)}`;

  const opts = () => ({
    animate: !!model.get("animate") && !reducedMotion(),
    speed: Math.max(0, Number(model.get("speed")) || 0),
  });

  // busy: moves still being drawn (or bot moves on their way); pending: an intent is with Python.
  // The Hint button is usable only when neither holds.
  function updateHintButton() {
    const b = root.querySelector("[data-role=hint]");
    if (b) b.disabled = pending || root.dataset.busy === "true";
  }
  function setBusy(v) { root.dataset.busy = v ? "true" : "false"; updateHintButton(); }
  function setPending(v) { pending = v; root.dataset.pending = v ? "true" : "false"; updateHintButton(); }

  function send(msg) {
    if (pending) return;                       // one intent at a time: no merged double clicks
    setPending(true);
    msg.id = nextId++;
    waitingFor = msg.id;
    root.dataset.reply = "pending";
    clearTimeout(pendingTimer);
    // a kernel that never answers (restarted, busy) must not freeze the table for good
    pendingTimer = setTimeout(() => { waitingFor = null; setPending(false); }, 15000);
    model.send(msg);
  }

  /** Python's answer to an intent: accepted, or refused with the sentence. */
  function onReply(/** @type {Reply} */ msg) {
    if (!msg || typeof msg.reply_to !== "number" || msg.reply_to !== waitingFor) return;
    waitingFor = null;
    clearTimeout(pendingTimer);
    root.dataset.reply = msg.ok ? "accepted" : "refused";
    if (msg.ok) delete root.dataset.refused;
    else root.dataset.refused = String(msg.reason || "");
    setPending(false);
  }
  function onCustom(msg) { if (msg && "reply_to" in msg) onReply(msg); }

  // ---------- drawing one snapshot ----------
  function seatBox(s, st) {
    const box = h("div", {
      class: `cl-seat cl-pos-${s.pos}${s.turn ? " cl-turn" : ""}`,
      "data-role": "seat", "data-seat": s.seat, "data-pos": s.pos,
      "data-turn": s.turn ? "true" : "false", "data-count": s.count,
    });
    // a class table: a dot before the player's name says whether their page is connected
    // (filled) or away (a ring), with the word for screen readers; none elsewhere
    const conn = typeof s.connected === "boolean" ? s.connected : null;
    const dot = conn === null ? null : h("span", {
      class: `cl-conn ${conn ? "cl-conn-here" : "cl-conn-away"}`, "data-role": "connected",
      "data-connected": String(conn), role: "img",
      title: w(conn ? "seat_here" : "seat_away"), "aria-label": w(conn ? "seat_here" : "seat_away"),
    });
    const player = s.player ? h("span", { class: "cl-player" }, [dot, s.player]) : null;
    const label = h("div", { class: "cl-seat-label" }, [
      h("span", { class: "cl-seat-name", "data-role": "seat-name", text: s.name,
        "data-connected": conn === null ? null : String(conn) }),
      player || dot,
      s.dealer ? h("span", { class: "cl-marker", "data-role": "dealer", title: w("dealer"), text: w("dealer") }) : null,
      s.caller ? h("span", { class: "cl-marker cl-marker-caller", "data-role": "caller", title: w("caller"), text: w("caller") }) : null,
      s.turn && st.phase !== "over" ? h("span", {
        class: "cl-marker cl-marker-turn", "data-role": "turn",
        text: st.phase === "trump" ? w("to_fix") : w("to_play"),
      }) : null,
    ]);
    box.append(label);
    const side = s.pos === "left" || s.pos === "right";
    const hand = h("div", {
      class: `cl-hand${s.viewer ? " cl-hand-viewer" : ""}${side ? " cl-hand-side" : ""}${s.hand && !side ? " cl-hand-row" : ""}`,
      "data-role": s.viewer || s.controlled ? "hand" : "hand-other", "data-seat": s.seat,
    });
    if (s.hand && !side) {
      // on a narrow table (table.css) a face-up hand across the felt lies in rows of seven
      const n = s.hand.length;
      hand.style.setProperty("--cl-cols", String(n > 7 ? Math.ceil(n / 2) : Math.max(n, 1)));
      hand.style.setProperty("--cl-n", String(Math.max(n, 1)));     // a short hand lies open
    }
    if (s.hand) {
      const legal = new Set(s.legal || []);
      const choosing = s.viewer && (st.actions || []).includes("choose_trump_card");
      for (const code of s.hand) {
        const c = faceCard(code, s.seat);
        if (s.viewer || s.controlled) {
          const ok = choosing || legal.has(code);
          c.setAttribute("data-legal", ok ? "true" : "false");
          c.setAttribute("role", "button");
          c.setAttribute("tabindex", "-1");
          // a button's name begins with what it shows (A♠): said as seen, then in words
          const { rank, suit } = split(code);
          const named = `${rank}${pip(suit)} ${cardLabel(code)}`;
          c.setAttribute("aria-label", named);
          c.classList.add(ok && (choosing || s.turn) ? "cl-legal" : "cl-illegal");
          if (st.hint && st.hint.card === code) {
            c.setAttribute("data-hint", "true");
            c.setAttribute("data-tag", w("hint"));      // the tag over the card (table.css)
            c.classList.add("cl-hinted");
            c.setAttribute("aria-label", w("hinted_card", { card: named }));
            c.setAttribute("title", w("hint_card"));
          }
        }
        markBestPlay(c, code, s, st);
        if (s.viewer && st.review) markReview(c, code, st.review);
        hand.append(c);
      }
      if (s.viewer || (s.controlled && s.turn)) {
        const first = hand.querySelector('[data-legal="true"]') || hand.firstElementChild;
        if (first) first.setAttribute("tabindex", "0");
      }
    } else {
      for (let i = 0; i < s.count; i++) hand.append(backCard(s.seat));
    }
    box.append(hand);
    return box;
  }

  // With all hands shown and "Best play" on: each card of the player to move carries its
  // exact value (the side's total with perfect play), the best ones ringed
  function markBestPlay(c, code, s, st) {
    const bp = st.best_play;
    if (!bp || !bp.values || bp.seat !== s.seat || !(code in bp.values)) return;
    const best = bp.best.includes(code);
    c.setAttribute("data-dd", String(bp.values[code]));
    c.setAttribute("data-dd-best", best ? "true" : "false");
    if (best) c.classList.add("cl-dd-best");
    c.append(h("span", {
      class: "cl-dd", "data-role": "dd", "aria-hidden": "true", text: String(bp.values[code]),
    }));
    c.setAttribute("title", w(bp.measure === "tens" ? "best_tens" : "best_tricks", { value: bp.values[code] })
      + (best ? ` ${w("a_best_card")}` : ""));
  }

  // Stepping through the coach's review: the chosen card marked best / fine / unlucky /
  // mistake, the best cards outlined when it is not one of them
  function markReview(c, code, rv) {
    if (rv.chosen === code) {
      c.setAttribute("data-review", rv.verdict);
      c.classList.add(`cl-review-${rv.verdict}`);
      const cost = rv.cost ? ` ${w("cost", { cost: rv.cost })}` : "";
      c.setAttribute("title", `${w(`verdict_${rv.verdict}`)}${cost}`);
    } else if (rv.best.includes(code)) {
      c.setAttribute("data-review-best", "true");
      c.classList.add("cl-review-better");
      c.setAttribute("title", w("better"));
    }
  }

  function reviewBar(rv) {
    const bar = h("div", { class: "cl-review-bar", "data-role": "review" }, [
      h("span", { class: "cl-review-where", "data-role": "review-where",
                  text: w("decision", { n: rv.index + 1, count: rv.count }) }),
    ]);
    const go = (label, role, index, enabled) => {
      const b = h("button", { class: "cl-btn", type: "button", "data-role": role, text: label });
      b.disabled = !enabled;
      b.addEventListener("click", () => send({ type: "review", index }));
      bar.append(b);
    };
    go(w("previous"), "review-prev", rv.index - 1, rv.index > 0);
    go(w("next"), "review-next", rv.index + 1, rv.index + 1 < rv.count);
    const close = h("button", { class: "cl-btn", type: "button", "data-role": "review-close", text: w("back") });
    close.addEventListener("click", () => send({ type: "review_close" }));
    bar.append(close);
    return bar;
  }

  // The last completed trick, beside the table: its number, who won it, its four cards each
  // under its player's seat name, the winner's card ringed
  function lastTrickView(st) {
    const lt = st.last_trick;
    const seatName = (s) => (st.names && st.names.seats && st.names.seats[s]) || String(s);
    const view = h("div", { class: "cl-last-view", "data-role": "last-trick-view", id: lastViewId,
      "data-winner": lt.winner, "data-number": lt.number }, [
      h("span", { class: "cl-last-caption", text: w("last_trick_won", { n: lt.number, seat: seatName(lt.winner) }) }),
    ]);
    const cards = h("div", { class: "cl-last-cards" });
    for (const t of lt.cards) {
      const c = faceCard(t.card, t.seat, `cl-mini${t.seat === lt.winner ? " cl-winning" : ""}`);
      cards.append(h("div", { class: "cl-last-one", "data-seat": t.seat }, [c,
        h("span", { class: "cl-last-seat", text: seatName(t.seat) })]));
    }
    view.append(cards);
    return view;
  }

  function bestPlaySwitch(st) {
    const box = h("input", { type: "checkbox", "data-role": "best-play" });
    box.checked = !!(st.best_play && st.best_play.on);
    box.addEventListener("change", () => send({ type: "best_play", on: box.checked }));
    return h("label", {
      class: "cl-best-play", title: w("best_play_title"),
    }, [box, h("span", { text: w("best_play") })]);
  }

  function pileBox(p) {
    const stack = h("div", { class: "cl-stack" });
    for (let i = 0; i < Math.min(p.count, 13); i++) {
      stack.append(h("div", { class: "cl-stack-card", style: `--i:${i}` }));
    }
    return h("div", {
      class: `cl-pile${p.mine ? " cl-pile-mine" : ""}`, "data-role": "pile", "data-team": p.team,
      "data-count": p.count, role: "group", "aria-label": w("pile", { name: p.name, count: tricksWord(p.count) }),
    }, [stack, h("div", { class: "cl-pile-label" }, [
      h("span", { class: "cl-pile-name", text: p.name }),
      h("span", { class: "cl-pile-count", text: tricksWord(p.count) }),
    ])]);
  }

  function centreBox(st, fresh) {
    const centre = h("div", { class: "cl-centre" });
    const trick = h("div", { class: "cl-trick", "data-role": "trick", "data-count": st.trick.length, role: "group", "aria-label": w("open_trick") });
    const prevSeats = new Set(((shown && shown.trick) || []).map((t) => `${t.seat}:${t.card}`));
    for (const t of st.trick) {
      const c = faceCard(t.card, t.seat, `cl-slot cl-slot-${t.pos}`);
      if (fresh && !prevSeats.has(`${t.seat}:${t.card}`)) c.classList.add("cl-enter");
      trick.append(c);
    }
    centre.append(trick);
    if (st.last && st.trick.length === 0) {
      const last = h("div", { class: "cl-last", "data-role": "last-trick", "data-winner": st.last.winner });
      for (const t of st.last.cards) {
        last.append(faceCard(t.card, t.seat, `cl-slot cl-slot-${t.pos}${t.seat === st.last.winner ? " cl-winning" : ""}`));
      }
      centre.append(last);
    }
    if (st.uses_centre) {
      const pile = h("div", { class: "cl-centre-pile", "data-role": "centre", "data-count": st.centre, role: "group", "aria-label": w("centre_pile", { count: tricksWord(st.centre) }) });
      const stack = h("div", { class: "cl-stack" });
      for (let i = 0; i < Math.min(st.centre, 13); i++) stack.append(h("div", { class: "cl-stack-card", style: `--i:${i}` }));
      pile.append(stack, h("div", { class: "cl-pile-label", text: w("centre", { n: st.centre }) }));
      centre.append(pile);
    }
    return centre;
  }

  function header(st) {
    const trump = h("div", { class: "cl-trump", "data-role": "trump", "data-suit": st.trump || "" });
    trump.append(h("span", { class: "cl-trump-label", text: `${w("trump")} ` }));
    if (st.trump) {
      trump.append(h("span", { class: `cl-trump-suit ${RED.has(st.trump) ? "cl-red" : "cl-black"}`, "aria-label": suitWord(st.trump), text: `${pip(st.trump)} ${suitWord(st.trump)}` }));
    } else {
      trump.append(h("span", { class: "cl-trump-none", text: st.trump_note || w("not_yet") }));
    }
    if (st.trump_card) trump.append(faceCard(st.trump_card, st.trump_caller, "cl-mini"));
    if (st.hidden_trump) {
      const ht = st.hidden_trump;
      const c = ht.card ? faceCard(ht.card, ht.seat, "cl-mini") : backCard(ht.seat, "cl-mini");
      c.setAttribute("data-role", "hidden-trump");
      trump.append(c);
    }
    const kids = [h("div", { class: "cl-title", text: st.title }), trump];
    if (st.score) {
      kids.push(h("div", { class: "cl-score", "data-role": "score", text: st.score }));
    }
    return h("div", { class: "cl-header" }, kids);
  }

  function actionBar(st) {
    const bar = h("div", { class: "cl-actions", "data-role": "actions" });
    const acts = st.actions || [];
    if (acts.includes("call_trump")) {
      bar.append(h("span", { class: "cl-actions-label", text: w("call_trump") }));
      for (const s of Object.keys(st.names.suits)) {
        const b = h("button", {
          class: `cl-btn cl-suit-btn ${RED.has(s) ? "cl-red" : "cl-black"}`, type: "button",
          "data-role": "call-trump", "data-suit": s, "aria-label": w("call_suit", { suit: suitWord(s) }),
          text: `${pip(s)} ${suitWord(s)}`,
        });
        if (st.hint && st.hint.suit === s) {
          b.setAttribute("data-hint", "true");
          b.classList.add("cl-hinted");
          b.setAttribute("title", w("hint_suit"));
        }
        b.addEventListener("click", () => send({ type: "call_trump", suit: s }));
        bar.append(b);
      }
    }
    for (const a of ["defer_trump", "ask_for_trump", "play_on", "correct_revoke", "claim_revoke"]) {
      if (!acts.includes(a)) continue;
      const b = h("button", { class: "cl-btn", type: "button", "data-role": "action", "data-action": a, text: w(a) });
      b.addEventListener("click", () => send({ type: a }));
      bar.append(b);
    }
    return bar;
  }

  function draw(/** @type {Snapshot} */ st, fresh) {
    SUITS = (st.names && st.names.suits) || SUITS;
    RANKS = (st.names && st.names.ranks) || RANKS;
    WORDS = st.words || WORDS;
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    if (focused && focused.dataset && focused.dataset.card) focusCode = focused.dataset.card;
    // a control of the table under the keyboard is focused again once drawn anew
    const focusControl = focused && focused.dataset && !focused.dataset.card && focused.dataset.role
      ? `[data-role="${focused.dataset.role}"]${focused.dataset.suit ? `[data-suit="${focused.dataset.suit}"]` : ""}${
        focused.dataset.action ? `[data-action="${focused.dataset.action}"]` : ""}` : null;
    root.replaceChildren();
    root.dataset.phase = st.phase;
    root.dataset.toPlay = st.to_play;
    root.dataset.viewer = st.viewer;
    root.dataset.game = st.game;
    // the words run right to left in Urdu (table.css), while the felt and the seats keep
    // their places: only the text-bearing parts take the direction
    root.lang = st.lang || "en";
    root.dataset.dir = st.dir || "ltr";
    root.dataset.replay = st.replay ? "true" : "false";
    const seats = {};
    for (const s of st.seats) seats[s.pos] = seatBox(s, st);
    const piles = st.piles.map(pileBox);
    const mine = piles.find((p) => p.classList.contains("cl-pile-mine")) || piles[0];
    const theirs = piles.find((p) => p !== mine);
    const felt = h("div", { class: "cl-felt" }, [
      h("div", { class: "cl-cell cl-tl" }),
      h("div", { class: "cl-cell cl-top" }, [seats.top]),
      h("div", { class: "cl-cell cl-tr" }, [theirs]),
      h("div", { class: "cl-cell cl-left" }, [seats.left]),
      h("div", { class: "cl-cell cl-mid" }, [centreBox(st, fresh)]),
      h("div", { class: "cl-cell cl-right" }, [seats.right]),
      h("div", { class: "cl-cell cl-bl" }, [mine]),
      h("div", { class: "cl-cell cl-bottom" }, [seats.bottom]),
      h("div", { class: "cl-cell cl-br" }),
    ]);
    const msg = h("div", {
      class: "cl-message", "data-role": "message", "data-kind": st.message_kind || "info",
      "aria-live": "polite", text: st.message || "",
    });
    const row = h("div", { class: "cl-message-row" }, [msg]);
    if (st.can_hint) {
      const b = h("button", {
        class: "cl-btn cl-hint-btn", type: "button", "data-role": "hint",
        title: w("hint_title"), text: w("hint"),
      });
      b.addEventListener("click", () => {
        if (queue.length || more || root.dataset.busy === "true") return;   // the table is still moving
        send({ type: "hint" });
      });
      row.append(b);
    }
    if (st.can_best_play) row.append(bestPlaySwitch(st));
    if (st.can_review && !st.review) {
      const b = h("button", {
        class: "cl-btn", type: "button", "data-role": "review-start",
        title: w("review_title"), text: w("review"),
      });
      b.addEventListener("click", () => send({ type: "review", index: 0 }));
      row.append(b);
    }
    if (st.last_trick) {
      // the last completed trick, to look at any time (the open trick stays on the felt)
      const b = h("button", {
        class: "cl-btn cl-last-btn", type: "button", "data-role": "last-trick-button",
        "aria-pressed": showLast ? "true" : "false", "aria-expanded": showLast ? "true" : "false",
        "aria-controls": showLast ? lastViewId : null, text: w("last_trick"),
      });
      b.addEventListener("click", () => {
        showLast = !showLast;
        if (shown) draw(shown, false);
        const view = showLast && root.querySelector("[data-role=last-trick-view]");
        if (view && view.scrollIntoView) view.scrollIntoView({ block: "nearest" });   // a phone's short screen
      });
      row.append(b);
    }
    if (st.best_play && st.best_play.on && st.best_play.note) {
      row.append(h("span", { class: "cl-best-note", "data-role": "best-play-note", text: st.best_play.note }));
    }
    const kids = [header(st), felt, row];
    if (showLast && st.last_trick) kids.push(lastTrickView(st));
    if (st.review) kids.push(reviewBar(st.review));
    if (st.result) kids.push(h("div", { class: "cl-result", "data-role": "result", text: st.result }));
    kids.push(actionBar(st));
    root.append(...kids);
    updateHintButton();
    if (focusControl) {
      const again = root.querySelector(focusControl);
      if (again) again.focus({ preventScroll: true });
    } else if (focusCode) {
      const again = root.querySelector(`[data-role=hand] [data-card="${CSS.escape(focusCode)}"]`);
      if (again) { again.setAttribute("tabindex", "0"); again.focus({ preventScroll: true }); }
    }
  }

  // ---------- animations (Web Animations API; skipped when motion is off) ----------
  // From a card's box to a target's box, both measured now: the move's [dx, dy], kept inside
  // the table (a pile always is; a box that is not laid out yet gives no move at all).
  function flight(from, to) {
    const box = root.getBoundingClientRect();
    const laidOut = (r) => r.width > 0 && r.height > 0;
    if (!laidOut(from) || !laidOut(to) || !laidOut(box)) return [0, 0];
    const within = (v, most) => Math.max(-most, Math.min(most, v));
    return [within(to.left + to.width / 2 - (from.left + from.width / 2), box.width),
            within(to.top + to.height / 2 - (from.top + from.height / 2), box.height)];
  }

  // Whether table.css is in force on the table: without it nothing is where it will be drawn
  // (an unstyled table is a long column), and a card would fly as far as that column is long
  function styled() {
    return typeof getComputedStyle === "function" &&
      getComputedStyle(root).getPropertyValue("--cl-size-w").trim() !== "";
  }

  function sweep(st) {
    // the trick just completed flies to its destination, then comes back, dimmed, to be looked
    // at until the next card is played (after the deal's last trick, for good); a captured
    // centre slides along
    const o = opts();
    if (!o.animate || !st.last || !st.last.fresh || !styled()) return 0;
    const last = root.querySelector("[data-role=last-trick]");
    const target = st.last.to === "centre"
      ? root.querySelector("[data-role=centre]")
      : root.querySelector(`[data-role=pile][data-team="${st.last.to_team}"]`);
    if (!last || !target) return 0;
    const hold = Math.max(250, o.speed);
    const dur = 420;
    const back = 250;
    const total = hold + dur + back;
    const tr = target.getBoundingClientRect();
    for (const c of last.children) {
      const [dx, dy] = flight(c.getBoundingClientRect(), tr);
      // `translate`/`scale` (not `transform`): the card keeps its slot's own transform. No
      // fill: when the animation ends the card is where it was drawn, as the page says
      const still = { translate: "0px 0px", scale: "1" };
      c.animate([
        { ...still, opacity: 1, offset: 0 },
        { ...still, opacity: 1, offset: hold / total, easing: "ease-in" },
        { translate: `${dx}px ${dy}px`, scale: "0.5", opacity: 0, offset: (hold + dur) / total },
        { ...still, opacity: 0, offset: Math.min(1, (hold + dur) / total + 0.001) },
        { ...still },                       // back to its own (dimmed) opacity
      ], { duration: total });
    }
    if (st.last.captured > 1) {
      const centre = root.querySelector("[data-role=centre]");
      if (centre) {
        const ghost = h("div", { class: "cl-ghost-pile" });
        for (let i = 0; i < Math.min(st.last.captured - 1, 13); i++) ghost.append(h("div", { class: "cl-stack-card", style: `--i:${i}` }));
        // from the centre's stack to the winners' stack (the ghost is a stack of that size)
        const cr = (centre.querySelector(".cl-stack") || centre).getBoundingClientRect();
        const to = (target.querySelector(".cl-stack") || target).getBoundingClientRect();
        const rr = root.getBoundingClientRect();
        ghost.style.left = `${cr.left - rr.left - root.clientLeft}px`;
        ghost.style.top = `${cr.top - rr.top - root.clientTop}px`;
        root.append(ghost);
        const [dx, dy] = flight(cr, to);
        const a = ghost.animate([
          { translate: "0px 0px", offset: 0 },
          { translate: "0px 0px", offset: hold / (hold + dur + 200) },
          { translate: `${dx}px ${dy}px` },
        ], { duration: hold + dur + 200, easing: "ease-in-out" });
        a.onfinish = () => ghost.remove();
      }
    }
    return hold + dur;
  }

  function pump() {
    timer = null;
    if (!queue.length) { setBusy(more); return; }
    const st = queue.shift();
    const o = opts();
    draw(st, o.animate);
    lastDraw = performance.now();
    shown = st;
    let wait = sweep(st);
    if (o.animate && root.querySelector(".cl-enter")) wait = Math.max(wait, 300);  // the card's arrival
    settleAt = lastDraw + wait;
    if (queue.length) wait = Math.max(wait, o.speed);
    if (wait > 0) {
      setBusy(true);            // settled only when the last animation is over
      timer = setTimeout(pump, wait);
    } else {
      setBusy(more);
    }
  }

  function onState() {
    const state = model.get("state") || {};
    const frames = Array.isArray(state.frames) ? state.frames : [];
    if (waitingFor === null) setPending(false);   // else the reply to our intent ends it
    if (!frames.length) return;
    if (timer) { clearTimeout(timer); timer = null; }
    more = !!state.more;
    if (more) setPending(true);   // no clicks until the bots answered (the reply comes after them)
    const o = opts();
    const paced = o.animate && o.speed > 0;
    queue = paced ? frames.slice() : frames.slice(-1);
    root.dataset.rev = String(state.rev ?? 0);
    onOptions();
    // bot answers to the move just drawn: leave that move on screen for a moment first
    const wait = paced && state.follows ? Math.max(lastDraw + o.speed, settleAt) - performance.now() : 0;
    if (wait > 0) {
      setBusy(true);
      timer = setTimeout(pump, wait);
    } else {
      pump();
    }
  }

  function onOptions() {
    root.dataset.size = model.get("size") || "normal";
    root.dataset.animate = opts().animate ? "true" : "false";
  }

  // ---------- input: clicks and keys on the viewer's hand ----------
  root.addEventListener("click", (ev) => {
    const card = ev.target.closest("[data-role=hand] [data-card]");
    if (!card || !root.contains(card)) return;
    const st = shown;
    if (!st) return;
    if (queue.length) {                 // still showing the bots' moves: skip to the end, play nothing
      clearTimeout(timer);
      queue = queue.slice(-1);
      pump();
      return;
    }
    const acts = st.actions || [];
    if (acts.includes("choose_trump_card")) send({ type: "choose_trump_card", card: card.dataset.card });
    else send({ type: "play", card: card.dataset.card });
  });

  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && showLast) {
      showLast = false;
      if (shown) draw(shown, false);
      const b = root.querySelector("[data-role=last-trick-button]");
      if (b) b.focus({ preventScroll: true });
      return;
    }
    const card = ev.target.closest && ev.target.closest("[data-role=hand] [data-card]");
    if (!card) return;
    const legal = [...root.querySelectorAll('[data-role=hand] [data-card][data-legal="true"]')];
    const all = legal.length ? legal : [...root.querySelectorAll("[data-role=hand] [data-card]")];
    const i = all.indexOf(card);
    let next = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = all[(i + 1) % all.length];
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = all[(i - 1 + all.length) % all.length];
    else if (ev.key === "Home") next = all[0];
    else if (ev.key === "End") next = all[all.length - 1];
    else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      card.click();
      return;
    }
    if (next) {
      ev.preventDefault();
      card.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus({ preventScroll: true });
      focusCode = next.dataset.card;
    }
  });

  model.on("change:state", onState);
  model.on("change:animate", onOptions);
  model.on("change:size", onOptions);
  model.on("msg:custom", onCustom);
  const onFont = () => addFont(model);
  model.on("change:fonts", onFont);
  onFont();
  onOptions();
  onState();
  return () => {
    clearTimeout(timer);
    clearTimeout(pendingTimer);
    model.off("msg:custom", onCustom);
    model.off("change:state", onState);
    model.off("change:animate", onOptions);
    model.off("change:size", onOptions);
    model.off("change:fonts", onFont);
  };
}

export default { render };
