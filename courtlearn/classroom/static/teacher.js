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
      if (msg.token) { tokens.clear(); dropBoard(); showLogin(); }
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
