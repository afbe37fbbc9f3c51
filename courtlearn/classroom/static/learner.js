// courtlearn class: the learner page.
//
// Join with the class code and a name (or /?code=CODE&name=NAME), take a free seat, play.
// The table is drawn by the notebook widget's own table.js, through a model object that
// offers what anywidget's model offers (dom.js's makeModel), carried over the class
// server's WebSocket. The seat token lives in localStorage: a reload or a phone waking up
// returns to the same seat and hand without a click.
// Plain http from a LAN address is an insecure origin: nothing here needs a secure
// context (no service worker, no crypto.randomUUID; the server makes the token).
// Every text goes in with textContent: a name holding markup shows as those characters.
// As a JupyterHub service (boot.hub) the page lives under the service's prefix (boot.base)
// and the hub's login is the learner's identity: no code, no name, no token kept here.
//
// What the teacher does to a learner's seat or table (a new deal, a move, the seat handed
// to a bot, a removal) is said in the notice at the top of the page ([data-role=notice],
// data-kind "teacher" | "error"), which the learner can close; sitting down again clears it.
// At a finished deal, "Next deal" says the learner is ready: the next deal starts when
// everyone at the table is, or when the short wait the page counts down is over
// ([data-role=next-deal] aria-pressed, [data-role=ready] data-ready, data-of, data-seconds).
// "Leave the table" asks first ([data-role=leave-confirm] with [data-role=leave-yes] and
// [data-role=leave-no]).
import { h, makeModel, reconnecting, wordsOf } from "./dom.js";
import table from "./table.js";

export { makeModel };

const boot = JSON.parse(document.getElementById("courtlearn-boot").textContent);
const w = wordsOf(boot.words || {});
const TOKEN_KEY = "courtlearn.class.token";
const BASE = boot.base || "/";
const HUB = boot.hub === true;
const LOGIN_AGAIN = 4401;   // close code of a hub socket whose login has lapsed: reload to log in
const main = document.getElementById("courtlearn-class");
const connection = document.querySelector("[data-role=connection]");
const whoami = document.querySelector("[data-role=whoami]");

// the page's one level-one heading (for screen readers; the bar says who and where)
if (!document.querySelector("h1")) {
  document.querySelector("header").prepend(h("h1", { class: "cl-sr-only", text: w("title") }));
}
// everything the page shows lives in <main>: the notice, the quiz, the puzzle, then the
// join form, the lobby or the table
const noticeBox = h("div", { class: "cl-class-notice", "data-role": "notice", role: "status",
  "aria-live": "polite", hidden: "" });
const quizSlot = h("div", { class: "cl-class-slot" });
const puzzleSlot = h("div", { class: "cl-class-slot" });
const app = h("div", { class: "cl-class-app" });
main.replaceChildren(noticeBox, quizSlot, puzzleSlot, app);

// localStorage can be missing or refuse (private windows): then the token lives in memory
let memoryToken = null;
const tokens = {
  get() { try { return localStorage.getItem(TOKEN_KEY) || memoryToken; } catch (e) { return memoryToken; } },
  set(t) { memoryToken = t; try { localStorage.setItem(TOKEN_KEY, t); } catch (e) { /* memory only */ } },
  clear() { memoryToken = null; try { localStorage.removeItem(TOKEN_KEY); } catch (e) { /* none */ } },
};

// ---------------------------------------------------------------- the connection
let socket = null;          // dom.js's reconnecting socket (made at the start, below)
let joining = null;         // {code, name} typed in, awaiting the welcome
let seated = null;          // {table, seat, place}
let view = null;            // the table on screen: {model, el, cleanup, ...}
let tableWords = null;      // names and words of the table (sent once per socket)
let lastPhase = null;
let roster = null;
let paused = false;
const fontsWanted = boot.fonts || {};
let removed = false;        // (hub) removed by the teacher: join again only with a click
const fontsLoaded = {};

function setConnected(on) {
  connection.dataset.connected = on ? "true" : "false";
  connection.textContent = on ? w("connected") : w("disconnected");
}

function send(msg) {
  if (socket) socket.send(msg);
}

