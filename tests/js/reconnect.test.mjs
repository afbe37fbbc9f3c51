// dom.js's reconnecting(): the one reconnect loop of the class pages (learner.js and
// teacher.js), with a stand-in WebSocket and a stand-in clock: the address (ws, or wss on an
// https page), the messages handed on (JSON objects with a string type only), the waits
// between tries (0.25, 0.5, 1, then 2 s; back to 0.25 s once a socket opened), a close
// handler that stops the tries by returning false, and send() only while open.
//
//   make test-js      (node --test tests/js/)
import { test } from "node:test";
import assert from "node:assert/strict";

const { reconnecting } = await import(new URL("../../courtlearn/widgets/static/dom.js", import.meta.url).href);

/** A stand-in WebSocket class whose sockets the test opens, feeds and closes. */
function fakeSockets() {
  const made = [];
  class FakeSocket {
    static OPEN = 1;
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; made.push(this); }
    send(text) { this.sent.push(text); }
    open() { this.readyState = 1; this.onopen(); }
    message(data) { this.onmessage({ data }); }
    drop(code = 1006) { this.readyState = 3; this.onclose({ code }); }
  }
  return { FakeSocket, made };
}

/** setTimeout as a list of waits the test runs by hand. */
function fakeTimers() {
  const waits = [];
  return { waits, setTimeout: (fn, ms) => waits.push({ fn, ms }) };
}

test("reconnecting tries again with growing waits and hands on only typed messages", () => {
  const { FakeSocket, made } = fakeSockets();
  const timers = fakeTimers();
  Object.assign(globalThis, { WebSocket: FakeSocket, setTimeout: timers.setTimeout,
    location: { protocol: "https:", host: "class.test:8443" } });
  const got = [];
  const events = [];
  const socket = reconnecting("/services/class/ws", {
    open() { events.push("open"); },
    message(msg) { got.push(msg); },
    close(ev) { events.push(`close ${ev.code}`); return true; },
  });
  assert.equal(made.length, 1);
  assert.equal(made[0].url, "wss://class.test:8443/services/class/ws");
  assert.equal(socket.send({ type: "hello" }), false);      // not open yet: nothing sent
  assert.deepEqual(made[0].sent, []);
  made[0].open();
  assert.equal(socket.isOpen(), true);
  assert.equal(socket.send({ type: "hello", token: "t" }), true);
  assert.deepEqual(made[0].sent, ['{"type":"hello","token":"t"}']);
  for (const data of ["not json", "[1,2]", '{"type":3}', "null", '{"type":"welcome","name":"Zoya"}']) {
    made[0].message(data);
  }
  assert.deepEqual(got, [{ type: "welcome", name: "Zoya" }]);
  // dropped: tries again after 0.25, 0.5, 1, 2, 2 s while nothing opens
  made[0].drop();
  assert.equal(socket.isOpen(), false);
  const delays = [];
  for (let i = 0; i < 5; i += 1) {
    const wait = timers.waits.shift();
    delays.push(wait.ms);
    wait.fn();
    made[made.length - 1].drop();
  }
  assert.deepEqual(delays, [250, 500, 1000, 2000, 2000]);
  // one opens: the next drop waits 0.25 s again
  timers.waits.shift().fn();
  made[made.length - 1].open();
  made[made.length - 1].drop();
  assert.equal(timers.waits.shift().ms, 250);
  assert.equal(events.filter((e) => e === "open").length, 2);
  // a socket replaced already (an old one closing late) changes nothing
  const before = timers.waits.length;
  made[0].onclose({ code: 1000 });
  assert.equal(timers.waits.length, before);
});

test("a close handler returning false stops the tries (the page reloads instead)", () => {
  const { FakeSocket, made } = fakeSockets();
  const timers = fakeTimers();
  Object.assign(globalThis, { WebSocket: FakeSocket, setTimeout: timers.setTimeout,
    location: { protocol: "http:", host: "127.0.0.1:8765" } });
  const socket = reconnecting("/ws", { message() {}, close: (ev) => ev.code !== 4401 });
  assert.equal(made[0].url, "ws://127.0.0.1:8765/ws");
  made[0].open();
  made[0].drop(4401);
  assert.equal(timers.waits.length, 0);
  assert.equal(made.length, 1);
  assert.equal(socket.send({ type: "hello" }), false);
});
