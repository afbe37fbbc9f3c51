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
// through a model object that offers what anywidget's model offers (get, set, on, off,
// send, save_changes) over the WebSocket; the projector's table by the widget's own
// table.js (all hands face up, large), with a seat chooser and replay buttons here.
// Every text goes in with textContent.
//
// Page attributes besides dashboard.js's: [data-role=connection] (data-connected),
// [data-role=teacher-login] (the token form: [data-role=teacher-token], [data-role=teacher-open]),
// [data-role=teacher-notice], [data-role=projector] (data-table, data-seat, data-replay:
// "live" or the number of actions shown, data-actions) with [data-role=projector-seat]
// (data-seat, aria-pressed), [data-role=replay-first], [data-role=replay-back],
// [data-role=replay] (a range), [data-role=replay-forward], [data-role=replay-live],
// [data-role=projector-close], and the table (.cl-table, table.js's attributes).
import dashboard from "./dashboard.js";
import table from "./table.js";

const boot = JSON.parse(document.getElementById("courtlearn-teacher-boot").textContent);
const WORDS = boot.words || {};
const BASE = boot.base || "/";
const TOKEN_KEY = "courtlearn.class.teacher";
const main = document.getElementById("courtlearn-teacher");
const projBox = document.getElementById("courtlearn-projector");
const connection = document.querySelector("[data-role=connection]");

function w(key, vars = {}) {
  const text = WORDS[key] === undefined ? key : WORDS[key];
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

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

/** anywidget's model surface over the socket (as the learner page's). */
export function makeModel(sendToServer) {
  const data = { state: {}, animate: true, size: "normal", speed: 450, fonts: {} };
  const handlers = new Map();
  const emit = (event, ...args) => {
    for (const fn of [...(handlers.get(event) || [])]) fn(...args);
  };
  return {
    get: (name) => data[name],
    set(name, value) { data[name] = value; emit(`change:${name}`, value); },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      if (!event) handlers.clear();
      else if (!fn) handlers.delete(event);
      else if (handlers.has(event)) handlers.get(event).delete(fn);
    },
    send(content) { sendToServer(content); },
    save_changes() { /* the server owns the state */ },
    custom(content) { emit("msg:custom", content, []); },
  };
}

// ---------------------------------------------------------------- the connection
let ws = null;
let retry = 0;
let board = null;           // {model, cleanup}
let proj = null;            // {model, cleanup, el, bar parts}
const fontsLoaded = {};

function setConnected(on) {
  connection.dataset.connected = on ? "true" : "false";
  connection.textContent = on ? w("connected") : w("disconnected");
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function notice(text) {
  let n = document.querySelector("[data-role=teacher-notice]");
  if (!n) {
    n = h("div", { class: "cl-teacher-notice", "data-role": "teacher-notice", "aria-live": "polite" });
    main.before(n);
  }
  n.textContent = text || "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${location.host}${BASE}teacher/ws`);
  ws = socket;
  socket.onopen = () => { retry = 0; setConnected(true); };
  socket.onmessage = (ev) => {
    let msg = null;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg && typeof msg.type === "string") handle(msg);
  };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = null;
    setConnected(false);
    const delay = Math.min(2000, 250 * 2 ** retry);
    retry += 1;
    setTimeout(connect, delay);
  };
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
    required: "", "aria-label": w("token") });
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
  main.replaceChildren(form);
}

// ---------------------------------------------------------------- the dashboard
function showBoard() {
  if (board) return;
  const model = makeModel((content) => send({ type: "msg", content }));
  const el = h("div", { class: "cl-teacher-board" });
  main.replaceChildren(el);
  const cleanup = dashboard.render({ model, el });
  board = { model, cleanup };
}

