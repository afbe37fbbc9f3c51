// courtlearn: what every page of courtlearn draws with (one module, shared).
//
// The card table (table.js), the teacher's dashboard (dashboard.js) and the class pages
// (learner.js, teacher.js) build their elements with h(), fill their words with fill(), and
// the class pages hand table.js and dashboard.js a model object (makeModel) that offers
// what anywidget's model offers, carried over the class server's WebSocket.
//
// The class server serves this file beside the others (/static/dom.js), and the pages import
// it. A notebook's widget is loaded by anywidget from one string, which can import no file
// beside it: courtlearn/widgets/esm.py puts this module inline in table.js and dashboard.js
// for anywidget. So this file imports nothing and names nothing of the page it runs in.
// Every text goes in with textContent: nothing given here is ever parsed as HTML.

/** An element: h("button", {class: "cl-btn", text: "Join", "data-role": "join"}, [children]).
 * An attribute whose value is null, undefined or false is left out; `text` is the element's
 * textContent, `class` its className, anything else an attribute (as a string). Children:
 * elements or strings. */
export function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c) e.append(c);      // (a child "", null or false: none)
  return e;
}

/** `text` with its {name} parts filled in from `vars` (a part with no value stays as it is). */
export function fill(text, vars = {}) {
  return String(text).replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

/** A function that says `words[key]` with its parts filled in (the key itself when there is
 * no such word). A word given as [one, many] (the language's plural forms, from Python) is
 * chosen by `vars.n`. */
export function wordsOf(words) {
  return (key, vars = {}) => {
    let text = words && words[key] !== undefined ? words[key] : key;
    if (Array.isArray(text)) text = text[vars.n === 1 ? 0 : 1];
    return fill(text, vars);
  };
}

/** anywidget's model surface (get, set, on, off, send, save_changes) for a page whose state
 * comes from a server: table.js and dashboard.js cannot tell the difference.
 * `sendToServer(content)` carries what the module sends. `custom(content)` hands the module a
 * message from the server. An intent awaiting its reply is noted (`inflight`: the id of the
 * last one sent); `lost(reason)` refuses it when the connection dropped (no reply will come). */
export function makeModel(sendToServer) {
  const data = { state: {}, animate: true, size: "normal", speed: 450, fonts: {} };
  const handlers = new Map();
  const emit = (event, ...args) => {
    for (const fn of [...(handlers.get(event) || [])]) fn(...args);
  };
  const model = {
    inflight: null,
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
    send(content) {
      if (content && typeof content.id === "number") model.inflight = content.id;
      sendToServer(content);
    },
    save_changes() { /* the server owns the state: nothing to save from the page */ },
    custom(content) {
      if (content && content.reply_to === model.inflight) model.inflight = null;
      emit("msg:custom", content, []);
    },
    lost(reason) {
      if (model.inflight !== null) model.custom({ reply_to: model.inflight, ok: false, reason });
    },
  };
  return model;
}

/** A WebSocket to `path` on the page's own host (wss on an https page) that comes back by
 * itself, as the class pages' sockets do: after a drop it tries again in 0.25, 0.5, 1, then
 * every 2 s (a server restarting, a phone waking up). `on.open()` when it is (back) open;
 * `on.message(msg)` for each message that is a JSON object with a string `type` (anything
 * else is ignored); `on.close(event)` when it dropped: return false to stop trying (the page
 * reloads instead). Returns `{send(msg), isOpen()}`: `send` sends a message as JSON while
 * the socket is open and says whether it did. */
export function reconnecting(path, on) {
  let ws = null;
  let retry = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(`${scheme}${location.host}${path}`);
    ws = socket;
    socket.onopen = () => { retry = 0; if (on.open) on.open(); };
    socket.onmessage = (ev) => {
      let msg = null;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && typeof msg.type === "string") on.message(msg);
    };
    socket.onclose = (ev) => {
      if (ws !== socket) return;
      ws = null;
      if (on.close && on.close(ev) === false) return;
      const delay = Math.min(2000, 250 * 2 ** retry);
      retry += 1;
      setTimeout(connect, delay);
    };
  }
  connect();
  const isOpen = () => ws !== null && ws.readyState === WebSocket.OPEN;
  return {
    isOpen,
    send(msg) {
      if (!isOpen()) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
  };
}
