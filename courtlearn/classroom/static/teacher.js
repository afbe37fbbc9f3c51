// courtlearn class: the teacher page (/teacher), the dashboard on a second screen.
//
// The teacher's link is /teacher#TOKEN: a fragment never travels to a server (not in the
// request, not in a Referer), and the page moves it at once into sessionStorage (this tab
// only) and out of the address bar. Without one, the page asks for it in a field (a link
// pasted whole works too). The token goes only in the socket's first message; the class
// server checks it against the hash it keeps. (As a JupyterHub service the hub's login
// says who teaches, and the server lets the page in without a token.)
//
// The dashboard is drawn by dashboard.js, the same module the notebook's widget runs,
// through dom.js's model object (what anywidget's model offers) over the WebSocket; the
// projector's table by the widget's own table.js (all hands face up, large), with a seat
// chooser and replay buttons here. The projector opens over the page, fitted to the
// screen (a dialog: Escape or Close ends it, the keyboard stays in it meanwhile).
// Every text goes in with textContent. In Urdu and Hindi the page's words are set in the
// bundled fonts from the start (teacher.css), and the projector's table gets them too.
//
// Page attributes besides dashboard.js's: [data-role=connection] (data-connected),
// [data-role=teacher-login] (the token form: [data-role=teacher-token], [data-role=teacher-open]),
// [data-role=teacher-notice], [data-role=projector] (data-table, data-seat, data-replay:
// "live" or the number of actions shown, data-actions) with [data-role=projector-seat]
// (data-seat, aria-pressed), [data-role=replay-first], [data-role=replay-back],
// [data-role=replay] (a range), [data-role=replay-forward], [data-role=replay-live],
// [data-role=projector-close], and the table (.cl-table, table.js's attributes).
import { h, makeModel, reconnecting, wordsOf } from "./dom.js";
import dashboard from "./dashboard.js";
import table from "./table.js";

const boot = JSON.parse(document.getElementById("courtlearn-teacher-boot").textContent);
const w = wordsOf(boot.words || {});
const BASE = boot.base || "/";
const TOKEN_KEY = "courtlearn.class.teacher";
const main = document.getElementById("courtlearn-teacher");
const header = document.querySelector("header");
const projBox = document.getElementById("courtlearn-projector");
const connection = document.querySelector("[data-role=connection]");

// the page's level-one heading, in the bar; then everything lives in <main>: the notice,
// the quiz's and the puzzles' panels, the dashboard (or the token form)
if (!document.querySelector("h1")) {
  header.prepend(h("h1", { class: "cl-teacher-title", text: w("title") }));
}
const noticeSlot = h("div", { class: "cl-teacher-slot" });
const quizSlot = h("div", { class: "cl-teacher-slot" });
const puzzlesSlot = h("div", { class: "cl-teacher-slot" });
const content = h("div", { class: "cl-teacher-content" });
main.replaceChildren(noticeSlot, quizSlot, puzzlesSlot, content);

// sessionStorage can be missing or refuse: then the token lives in memory only
let memoryToken = null;
const tokens = {
  get() { try { return sessionStorage.getItem(TOKEN_KEY) || memoryToken; } catch (e) { return memoryToken; } },
  set(t) { memoryToken = t; try { sessionStorage.setItem(TOKEN_KEY, t); } catch (e) { /* memory only */ } },
  clear() { memoryToken = null; try { sessionStorage.removeItem(TOKEN_KEY); } catch (e) { /* none */ } },
};

/** What a pasted link or token holds: the part after "#", trimmed. */
function tokenOf(text) {
  const s = String(text || "").trim();
  const i = s.indexOf("#");
  return (i >= 0 ? s.slice(i + 1) : s).trim();
}

// ---------------------------------------------------------------- the connection
let socket = null;          // dom.js's reconnecting socket (made at the start, below)
let board = null;           // {model, cleanup}
let proj = null;            // {model, cleanup, el, bar parts}
const fontsLoaded = {};

function setConnected(on) {
  connection.dataset.connected = on ? "true" : "false";
  connection.textContent = on ? w("connected") : w("disconnected");
}

function send(msg) {
  if (socket) socket.send(msg);
}

