// A stand-in for anywidget's model, small enough to read at a glance: the card table
// (courtlearn/widgets/static/table.js) needs only these. The browser tests feed it real
// snapshots from Python; the classroom's learner page carries the same shape over a
// WebSocket (`send` goes to the server, the server's answers come in through `receive`).
//
//   const model = createModel({ state, animate: false, speed: 0, size: "normal", fonts: {} },
//                             (msg) => socket.send(JSON.stringify(msg)));
//   widget.render({ model, el });
//   model.set("state", newState);           // Python synced a trait: "change:state"
//   model.receive({ reply_to: 1, ok: true }); // Python sent a custom message: "msg:custom"

/**
 * @param {Object<string, any>} values  the traits, by name
 * @param {(msg: object) => void} [onSend]  where the page's intents go
 */
export function createModel(values, onSend = () => {}) {
  const handlers = new Map();               // event name -> [callback]
  const emit = (event, ...args) => {
    for (const f of [...(handlers.get(event) || [])]) f(...args);
  };
  return {
    get: (name) => values[name],
    set(name, value) {
      values[name] = value;
      emit(`change:${name}`, value);
    },
    on(event, f) {
      if (!handlers.has(event)) handlers.set(event, []);
      handlers.get(event).push(f);
    },
    off(event, f) {
      if (!f) handlers.delete(event);
      else handlers.set(event, (handlers.get(event) || []).filter((g) => g !== f));
    },
    send: (msg) => onSend(msg),
    save_changes() {},                       // set() already told everyone
    receive: (msg) => emit("msg:custom", msg),
  };
}