function connect() {
  socket = reconnecting(`${BASE}ws`, {
    open() { setConnected(true); hello(); },
    message: handle,
    close(ev) {
      if (HUB && ev.code === LOGIN_AGAIN) { location.reload(); return false; }
      setConnected(false);
      if (view) view.model.lost(w("disconnected"));
      return true;
    },
  });
}

function hello() {
  if (HUB) { if (!removed) send({ type: "hello" }); return; }
  const token = tokens.get();
  if (token) send({ type: "hello", token });
  else if (joining) send({ type: "hello", code: joining.code, name: joining.name });
  else showJoin();
}

function handle(msg) {
  switch (msg.type) {
    case "welcome":
      if (msg.token) tokens.set(msg.token);
      joining = null;
      whoami.textContent = msg.name || "";
      if (location.search) history.replaceState(null, "", location.pathname);
      send({ type: "quiz_get" });          // a quiz running now shows at once
      send({ type: "puzzle_get" });        // so do the class puzzles
      break;
    case "lobby":
      if (!seated) showLobby(msg.tables || []);
      break;
    case "seated": {
      const moved = !seated || seated.table !== msg.table || seated.seat !== msg.seat;
      if (seated && moved) dropTable();
      seated = { table: msg.table, seat: msg.seat, place: msg.place };
      if (moved) notice("");               // sat down again: an old notice is done with
      showTable();
      break;
    }
    case "unseated":
      seated = null;
      dropTable();
      break;
    case "words":
      tableWords = { names: msg.names, words: msg.words };
      if (msg.lang in { ur: 1, hi: 1 }) loadFonts();
      break;
    case "state": {
      if (!view) break;
      const state = msg.state || {};
      const frames = Array.isArray(state.frames) ? state.frames : [];
      for (const f of frames) {
        if (tableWords && !f.names) f.names = tableWords.names;
        if (tableWords && !f.words) f.words = tableWords.words;
      }
      const last = frames[frames.length - 1];
      if (last) lastPhase = last.phase;
      view.model.set("state", state);
      updateBar();
      if (last && last.message_kind === "error") showMessage();
      break;
    }
    case "custom":
      if (view) {
        if (msg.content && msg.content.ok && noticeBox.dataset.kind === "teacher") notice("");
        view.model.custom(msg.content);
      }
      break;
    case "table":
      roster = msg;
      paused = !!msg.paused;
      readyFrom(msg);
      showRoster();
      updateBar();
      break;
    case "notice":
      notice(msg.text || "", "teacher");
      break;
    case "quiz":
      showQuiz(msg);
      break;
    case "quiz_ack":
      quizAck(msg);
      break;
    case "quiz_reveal":
      quizReveal(msg);
      break;
    case "quiz_end":
      endQuiz();
      break;
    case "puzzle":
      showPuzzle(msg);
      break;
    case "puzzle_state":
      if (puz) puz.model.set("state", msg.state || {});
      break;
    case "puzzle_custom":
      if (puz) puz.model.custom(msg.content);
      break;
    case "puzzle_end":
      endPuzzle();
      break;
    case "refused":
      if (msg.quiz && quiz) { quizStatus(msg.reason || "", "error"); break; }
      if (msg.puzzle && puz) { puz.status.textContent = msg.reason || ""; break; }
      notice(msg.reason || "", "error");
      if (msg.rejoin) { tokens.clear(); seated = null; dropTable(); showJoin(msg.reason); }
      break;
    case "removed":
      removed = HUB;
      tokens.clear();
      seated = null;
      dropTable();
      showJoin(msg.reason || w("removed"));
      break;
    default:
      break;
  }
}

/** Say `text` at the top of the page (an empty text hides the notice). kind: "teacher"
 * (what the teacher did) or "error" (a refusal). The learner may close it. */