function dropBoard() {
  if (!board) return;
  if (typeof board.cleanup === "function") board.cleanup();
  board = null;
  main.replaceChildren();
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
  const qw = (key, vars = {}) => {
    const text = (st.words || {})[key] === undefined ? key : st.words[key];
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
  };
  if (!quizBox) {
    quizBox = h("section", { class: "cl-dash cl-quiz-teacher", "data-role": "quiz-teacher" });
    Object.assign(quizBox.style, { margin: "6px 0", border: "2px solid #1d6b45",
      borderRadius: "6px", padding: "8px" });
    main.before(quizBox);
  }
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
      "data-role": "quiz-n", "aria-label": qw("n"), style: "width:4em" });
    const seed = h("input", { type: "number", min: "0", value: quizForm.seed,
      "data-role": "quiz-seed", "aria-label": qw("seed"), style: "width:7em" });
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
  parts.push(h("h3", { style: "margin:0 0 4px", "data-role": "quiz-heading", text:
    `${qw("quiz")}: ${titled}${qw("question", { i: st.number, n: st.n })}` }));
  parts.push(h("p", { style: "font-weight:bold;font-size:1.2em;margin:4px 0", text: st.prompt }));
  parts.push(h("div", { style: "font-size:0.9em" }, (st.lines || []).map((l) => h("div", { text: l }))));
  const chip = (c) => h("span", { "data-card": c.card || null, style:
    `display:inline-block;margin:2px 4px;padding:2px 6px;border:1px solid #999;border-radius:4px;` +
    `font-size:1.3em;color:${c.red ? "#c00" : "inherit"}`,
  text: c.place ? `${c.label} ${c.place}` : c.label });
  if (st.trick) parts.push(h("div", {}, st.trick.map(chip)));
  parts.push(h("div", { "data-role": "quiz-choices" }, (st.choices || []).map(chip)));
  parts.push(h("p", { "data-role": "quiz-count", "data-answered": st.answered, "data-of": st.of,
    style: "font-size:1.6em;font-weight:bold;margin:6px 0",
    text: qw("count", { k: st.answered, m: st.of }) }));
  parts.push(h("div", { "data-role": "quiz-who", style: "display:flex;flex-wrap:wrap;gap:4px 12px" },
    (st.who || []).map((p) => h("span", { "data-answered": p.answered ? "true" : "false",
      "data-right": p.right === undefined ? null : String(p.right),
      style: `opacity:${p.answered ? 1 : 0.5}`,
      text: `${p.answered ? (p.right === undefined ? "\u25cf" : p.right ? "\u2714" : "\u2718") : "\u25cb"} ${p.name}` }))));
  if (st.revealed) {
    const most = Math.max(1, ...(st.spread || []).map((s) => s.count));
    parts.push(h("div", { "data-role": "quiz-spread", style: "margin:6px 0" }, (st.spread || []).map((s) =>
      h("div", { "data-role": "quiz-bar", "data-value": String(s.value), "data-count": s.count,
        "data-right": s.right ? "true" : "false", style: "display:flex;align-items:center;gap:6px;margin:2px 0" }, [
        h("span", { style: "min-width:8em", text: `${s.right ? "\u2714 " : ""}${s.label}` }),
        h("span", { style: `display:inline-block;height:1.2em;width:${Math.round(60 * s.count / most)}%;` +
          `min-width:2px;background:${s.right ? "#2e9e4f" : "#999"}` }),
        h("span", { text: String(s.count) }),
      ]))));
    const labels = (st.spread || []).filter((s) => s.right).map((s) => s.label).join(" / ");
    parts.push(h("p", { "data-role": "quiz-answer", style: "font-weight:bold;margin:4px 0",
      text: qw("answer", { answer: labels }) }));
    parts.push(h("p", { "data-role": "quiz-reason", style: "margin:4px 0", text: st.reason || "" }));
  }
  parts.push(h("div", { style: "display:flex;gap:6px;flex-wrap:wrap" }, [
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
  const pw = (key, vars = {}) => {
    const text = (st.words || {})[key] === undefined ? key : st.words[key];
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
  };
  if (!puzzlesBox) {
    puzzlesBox = h("section", { class: "cl-dash cl-puzzles-teacher", "data-role": "puzzles-teacher" });
    Object.assign(puzzlesBox.style, { margin: "6px 0", border: "2px solid #6b4d1d",
      borderRadius: "6px", padding: "8px", display: "flex", flexWrap: "wrap", gap: "6px",
      alignItems: "center" });
    main.before(puzzlesBox);
  }
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
function projSend(content) { send({ type: "projector", content }); }

function showProjector(msg) {
  if (!proj) {
    const model = makeModel(projSend);
    model.set("size", "presenter");
    model.set("fonts", { ...fontsLoaded });
    const title = h("span", { class: "cl-projector-title", "data-role": "projector-title" });
    const seats = h("span", { class: "cl-projector-seats" });
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
      btn("replay-first", "|\u25c0", () => projSend({ type: "replay", n: 0 }), w("first")),
      btn("replay-back", "\u25c0", () => projSend({ type: "replay", n: Math.max(0, at() - 1) }),
        w("back")),
      range,
      btn("replay-forward", "\u25b6", () => {
        const n = at() + 1;
        projSend({ type: "replay", n: n >= proj.actions ? null : n });
      }, w("forward")),
      btn("replay-live", "\u25b6|", () => projSend({ type: "replay", n: null }), w("live")),
      btn("projector-close", w("close"), () => projSend({ type: "close" })),
    ]);
    const el = h("div", { class: "cl-projector-table" });
    projBox.replaceChildren(bar, el);
    projBox.hidden = false;
    const cleanup = table.render({ model, el });
    proj = { model, cleanup, title, seats, range, replay: null, actions: 0 };
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
    proj.seats.replaceChildren(...last.seats.map((s) => {
      const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": "projector-seat",
        "data-seat": s.seat, "aria-pressed": s.seat === msg.seat ? "true" : "false",
        text: s.player ? `${s.name}: ${s.player}` : s.name });
      b.addEventListener("click", () => projSend({ type: "seat", seat: s.seat }));
      return b;
    }));
  }
  proj.range.max = String(proj.actions);
  proj.range.value = String(proj.replay === null ? proj.actions : proj.replay);
  proj.model.set("state", msg.state || {});
}

function dropProjector() {
  if (!proj) return;
  if (typeof proj.cleanup === "function") proj.cleanup();
  proj = null;
  projBox.replaceChildren();
  projBox.hidden = true;
}

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
connect();