function notice(text) {
  let n = document.querySelector("[data-role=teacher-notice]");
  if (!n) {
    n = h("div", { class: "cl-teacher-notice", "data-role": "teacher-notice", role: "status",
      "aria-live": "polite" });
    noticeSlot.replaceChildren(n);
  }
  n.textContent = text || "";
}

function connect() {
  socket = reconnecting(`${BASE}teacher/ws`, {
    open() { setConnected(true); },
    message: handle,
    close() { setConnected(false); return true; },
  });
}

function handle(msg) {
  switch (msg.type) {
    case "login": {            // the server waits for the teacher's token
      const token = tokens.get();
      if (token) send({ type: "hello", token });
      else showLogin();
      break;
    }
    case "welcome":
      notice("");
      showBoard();
      send({ type: "quiz", content: { type: "state" } });   // the live quiz's panel
      send({ type: "puzzles", content: { type: "state" } });  // the class puzzles' panel
      break;
    case "quiz":
      showQuiz(msg.state || {});
      break;
    case "puzzles":
      showPuzzles(msg.state || {});
      break;
    case "state":
      if (board) board.model.set("state", msg.state || {});
      break;
    case "custom":
      if (board) board.model.custom(msg.content);
      break;
    case "projector_state":
      showProjector(msg);
      break;
    case "projector_custom":
      if (proj) proj.model.custom(msg.content);
      break;
    case "projector_closed":
      dropProjector();
      break;
    case "refused":
      notice(msg.reason || "");
      if (msg.token) { tokens.clear(); dropBoard(); dropQuiz(); dropPuzzles(); showLogin(); }
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- the token form
function showLogin() {
  dropBoard();
  const input = h("input", { type: "password", "data-role": "teacher-token", autocomplete: "off",
    required: "" });
  const form = h("form", { class: "cl-teacher-login", "data-role": "teacher-login" }, [
    h("label", {}, [h("span", { text: w("token") }), input]),
    h("button", { type: "submit", class: "cl-dash-btn", "data-role": "teacher-open", text: w("open") }),
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const token = tokenOf(input.value);
    if (!token) return;
    tokens.set(token);
    send({ type: "hello", token });
  });
  content.replaceChildren(form);
}

// ---------------------------------------------------------------- the dashboard
function showBoard() {
  if (board) return;
  const model = makeModel((c) => send({ type: "msg", content: c }));
  const el = h("div", { class: "cl-teacher-board" });
  content.replaceChildren(el);
  const cleanup = dashboard.render({ model, el });
  board = { model, cleanup };
}

function dropBoard() {
  if (!board) return;
  if (typeof board.cleanup === "function") board.cleanup();
  board = null;
  content.replaceChildren();
  dropProjector();
}

// ---------------------------------------------------------------- the live quiz
// Above the dashboard: a form to start a quiz (an exercise kind answered by a click, how
// many questions, a seed), then the question, how many learners answered, the buttons
// Show the answer / Next question / End the quiz; once shown, the spread of the answers,
// the right one and the engine's sentence. Names follow the dashboard's Hide names.
// Attributes: [data-role=quiz-teacher] (data-active, data-number, data-revealed),
// [data-role=quiz-kind], [data-role=quiz-n], [data-role=quiz-seed], [data-role=quiz-start],
// [data-role=quiz-count] (data-answered, data-of), [data-role=quiz-who],
// [data-role=quiz-reveal], [data-role=quiz-next], [data-role=quiz-stop],
// [data-role=quiz-spread] > [data-role=quiz-bar] (data-value, data-count, data-right),
// [data-role=quiz-answer], [data-role=quiz-reason].
let quizBox = null;
let quizForm = { kind: null, n: "5", seed: "" };     // what the teacher typed, kept

function quizSend(content) { send({ type: "quiz", content }); }

function dropQuiz() {
  if (quizBox) quizBox.remove();
  quizBox = null;
}

function showQuiz(st) {
  const qw = wordsOf(st.words || {});
  if (!quizBox) {
    quizBox = h("section", { class: "cl-dash cl-quiz-teacher", "data-role": "quiz-teacher" });
    quizSlot.replaceChildren(quizBox);
  }
  quizBox.setAttribute("aria-label", qw("quiz"));
  quizBox.dataset.active = st.active ? "true" : "false";
  quizBox.dataset.number = String(st.number || 0);
  quizBox.dataset.revealed = st.revealed ? "true" : "false";
  const btn = (role, text, onClick) => {
    const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": role, text });
    b.addEventListener("click", onClick);
    return b;
  };
  const parts = [];
  if (!st.active) {
    const kind = h("select", { "data-role": "quiz-kind", "aria-label": qw("kind") });
    for (const k of st.kinds || []) {
      const o = h("option", { value: k.kind, text: k.title });
      if (k.kind === quizForm.kind) o.selected = true;
      kind.append(o);
    }
    const n = h("input", { type: "number", min: "1", max: "50", value: quizForm.n,
      "data-role": "quiz-n", class: "cl-quiz-n" });
    const seed = h("input", { type: "number", min: "0", value: quizForm.seed,
      "data-role": "quiz-seed", class: "cl-quiz-seed" });
    const go = btn("quiz-start", qw("start"), () => {
      quizForm = { kind: kind.value, n: n.value, seed: seed.value };
      quizSend({ type: "start", kind: kind.value, n: Number(n.value) || 5,
        seed: seed.value === "" ? null : Number(seed.value) });
    });
    parts.push(h("strong", { text: `${qw("quiz")}: ` }),
      h("label", {}, [h("span", { text: `${qw("kind")} ` }), kind]), " ",
      h("label", {}, [h("span", { text: `${qw("n")} ` }), n]), " ",
      h("label", {}, [h("span", { text: `${qw("seed")} ` }), seed]), " ", go);
    if (st.finished) parts.push(h("p", { text: qw("over") }));
    quizBox.replaceChildren(...parts);
    return;
  }
  const titled = st.title && st.title !== st.prompt ? `${st.title} \u00b7 ` : "";  // once
  parts.push(h("h2", { class: "cl-quiz-t-head", "data-role": "quiz-heading", text:
    `${qw("quiz")}: ${titled}${qw("question", { i: st.number, n: st.n })}` }));
  parts.push(h("p", { class: "cl-quiz-t-prompt", text: st.prompt }));
  parts.push(h("div", { class: "cl-quiz-t-lines" }, (st.lines || []).map((l) => h("div", { text: l }))));
  const chip = (c) => h("span", { "data-card": c.card || null,
    class: `cl-quiz-t-chip${c.red ? " cl-quiz-t-red" : ""}`,
    text: c.place ? `${c.label} ${c.place}` : c.label });
  if (st.trick) parts.push(h("div", {}, st.trick.map(chip)));
  parts.push(h("div", { "data-role": "quiz-choices" }, (st.choices || []).map(chip)));
  parts.push(h("p", { "data-role": "quiz-count", "data-answered": st.answered, "data-of": st.of,
    class: "cl-quiz-t-count", text: qw("count", { k: st.answered, m: st.of }) }));
  parts.push(h("div", { "data-role": "quiz-who", class: "cl-quiz-t-who" },
    (st.who || []).map((p) => h("span", { "data-answered": p.answered ? "true" : "false",
      "data-right": p.right === undefined ? null : String(p.right),
      text: `${p.answered ? (p.right === undefined ? "\u25cf" : p.right ? "\u2714" : "\u2718") : "\u25cb"} ${p.name}` }))));
  if (st.revealed) {
    const most = Math.max(1, ...(st.spread || []).map((s) => s.count));
    parts.push(h("div", { "data-role": "quiz-spread", class: "cl-quiz-t-spread" }, (st.spread || []).map((s) =>
      h("div", { "data-role": "quiz-bar", "data-value": String(s.value), "data-count": s.count,
        "data-right": s.right ? "true" : "false", class: "cl-quiz-t-bar" }, [
        h("span", { class: "cl-quiz-t-label", text: `${s.right ? "\u2714 " : ""}${s.label}` }),
        h("span", { class: "cl-quiz-t-fill", style: `width:${Math.round(60 * s.count / most)}%` }),
        h("span", { text: String(s.count) }),
      ]))));
    const labels = (st.spread || []).filter((s) => s.right).map((s) => s.label).join(" / ");
    parts.push(h("p", { "data-role": "quiz-answer", class: "cl-quiz-t-answer",
      text: qw("answer", { answer: labels }) }));
    parts.push(h("p", { "data-role": "quiz-reason", class: "cl-quiz-t-reason", text: st.reason || "" }));
  }
  parts.push(h("div", { class: "cl-quiz-t-buttons" }, [
    st.revealed ? null : btn("quiz-reveal", qw("reveal"), () => quizSend({ type: "reveal" })),
    btn("quiz-next", qw("next"), () => quizSend({ type: "next" })),
    btn("quiz-stop", qw("stop"), () => quizSend({ type: "stop" })),
  ]));
  quizBox.replaceChildren(...parts);
}

// ---------------------------------------------------------------- the class puzzles
// Beside the quiz: a level to set the class (every learner page then plays that level's
// puzzles, judged on the server; each try reaches the results grid), or End the puzzles.
// Attributes: [data-role=puzzles-teacher] (data-level: the level set, "" for none),
// [data-role=puzzles-level] (a select), [data-role=puzzles-set], [data-role=puzzles-end],
// [data-role=puzzles-on].
let puzzlesBox = null;

function dropPuzzles() {
  if (puzzlesBox) puzzlesBox.remove();
  puzzlesBox = null;
}

function showPuzzles(st) {
  const pw = wordsOf(st.words || {});
  if (!puzzlesBox) {
    puzzlesBox = h("section", { class: "cl-dash cl-puzzles-teacher", "data-role": "puzzles-teacher" });
    puzzlesSlot.replaceChildren(puzzlesBox);
  }
  puzzlesBox.setAttribute("aria-label", pw("puzzles"));
  puzzlesBox.dataset.level = st.level === null || st.level === undefined ? "" : String(st.level);
  const level = h("select", { "data-role": "puzzles-level", "aria-label": pw("puzzles") });
  for (const l of st.levels || []) {
    const o = h("option", { value: String(l.level), text: l.label });
    if (l.level === st.level) o.selected = true;
    level.append(o);
  }
  const set = h("button", { type: "button", class: "cl-dash-btn", "data-role": "puzzles-set",
    text: pw("set") });
  set.addEventListener("click", () => send({ type: "puzzles",
    content: { type: "set", level: Number(level.value) } }));
  const parts = [h("strong", { text: `${pw("puzzles")}: ` }), level, set];
  if (st.level !== null && st.level !== undefined) {
    const end = h("button", { type: "button", class: "cl-dash-btn", "data-role": "puzzles-end",
      text: pw("end") });
    end.addEventListener("click", () => send({ type: "puzzles", content: { type: "set", level: null } }));
    parts.push(end, h("span", { "data-role": "puzzles-on", text: pw("on", { n: st.level }) }));
  }
  puzzlesBox.replaceChildren(...parts);
}

// ---------------------------------------------------------------- the projector
// A view of its own over the page (a dialog), fitted to the screen it is on (teacher.css
// sizes the cards from the window's height): the table's title, a button per seat (whose
// hand is at the bottom), the replay's controls, Close. Escape closes it too; meanwhile
// the page behind is inert, and the keyboard comes back to the button that opened it.
function projSend(content) { send({ type: "projector", content }); }

function showProjector(msg) {
  if (!proj) {
    const model = makeModel(projSend);
    model.set("size", "presenter");
    model.set("fonts", { ...fontsLoaded });
    const title = h("h2", { class: "cl-projector-title", "data-role": "projector-title",
      id: "cl-projector-title", tabindex: "-1" });
    const seats = h("span", { class: "cl-projector-seats", role: "group" });
    const btn = (role, text, onClick, label) => {
      const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": role, text,
        title: label, "aria-label": label });
      b.addEventListener("click", onClick);
      return b;
    };
    const range = h("input", { type: "range", min: "0", max: "0", step: "1", "data-role": "replay",
      "aria-label": w("replay") });
    range.addEventListener("change", () => {
      const n = Number(range.value);
      projSend({ type: "replay", n: n >= Number(range.max) ? null : n });
    });
    const at = () => (proj.replay === null ? proj.actions : proj.replay);
    const bar = h("div", { class: "cl-projector-bar" }, [
      title, seats,
      h("span", { class: "cl-projector-replay", role: "group", "aria-label": w("replay") }, [
        btn("replay-first", "|\u25c0", () => projSend({ type: "replay", n: 0 }), w("first")),
        btn("replay-back", "\u25c0", () => projSend({ type: "replay", n: Math.max(0, at() - 1) }),
          w("back")),
        range,
        btn("replay-forward", "\u25b6", () => {
          const n = at() + 1;
          projSend({ type: "replay", n: n >= proj.actions ? null : n });
        }, w("forward")),
        btn("replay-live", "\u25b6|", () => projSend({ type: "replay", n: null }), w("live")),
      ]),
      btn("projector-close", w("close"), () => projSend({ type: "close" })),
    ]);
    const el = h("div", { class: "cl-projector-table" });
    projBox.replaceChildren(bar, el);
    projBox.setAttribute("role", "dialog");
    projBox.setAttribute("aria-modal", "true");
    projBox.setAttribute("aria-labelledby", title.id);
    const opener = document.activeElement;
    projBox.hidden = false;
    main.inert = true;                   // the page behind waits: the keyboard stays here
    header.inert = true;
    document.documentElement.classList.add("cl-projecting");
    projBox.scrollTop = 0;
    const cleanup = table.render({ model, el });
    proj = { model, cleanup, title, seats, range, replay: null, actions: 0, opener };
    title.focus({ preventScroll: true });
    if (boot.lang in { ur: 1, hi: 1 }) loadFonts();
  }
  proj.replay = msg.replay === null || msg.replay === undefined ? null : msg.replay;
  proj.actions = msg.actions || 0;
  projBox.dataset.table = msg.table;
  projBox.dataset.seat = msg.seat;
  projBox.dataset.actions = proj.actions;
  projBox.dataset.replay = proj.replay === null ? "live" : String(proj.replay);
  const frames = (msg.state && msg.state.frames) || [];
  const last = frames[frames.length - 1];
  if (last) {
    proj.title.textContent = `${w("table", { n: msg.table + 1 })} \u00b7 ${last.title}`;
    proj.seats.setAttribute("aria-label", w("seats"));
    const had = proj.seats.contains(document.activeElement) ? document.activeElement.dataset.seat : null;
    proj.seats.replaceChildren(...last.seats.map((s) => {
      const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": "projector-seat",
        "data-seat": s.seat, "aria-pressed": s.seat === msg.seat ? "true" : "false",
        text: s.player ? `${s.name}: ${s.player}` : s.name });
      b.addEventListener("click", () => projSend({ type: "seat", seat: s.seat }));
      return b;
    }));
    if (had !== null && had !== undefined) {   // redrawn under the teacher's keyboard
      const again = proj.seats.querySelector(`[data-seat="${had}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }
  proj.range.max = String(proj.actions);
  proj.range.value = String(proj.replay === null ? proj.actions : proj.replay);
  proj.model.set("state", msg.state || {});
}

function dropProjector() {
  if (!proj) return;
  if (typeof proj.cleanup === "function") proj.cleanup();
  const { opener } = proj;
  proj = null;
  projBox.replaceChildren();
  projBox.hidden = true;
  main.inert = false;
  header.inert = false;
  document.documentElement.classList.remove("cl-projecting");
  const back = (opener && opener.isConnected && opener) ||
    document.querySelector(`[data-role=project][data-table="${projBox.dataset.table}"]`);
  if (back) back.focus({ preventScroll: true });
}

projBox.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && proj) { ev.preventDefault(); projSend({ type: "close" }); }
});

function loadFonts() {
  for (const [family, url] of Object.entries(boot.fonts || {})) {
    if (fontsLoaded[family]) continue;
    fontsLoaded[family] = new ArrayBuffer(0);
    fetch(url).then((r) => r.arrayBuffer()).then((bytes) => {
      fontsLoaded[family] = bytes;
      if (proj) proj.model.set("fonts", { ...fontsLoaded });
    }, () => { delete fontsLoaded[family]; });
  }
}

// ---------------------------------------------------------------- start
{
  const frag = tokenOf(location.hash);
  if (frag) {
    tokens.set(frag);
    history.replaceState(null, "", location.pathname + location.search);
  }
}
setConnected(false);
if (boot.lang in { ur: 1, hi: 1 }) loadFonts();   // the page's words are in them from the start
connect();