function notice(text, kind = "error") {
  if (!text) {
    noticeBox.hidden = true;
    noticeBox.replaceChildren();
    delete noticeBox.dataset.kind;
    return;
  }
  const close = h("button", { type: "button", class: "cl-notice-close", "data-role": "notice-close",
    "aria-label": w("close"), title: w("close"), text: "\u00d7" });
  close.addEventListener("click", () => notice(""));
  noticeBox.replaceChildren(h("span", { class: "cl-notice-text", "data-role": "notice-text", text }), close);
  noticeBox.dataset.kind = kind;
  noticeBox.hidden = false;
}

/** A refusal of a tap is said in the table's message line, just under the hand: on a short
 * screen (a phone's address bar takes height) bring it into view, the hand staying in it. */
function showMessage() {
  const msg = view && view.el.querySelector("[data-role=message]");
  if (!msg || typeof msg.getBoundingClientRect !== "function") return;
  const r = msg.getBoundingClientRect();
  const height = window.innerHeight || document.documentElement.clientHeight;
  if (r.height && (r.bottom > height || r.top < 0)) msg.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- joining and seats
function showJoin(message) {
  dropTable();
  if (HUB) {                // the hub says who this is: only a button to join again
    const form = h("form", { class: "cl-class-join", "data-role": "join-form" }, [
      h("button", { type: "submit", class: "cl-btn cl-page-btn cl-primary", "data-role": "join", text: w("join") }),
    ]);
    form.addEventListener("submit", (ev) => { ev.preventDefault(); removed = false; hello(); });
    app.replaceChildren(form);
    if (message) notice(message, "teacher");
    return;
  }
  const params = new URLSearchParams(location.search);
  const code = h("input", { "data-role": "code", name: "code", autocomplete: "off",
    autocapitalize: "characters", maxlength: "16", required: "", value: params.get("code") || "" });
  const name = h("input", { "data-role": "name", name: "name", autocomplete: "nickname",
    maxlength: "40", required: "", value: params.get("name") || "" });
  const form = h("form", { class: "cl-class-join", "data-role": "join-form" }, [
    h("label", {}, [h("span", { text: w("code") }), code]),
    h("label", {}, [h("span", { text: w("name") }), name]),
    h("button", { type: "submit", class: "cl-btn cl-page-btn cl-primary", "data-role": "join", text: w("join") }),
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    joining = { code: code.value.trim(), name: name.value.trim() };
    if (socket && socket.isOpen()) hello();
  });
  app.replaceChildren(form);
  if (message) notice(message, "teacher");
}

function showLobby(tables) {
  dropTable();
  const hadFocus = app.contains(document.activeElement) ? document.activeElement : null;
  const focusKey = hadFocus && hadFocus.dataset ? `${hadFocus.dataset.table}:${hadFocus.dataset.seat}` : null;
  const list = h("div", { class: "cl-class-lobby", "data-role": "lobby" }, [
    h("h2", { class: "cl-class-lobby-head", text: w("choose") }),
  ]);
  for (const t of tables) {
    const head = h("h3", { id: `cl-lobby-table-${t.table}`, text: `${w("table", { n: t.table + 1 })} \u00b7 ${t.title}` });
    const seats = h("ul", { class: "cl-class-lobby-seats", "aria-labelledby": head.id });
    for (const s of t.seats) {
      let item;
      if (s.name === null) {
        item = h("button", { type: "button", class: "cl-btn cl-page-btn cl-seat-free", "data-role": "take-seat",
          "data-table": t.table, "data-seat": s.seat, text: w("take", { place: s.place }) });
        item.addEventListener("click", () => send({ type: "take_seat", table: t.table, seat: s.seat }));
      } else {
        item = h("span", { class: "cl-class-taken", "data-role": "taken-seat", "data-seat": s.seat },
          [h("span", { class: "cl-class-taken-place", text: `${s.place}: ` }),
            h("span", { class: "cl-class-taken-name", text: s.name })]);
      }
      seats.append(h("li", {}, [item]));
    }
    list.append(h("section", { class: "cl-class-lobby-table", "data-table": t.table,
      "aria-labelledby": head.id }, [head, seats]));
  }
  app.replaceChildren(list);
  if (focusKey) {             // the lobby was drawn again under the learner's keyboard
    const again = app.querySelector(`[data-role=take-seat][data-table="${focusKey.split(":")[0]}"][data-seat="${focusKey.split(":")[1]}"]`)
      || app.querySelector("[data-role=take-seat]");
    if (again) again.focus({ preventScroll: true });
  }
}

function showTable() {
  if (view) return;
  const model = makeModel((content) => send({ type: "msg", content }));
  model.set("fonts", { ...fontsLoaded });
  const rosterEl = h("div", { class: "cl-class-roster", "data-role": "roster" });
  const el = h("div", { class: "cl-class-table" });
  const next = h("button", { type: "button", class: "cl-btn cl-page-btn cl-primary", "data-role": "next-deal",
    "aria-pressed": "false", text: w("next_deal") });
  next.addEventListener("click", () => {
    if (next.getAttribute("aria-pressed") === "true") return;
    next.setAttribute("aria-pressed", "true");
    next.textContent = w("ready");
    send({ type: "next_deal" });
  });
  const readyEl = h("p", { class: "cl-class-ready", "data-role": "ready", "aria-live": "polite", hidden: "" },
    [h("span", { class: "cl-ready-count" }), " ", h("span", { class: "cl-ready-clock", "aria-hidden": "true" })]);
  const leave = h("button", { type: "button", class: "cl-btn cl-page-btn", "data-role": "leave", text: w("leave") });
  const confirm = h("div", { class: "cl-class-confirm", "data-role": "leave-confirm", role: "group",
    "aria-label": w("leave"), hidden: "" });
  const yes = h("button", { type: "button", class: "cl-btn cl-page-btn cl-danger", "data-role": "leave-yes", text: w("leave_yes") });
  const no = h("button", { type: "button", class: "cl-btn cl-page-btn", "data-role": "leave-no", text: w("leave_no") });
  confirm.append(h("span", { class: "cl-confirm-text", text: w("leave_sure") }), yes, no);
  const ask = (on) => {
    confirm.hidden = !on;
    leave.hidden = on;
    (on ? no : leave).focus({ preventScroll: true });
  };
  leave.addEventListener("click", () => ask(true));
  no.addEventListener("click", () => ask(false));
  confirm.addEventListener("keydown", (ev) => { if (ev.key === "Escape") ask(false); });
  yes.addEventListener("click", () => send({ type: "leave" }));
  const pausedEl = h("div", { class: "cl-class-paused", "data-role": "paused", role: "status", text: w("paused") });
  const where = h("p", { class: "cl-class-where", "data-role": "where",
    text: w("seat", { place: seated.place, n: seated.table + 1 }) });
  const bar = h("div", { class: "cl-class-tablebar" }, [next, readyEl, leave, confirm]);
  app.replaceChildren(h("div", { class: "cl-class-tablehead" }, [where, rosterEl]), pausedEl, el, bar);
  const cleanup = table.render({ model, el });
  view = { model, el, cleanup, next, readyEl, pausedEl, rosterEl, ready: null };
  showRoster();
  updateBar();
}

function dropTable() {
  if (!view) return;
  if (typeof view.cleanup === "function") view.cleanup();
  clearInterval(view.clock);
  view = null;
  lastPhase = null;
  app.replaceChildren();
}

function showRoster() {
  if (!view || !roster || !seated || roster.table !== seated.table) return;
  const items = roster.seats.map((s) => h("span", {
    class: `cl-class-roster-seat cl-status-${s.status}`, "data-role": "roster-seat",
    "data-seat": s.seat, "data-status": s.status,
    "data-connected": s.status === "here" ? "true" : "false",
    "data-you": s.seat === seated.seat ? "true" : "false",
    text: s.name === null ? w("empty")
      : `${s.name}${s.seat === seated.seat ? ` (${w("you")})` : ""} \u00b7 ${w(s.status)}`,
  }));
  view.rosterEl.replaceChildren(...items);
}

/** Who is ready for the next deal, from the roster: {ready: [seats], of: learners here,
 * until: when it starts without the others (performance.now() ms), or null}. */
function readyFrom(msg) {
  if (!view) return;
  const ready = Array.isArray(msg.ready) ? msg.ready : [];
  const here = (msg.seats || []).filter((s) => s.status === "here").map((s) => s.seat);
  const of = new Set([...here, ...ready]).size;
  view.ready = ready.length && typeof msg.deal_in === "number"
    ? { ready, of, until: performance.now() + msg.deal_in * 1000 } : null;
}

function updateBar() {
  if (!view) return;
  const over = lastPhase === "over" && !paused;
  const r = view.ready;
  const mine = !!(r && seated && r.ready.includes(seated.seat));
  view.next.hidden = !over;
  view.next.disabled = mine;
  if (!mine && view.next.getAttribute("aria-pressed") === "true" && !r) {
    view.next.setAttribute("aria-pressed", "false");      // a new deal, or the wait was reset
  }
  if (mine) view.next.setAttribute("aria-pressed", "true");
  view.next.textContent = view.next.getAttribute("aria-pressed") === "true" ? w("ready") : w("next_deal");
  view.pausedEl.hidden = !paused;
  clearInterval(view.clock);
  view.clock = null;
  if (!over || !r) {
    view.readyEl.hidden = true;
    return;
  }
  const [count, clock] = view.readyEl.children;
  count.textContent = w("ready_count", { k: r.ready.length, n: r.of });
  view.readyEl.dataset.ready = String(r.ready.length);
  view.readyEl.dataset.of = String(r.of);
  view.readyEl.hidden = false;
  const tick = () => {
    const s = Math.max(0, Math.ceil((r.until - performance.now()) / 1000));
    view.readyEl.dataset.seconds = String(s);
    clock.textContent = w("deal_in", { s });
  };
  tick();
  view.clock = setInterval(() => { if (view) tick(); }, 250);
}

// ---------------------------------------------------------------- the live quiz
// The teacher's quiz shows above the lobby or the table: the question (the engine's text
// of the position, a trick as cards), its choices as big buttons; one click answers, the
// page says the answer was received; on the teacher's reveal, the right answer and the
// engine's sentence. The server sends nothing about which choice is right before that.
// Attributes: [data-role=quiz] (data-quiz, data-index, data-state: open|answered|revealed),
// [data-role=quiz-prompt], [data-role=quiz-lines], [data-role=quiz-trick],
// [data-role=quiz-choice] (data-value, data-kind: card|seat|team|word, data-card,
// aria-pressed), [data-role=quiz-status] (data-kind: received|right|wrong|error),
// [data-role=quiz-reason].
let quiz = null;            // {msg, el, buttons, status, reason}

function qw(key, vars = {}) {
  return wordsOf((quiz && quiz.msg.words) || {})(key, vars);
}

function cardFace(c, attrs = {}) {
  return h("span", { class: `cl-quiz-card${c.red ? " cl-quiz-red" : ""}`, "data-card": c.card,
    ...attrs }, [h("span", { class: "cl-quiz-face", text: c.label }),
    c.place ? h("span", { class: "cl-quiz-place", text: c.place }) : null]);
}

function showQuiz(msg) {
  if (quiz && quiz.msg.quiz === msg.quiz && quiz.msg.index === msg.index) return;
  if (quiz) quiz.el.remove();
  const el = h("section", { class: "cl-quiz", "data-role": "quiz", "data-quiz": msg.quiz,
    "data-index": msg.index, "data-state": "open", "aria-live": "polite" });
  quiz = { msg, el, buttons: [] };
  const lines = h("div", { class: "cl-quiz-lines", "data-role": "quiz-lines" },
    (msg.lines || []).map((line) => h("div", { text: line })));
  const trick = msg.trick ? h("div", { class: "cl-quiz-trick", "data-role": "quiz-trick" },
    msg.trick.map((c) => cardFace(c))) : null;
  const choices = h("div", { class: "cl-quiz-choices", "data-role": "quiz-choices",
    "data-kind": (msg.choices[0] || {}).kind || "" });
  for (const c of msg.choices || []) {
    const attrs = { type: "button", "data-role": "quiz-choice", "data-value": String(c.value),
      "data-kind": c.kind, "aria-pressed": "false" };
    let b;
    if (c.kind === "card") {
      b = h("button", { ...attrs, class: `cl-quiz-choice cl-quiz-card${c.red ? " cl-quiz-red" : ""}`,
        "data-card": c.card, "aria-label": c.place ? `${c.label} ${c.place}` : c.label },
      [h("span", { class: "cl-quiz-face", text: c.label }),
        c.place ? h("span", { class: "cl-quiz-place", text: c.place }) : null]);
    } else {
      b = h("button", { ...attrs, class: "cl-quiz-choice cl-quiz-word", text: c.label });
    }
    b.addEventListener("click", () => {
      if (quiz.el.dataset.state !== "open") return;
      send({ type: "quiz_answer", quiz: msg.quiz, index: msg.index, answer: c.value });
    });
    quiz.buttons.push({ b, c });
    choices.append(b);
  }
  quiz.status = h("p", { class: "cl-quiz-status", "data-role": "quiz-status" });
  quiz.reason = h("p", { class: "cl-quiz-reason", "data-role": "quiz-reason" });
  const head = qw("quiz", { i: msg.number, n: msg.n });
  el.append(...[h("h2", { class: "cl-quiz-head",
    text: msg.title && msg.title !== msg.prompt ? `${head} · ${msg.title}` : head }),
  h("p", { class: "cl-quiz-prompt", "data-role": "quiz-prompt", text: msg.prompt }),
  lines, trick, choices, quiz.status, quiz.reason].filter(Boolean));
  quizSlot.replaceChildren(el);
}

function quizLabel(value) {
  const got = quiz.buttons.find(({ c }) => c.value === value);
  return got ? (got.c.place ? `${got.c.label} (${got.c.place})` : got.c.label) : String(value);
}

function quizStatus(text, kind) {
  quiz.status.textContent = text;
  quiz.status.dataset.kind = kind;
}

function quizAck(msg) {
  if (!quiz || msg.quiz !== quiz.msg.quiz || msg.index !== quiz.msg.index) return;
  if (quiz.el.dataset.state === "open") quiz.el.dataset.state = "answered";
  for (const { b, c } of quiz.buttons) {
    b.setAttribute("aria-pressed", c.value === msg.answer ? "true" : "false");
    b.disabled = true;
  }
  quizStatus(qw("received", { answer: quizLabel(msg.answer) }), "received");
}

function quizReveal(msg) {
  if (!quiz || msg.quiz !== quiz.msg.quiz || msg.index !== quiz.msg.index) return;
  quiz.el.dataset.state = "revealed";
  const right = msg.right || [];
  for (const { b, c } of quiz.buttons) {
    b.disabled = true;
    b.dataset.right = right.includes(c.value) ? "true" : "false";
    if (c.value === msg.yours) b.setAttribute("aria-pressed", "true");
  }
  const said = msg.correct === null ? qw("none") : msg.correct ? qw("well") : qw("not_well");
  quizStatus(`${said} ${qw("answer", { answer: right.map(quizLabel).join(" / ") })}`,
    msg.correct === null ? "none" : msg.correct ? "right" : "wrong");
  quiz.reason.textContent = msg.reason || "";
}

function endQuiz() {
  if (!quiz) return;
  quiz.el.remove();
  quiz = null;
}

// ---------------------------------------------------------------- the class puzzles
// The teacher's puzzle level shows above the lobby or the table (below a quiz): the
// puzzle's heading and goal, its own table drawn by table.js (all hands face up; the page
// plays both hands of the puzzle's side, the server's defence answers), Try again, Next
// puzzle, and the verdict. The server judges every card; the page only sends its clicks.
// Attributes: [data-role=puzzle] (data-key, data-level, data-number, data-status:
// playing|failed|solved), [data-role=puzzle-heading], [data-role=puzzle-goal],
// [data-role=puzzle-progress] (data-solved), [data-role=puzzle-table] (table.js's
// attributes inside), [data-role=puzzle-again], [data-role=puzzle-next],
// [data-role=puzzle-verdict] (data-status; hidden: the table's message line says it),
// [data-role=puzzle-status] (a refusal).
let puz = null;             // {el, model, cleanup, key, heading, goal, ...}

function pw(msg, key, vars = {}) {
  return wordsOf(msg.words || {})(key, vars);
}

function showPuzzle(msg) {
  if (!puz) {
    const model = makeModel((content) => send({ type: "puzzle_msg", content }));
    model.set("fonts", { ...fontsLoaded });
    const heading = h("h2", { class: "cl-puzzle-head", "data-role": "puzzle-heading" });
    const progress = h("p", { class: "cl-puzzle-progress", "data-role": "puzzle-progress" });
    const goal = h("p", { class: "cl-puzzle-goal", "data-role": "puzzle-goal" });
    const tableEl = h("div", { class: "cl-class-table cl-puzzle-table", "data-role": "puzzle-table" });
    // the verdict is said in the table's message line (as in the notebook): kept here as data
    const verdict = h("p", { class: "cl-puzzle-verdict", "data-role": "puzzle-verdict", hidden: "" });
    const status = h("p", { class: "cl-puzzle-status", "data-role": "puzzle-status", "aria-live": "polite" });
    const again = h("button", { type: "button", class: "cl-btn cl-page-btn", "data-role": "puzzle-again" });
    again.addEventListener("click", () => { status.textContent = ""; send({ type: "puzzle_again" }); });
    const next = h("button", { type: "button", class: "cl-btn cl-page-btn", "data-role": "puzzle-next" });
    next.addEventListener("click", () => { status.textContent = ""; send({ type: "puzzle_next" }); });
    const el = h("section", { class: "cl-puzzle", "data-role": "puzzle" }, [heading, progress,
      goal, tableEl, h("div", { class: "cl-class-tablebar" }, [again, next]), verdict, status]);
    puzzleSlot.replaceChildren(el);
    const cleanup = table.render({ model, el: tableEl });
    puz = { el, model, cleanup, heading, progress, goal, verdict, status, again, next };
  }
  const { el } = puz;
  el.dataset.key = msg.key;
  el.dataset.level = msg.level;
  el.dataset.number = msg.number;
  el.dataset.status = msg.status;
  puz.heading.textContent = msg.heading || "";
  puz.progress.textContent = `${pw(msg, "level", { n: msg.level, i: msg.number, count: msg.count })} \u00b7 ${
    pw(msg, "solved", { n: (msg.solved || []).length, total: msg.count })}`;
  puz.progress.dataset.solved = (msg.solved || []).join(" ");
  puz.goal.textContent = `${msg.goal || ""} ${msg.you || ""}`;
  puz.again.textContent = pw(msg, "again");
  puz.next.textContent = pw(msg, "next");
  puz.next.dataset.solved = msg.status === "solved" ? "true" : "false";
  puz.verdict.textContent = msg.verdict || "";
  puz.verdict.dataset.status = msg.status;
}

function endPuzzle() {
  if (!puz) return;
  if (typeof puz.cleanup === "function") puz.cleanup();
  puz.el.remove();
  puz = null;
}

// ---------------------------------------------------------------- fonts (Urdu, Hindi)
// The page's own words are set in the bundled fonts by learner.css (@font-face); table.js
// adds them for the table from their bytes (as the notebook's widget gets them).
function loadFonts() {
  for (const [family, url] of Object.entries(fontsWanted)) {
    if (fontsLoaded[family]) continue;
    fontsLoaded[family] = new ArrayBuffer(0);      // asked for once
    fetch(url).then((r) => r.arrayBuffer()).then((bytes) => {
      fontsLoaded[family] = bytes;
      if (view) view.model.set("fonts", { ...fontsLoaded });
      if (puz) puz.model.set("fonts", { ...fontsLoaded });
    }, () => { delete fontsLoaded[family]; });
  }
}

setConnected(false);
if (boot.lang in { ur: 1, hi: 1 }) loadFonts();
{
  const params = new URLSearchParams(location.search);
  if (!tokens.get() && params.get("code") && params.get("name")) {
    joining = { code: params.get("code"), name: params.get("name") };
  }
  if (!HUB && !tokens.get() && !joining) showJoin();
}
connect();
