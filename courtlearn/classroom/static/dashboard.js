// courtlearn class: the teacher's dashboard (an anywidget ESM module).
//
// Python owns the class (courtlearn/classroom/dashboard.py, DashboardCore). It syncs
// `state`: every table live (who sits where and whether connected, the deal's stage, the
// open trick, tricks, courts, the result), the learners without a seat, the latest same
// deal's results table by table, and the words in the class's language. This module
// draws it and sends requests with model.send({type, ..., id}); Python carries each out
// through a Room method, or refuses it with a sentence, and answers {reply_to, ok,
// reason}. No rule lives here. The same module draws the teacher page (/teacher), through
// the page's model object over the class server's WebSocket (static/teacher.js).
// Every text goes in with textContent: a learner's name is never read as HTML.
//
// The page's attributes (what browser tests drive; add freely, rename nothing):
//   [data-role=dashboard]          the root; data-paused "true"|"false", data-rev, data-reply
//                                  ("pending"|"accepted"|"refused" for the last request)
//   [data-role=class-code]         the class code; [data-role=join-address] each address
//   [data-role=pause-all] [data-role=resume-all] [data-role=new-deal-all]   buttons
//   [data-role=seed] (input) + [data-role=same-deal] (button): the same deal everywhere
//   [data-role=add-table]          a new table (the rules of the last one)
//   [data-role=dash-message]       the answer to the last request; data-kind "info"|"error"
//   [data-role=dash-table]         one per table: data-table (0-based), data-phase
//                                  ("trump"|"play"|"over"), data-deal (1-based),
//                                  data-actions, data-batch (same deal number or ""),
//                                  data-to-act (seat or -1)
//     [data-role=table-title] [data-role=table-stage] [data-role=table-trick] (cards:
//     [data-card] data-seat) [data-role=table-score] [data-role=table-courts]
//     [data-role=table-result] [data-role=project] (button, data-table: the projector)
//     [data-role=dash-seat]        one per seat: data-table, data-seat, data-status
//                                  ("here"|"away"|"bot"|"empty"), data-connected
//                                  ("true"|"false"|"none"), data-learner (id or "")
//       [data-role=seat-place] [data-role=learner-name] [data-role=seat-status]
//       [data-role=move-to]        a select of the free seats (values "table:seat");
//                                  choosing one moves the learner at once
//       [data-role=to-bot]         hand the seat to a bot (the learner goes to the lobby)
//       [data-role=remove]         remove the learner: the first click arms it
//                                  (data-armed="true", its words say so), the second sends
//   [data-role=lobby]              the learners without a seat: [data-role=lobby-learner]
//                                  data-learner, data-connected, with [data-role=move-to]
//                                  and [data-role=remove] as above
//   [data-role=compare]            the latest same deal, table by table (data-batch):
//                                  [data-role=compare-row] data-table, data-phase
//   [data-role=hide-names]         a switch (aria-pressed, data-on "true"|"false"): every
//                                  learner's name shows as "Learner n" (for the projector)
//   [data-role=results-csv]        downloads the results as CSV (the reply brings the text;
//                                  the root's data-csv-bytes then says how long it was)
//   [data-role=results]            the results from the learners' notebooks (data-count):
//     [data-role=hardest]          [data-role=hard-item] data-item, data-wrong, data-tried:
//                                  the questions most of the class got wrong
//     [data-role=results-grid]     one [data-role=results-row] per learner: data-learner,
//                                  data-stuck ("tries"|""), [data-role=learner-name],
//                                  [data-role=now-at] (the item of their latest result),
//                                  [data-role=stuck]; a [data-role=results-cell] per item:
//                                  data-item, data-state ("first"|"solved"|"trying"|""),
//                                  data-tries; the columns are numbered as the items were
//                                  first tried, and [data-role=hard-number] says the same
//   [data-role=pager]              the tables, the lobby and the results' learners come a
//                                  page at a time in a large class: data-part ("tables"|
//                                  "lobby"|"results"), data-page (0-based), data-pages;
//                                  [data-role=page-prev] [data-role=page-next] ask for
//                                  another page ({type: "page", part, page})

import { h, wordsOf } from "./dom.js";

const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RED = new Set(["H", "D"]);

/** A heading for a screen reader's outline of the teacher page that is no <h2>/<h3>: in a
 * notebook, JupyterLab's table of contents would list an output's headings. */
function heading(level, text) {
  return h("p", { class: "cl-dash-heading", role: "heading", "aria-level": level, text });
}

function cardText(code) {
  const c = String(code);
  return `${c.slice(0, -1)}${SUIT[c.slice(-1)] || c.slice(-1)}`;
}

function render({ model, el }) {
  const root = h("div", { class: "cl-dash", "data-role": "dashboard", "data-rev": "-1",
    "data-paused": "false", "data-lm-suppress-shortcuts": "true" });
  el.append(root);
  let WORDS = {};
  let nextId = 1;
  let armed = null;              // the learner whose Remove button was clicked once
  let deferred = false;          // a redraw waits while the teacher uses a select or field

  const w = (key, vars = {}) => wordsOf(WORDS)(key, vars);   // [one, many]: plural_forms

  function send(content) {
    content.id = nextId++;
    root.dataset.reply = "pending";
    model.send(content);
  }

  // ---------- the bar: built once (the seed field keeps what is typed in it)
  const code = h("code", { class: "cl-dash-code", "data-role": "class-code" });
  const codeLabel = h("span", { class: "cl-dash-label" });
  const addresses = h("span", { class: "cl-dash-addresses" });
  const pausedBadge = h("span", { class: "cl-dash-paused", "data-role": "paused-badge" });
  const button = (role, onClick) => {
    const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": role });
    b.addEventListener("click", onClick);
    return b;
  };
  const pauseAll = button("pause-all", () => send({ type: "pause" }));
  const resumeAll = button("resume-all", () => send({ type: "resume" }));
  const newDeal = button("new-deal-all", () => ask({ type: "new_deal" }));
  const seed = h("input", { class: "cl-dash-seed", "data-role": "seed", type: "number",
    min: "0", step: "1", inputmode: "numeric" });
  const seedLabel = h("label", { class: "cl-dash-seed-label" });
  const sameDeal = button("same-deal", () => {
    const value = seed.value.trim();
    // the number as typed (Python checks it and says what is wrong)
    ask({ type: "same_deal", seed: value === "" ? null : Number(value) });
  });
  seed.addEventListener("keydown", (ev) => { if (ev.key === "Enter") sameDeal.click(); });
  const addTable = button("add-table", () => send({ type: "add_table" }));
  const hideNames = button("hide-names", () => send({ type: "hide_names",
    on: hideNames.dataset.on !== "true" }));
  const csv = button("results-csv", () => send({ type: "results_csv" }));
  const message = h("div", { class: "cl-dash-message", "data-role": "dash-message",
    "aria-live": "polite" });
  // a new deal (or the same deal) while a table is in the middle of one asks first: the
  // cards played there would be put away
  const confirmText = h("span", { class: "cl-dash-confirm-text", "data-role": "deal-confirm-text" });
  const confirmYes = button("deal-confirm-yes", () => {
    const request = pendingDeal;
    closeConfirm(false);
    if (request) send(request);
  });
  confirmYes.classList.add("cl-dash-danger");
  const confirmNo = button("deal-confirm-no", () => closeConfirm(true));
  const confirmBox = h("div", { class: "cl-dash-confirm", "data-role": "deal-confirm", role: "group",
    hidden: "" }, [confirmText, confirmYes, confirmNo]);
  confirmBox.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeConfirm(true); });
  let pendingDeal = null;
  let opener = null;

  function ask(request) {
    const st = model.get("state") || {};
    const busy = Array.isArray(st.busy_tables) ? st.busy_tables.map((n) => n + 1)
      : (st.tables || []).filter((t) => t.phase !== "over" && t.actions > 0)
      .map((t) => t.table + 1);
    if (!busy.length) { send(request); return; }
    pendingDeal = request;
    opener = request.type === "new_deal" ? newDeal : sameDeal;
    confirmText.textContent = w("mid_deal", { n: busy.length, tables: busy.join(", ") });
    confirmYes.textContent = w("deal_anyway");
    confirmNo.textContent = w("cancel");
    confirmBox.setAttribute("aria-label", opener.textContent);
    confirmBox.hidden = false;
    confirmNo.focus();
  }

  function closeConfirm(back) {
    pendingDeal = null;
    confirmBox.hidden = true;
    if (back && opener) opener.focus();
  }
  const bar = h("div", { class: "cl-dash-bar" }, [
    h("div", { class: "cl-dash-join" }, [codeLabel, code, addresses, pausedBadge]),
    h("div", { class: "cl-dash-buttons" }, [pauseAll, resumeAll, newDeal,
      h("span", { class: "cl-dash-same" }, [seedLabel, seed, sameDeal]), addTable,
      hideNames, csv]),
    confirmBox,
    message,
  ]);
  const tablesBox = h("div", { class: "cl-dash-tables" });
  const lobbyBox = h("section", { class: "cl-dash-lobby", "data-role": "lobby" });
  const compareBox = h("section", { class: "cl-dash-compare-box" });
  const resultsBox = h("section", { class: "cl-dash-results", "data-role": "results" });
  root.append(bar, tablesBox, lobbyBox, compareBox, resultsBox);

  function say(text, kind) {
    message.textContent = text || "";
    message.dataset.kind = kind;
  }

  // ---------- the moving parts
  function freeSeats(st) {
    if (Array.isArray(st.free)) return st.free;   // every table's (the page shows some)
    const out = [];
    for (const t of st.tables || []) {
      for (const s of t.seats) if (s.learner === null) out.push([t.table, s.seat, s.place]);
    }
    return out;
  }

  function moveSelect(learner, free) {
    const sel = h("select", { class: "cl-dash-move", "data-role": "move-to",
      "data-learner": learner, "aria-label": w("move") });
    sel.append(h("option", { value: "", text: w("move_to") }));
    for (const [t, s, place] of free) {
      sel.append(h("option", { value: `${t}:${s}`, text: w("free_seat", { n: t + 1, place }) }));
    }
    sel.disabled = free.length === 0;
    sel.addEventListener("change", () => {
      const [t, s] = sel.value.split(":").map(Number);
      if (sel.value) send({ type: "move", learner, table: t, seat: s });
      deferred = false;
    });
    return sel;
  }

  function removeButton(learner) {
    const b = h("button", { type: "button", class: "cl-dash-btn cl-dash-remove",
      "data-role": "remove", "data-learner": learner,
      "data-armed": armed === learner ? "true" : "false",
      text: armed === learner ? w("remove_sure") : w("remove") });
    b.addEventListener("click", () => {
      if (armed === learner) {
        armed = null;
        send({ type: "remove", learner });
      } else {
        armed = learner;
        b.dataset.armed = "true";
        b.textContent = w("remove_sure");
      }
    });
    return b;
  }

  function seatRow(t, s, free) {
    const conn = s.connected === null ? "none" : String(s.connected);
    const li = h("li", { class: `cl-dash-seat cl-dash-${s.status}`, "data-role": "dash-seat",
      "data-table": t.table, "data-seat": s.seat, "data-status": s.status,
      "data-connected": conn, "data-learner": s.learner === null ? "" : s.learner }, [
      h("span", { class: "cl-dash-dot", "aria-hidden": "true" }),
      h("span", { class: "cl-dash-place", "data-role": "seat-place", text: s.place }),
      h("span", { class: "cl-dash-name", "data-role": "learner-name",
        text: s.name === null ? w("empty") : s.name }),
      // an empty seat says "bot" once (its name); a learner's says here, away or a bot plays
      s.learner === null ? null
        : h("span", { class: "cl-dash-status", "data-role": "seat-status", text: w(s.status) }),
    ]);
    if (s.learner !== null) {
      const toBot = h("button", { type: "button", class: "cl-dash-btn", "data-role": "to-bot",
        "data-table": t.table, "data-seat": s.seat, text: w("to_bot") });
      toBot.addEventListener("click", () => send({ type: "to_bot", table: t.table, seat: s.seat }));
      li.append(h("span", { class: "cl-dash-actions" },
        [moveSelect(s.learner, free), toBot, removeButton(s.learner)]));
    }
    return li;
  }

  function tableCard(t, free) {
    const card = h("section", { class: `cl-dash-table cl-dash-phase-${t.phase}`,
      "data-role": "dash-table", "data-table": t.table, "data-phase": t.phase,
      "data-deal": t.deal, "data-actions": t.actions,
      "data-batch": t.batch === null ? "" : t.batch, "data-to-act": t.to_act });
    const project = h("button", { type: "button", class: "cl-dash-btn cl-dash-project",
      "data-role": "project", "data-table": t.table, text: w("project") });
    project.addEventListener("click", () => send({ type: "project", table: t.table }));
    const title = `${w("table", { n: t.table + 1 })} \u00b7 ${t.title} \u00b7 ${w("deal", { n: t.deal })}`;
    card.append(h("header", { class: "cl-dash-table-head" }, [
      h("span", { class: "cl-dash-table-title", "data-role": "table-title", text: title }),
      t.batch === null ? null : h("span", { class: "cl-dash-batch", text: w("same", { n: t.batch }) }),
      project,
    ]));
    let stage = t.stage;
    if (t.to_act_name) stage += ` \u00b7 ${w("to_act", { seat: t.to_act_name })}`;
    if (t.trump) stage += ` \u00b7 ${w("trump")} ${SUIT[t.trump] || t.trump}`;
    card.append(h("div", { class: "cl-dash-stage", "data-role": "table-stage", text: stage }));
    const trick = h("div", { class: "cl-dash-trick", "data-role": "table-trick" });
    for (const c of t.trick) {
      trick.append(h("span", { class: `cl-dash-card${RED.has(c.card.slice(-1)) ? " cl-dash-red" : ""}`,
        "data-card": c.card, "data-seat": c.seat, text: cardText(c.card) }));
    }
    card.append(trick);
    let score = `${w("tricks")}: ${t.teams[0]} ${t.tricks[0]} \u00b7 ${t.teams[1]} ${t.tricks[1]}`;
    if (t.tens) score += ` \u2014 ${w("tens")}: ${t.tens[0]}\u2013${t.tens[1]}`;
    card.append(h("div", { class: "cl-dash-score", "data-role": "table-score", text: score }));
    card.append(h("div", { class: "cl-dash-courts", "data-role": "table-courts",
      text: `${w("courts")}: ${t.teams[0]} ${t.courts[0]} \u00b7 ${t.teams[1]} ${t.courts[1]}` }));
    if (t.result) card.append(h("div", { class: "cl-dash-result", "data-role": "table-result", text: t.result }));
    const seats = h("ul", { class: "cl-dash-seats" });
    for (const s of t.seats) seats.append(seatRow(t, s, free));
    card.append(seats);
    return card;
  }

  // a part that comes a page at a time: "1–24 of 250" between Previous and Next
  function pager(part, p) {
    if (!p || p.pages <= 1) return null;
    const first = p.page * p.size + 1;
    const last = Math.min(p.total, (p.page + 1) * p.size);
    const go = (role, page, enabled) => {
      const b = h("button", { type: "button", class: "cl-dash-btn", "data-role": role,
        text: w(role === "page-prev" ? "previous" : "next") });
      b.disabled = !enabled;
      b.addEventListener("click", () => send({ type: "page", part, page }));
      return b;
    };
    return h("nav", { class: "cl-dash-pager", "data-role": "pager", "data-part": part,
      "data-page": p.page, "data-pages": p.pages, "aria-label": w("shown", { first, last, n: p.total }) }, [
      go("page-prev", p.page - 1, p.page > 0),
      h("span", { text: w("shown", { first, last, n: p.total }) }),
      go("page-next", p.page + 1, p.page < p.pages - 1)]);
  }

  function lobby(st, free) {
    const items = (st.lobby || []).map((lr) => h("li", { class: "cl-dash-seat",
      "data-role": "lobby-learner", "data-learner": lr.learner,
      "data-connected": String(!!lr.connected) }, [
      h("span", { class: "cl-dash-dot", "aria-hidden": "true" }),
      h("span", { class: "cl-dash-name", "data-role": "learner-name", text: lr.name }),
      h("span", { class: "cl-dash-status", text: lr.connected ? w("here") : w("away") }),
      h("span", { class: "cl-dash-actions" }, [moveSelect(lr.learner, free), removeButton(lr.learner)]),
    ]));
    lobbyBox.replaceChildren(...[heading(2, w("lobby")), pager("lobby", st.lobby_page),
      items.length ? h("ul", { class: "cl-dash-seats" }, items)
        : h("p", { class: "cl-dash-none", text: w("nobody") })].filter(Boolean));
  }

  function compare(st) {
    const c = st.compare;
    if (!c) { compareBox.replaceChildren(); return; }
    const rows = c.rows.map((r) => h("tr", { "data-role": "compare-row", "data-table": r.table,
      "data-phase": r.phase }, [
      h("td", { text: w("table", { n: r.table + 1 }) }),
      h("td", { text: r.players.map((p) => (p === null ? w("empty") : p)).join(", ") }),
      h("td", { text: r.result || w("playing") }),
      h("td", { text: `${r.tricks[0]}\u2013${r.tricks[1]}${r.tens ? ` (${w("tens")} ${r.tens[0]}\u2013${r.tens[1]})` : ""}` }),
    ]));
    compareBox.replaceChildren(heading(2, `${w("compare")} (${w("same", { n: c.batch })})`),
      h("table", { class: "cl-dash-compare", "data-role": "compare", "data-batch": c.batch },
        [h("tbody", {}, rows)]));
  }

  // ---------- the results from the learners' notebooks
  const CELL = { first: "\u2713", solved: "\u2713", trying: "\u2717" };

  function results(st) {
    const r = st.results || { items: [], learners: [], hardest: [], count: 0 };
    resultsBox.dataset.count = String(r.count || 0);
    const head = heading(2, w("results"));
    if (!r.count) {
      resultsBox.replaceChildren(head, h("p", { class: "cl-dash-none", text: w("no_results") }));
      return;
    }
    const hard = h("ul", { class: "cl-dash-hardest", "data-role": "hardest" },
      (r.hardest || []).map((x) => h("li", { "data-role": "hard-item", "data-item": x.key,
        "data-wrong": x.wrong, "data-tried": x.tried },
      [h("span", { class: "cl-dash-hard-number", "data-role": "hard-number", text: String(x.number ?? "") }),
        " \u00b7 ", h("span", { class: "cl-dash-hard-title", text: x.title }), " ", h("span", {
        class: "cl-dash-hard-share", text: w("wrong_share", { wrong: x.wrong, tried: x.tried }) })])));
    const cols = [h("th", { scope: "col", text: w("learner") }), h("th", { scope: "col", text: w("now_at") })];
    r.items.forEach((it, i) => cols.push(h("th", { scope: "col", class: "cl-dash-item",
      "data-item": it.key, title: it.title, text: String(it.number ?? i + 1) })));
    const rows = r.learners.map((lr) => {
      let now = lr.current_title || "";
      if (lr.current) now += ` \u00b7 ${lr.solved_now ? w("solved") : w("tries", { n: lr.tries_now })}`;
      const stuck = lr.stuck === "tries" ? w("stuck_tries", { n: lr.tries_now })
        : lr.stuck === "idle" ? w("stuck_idle", { n: r.idle_minutes }) : "";
      const tr = h("tr", { class: "cl-dash-results-row", "data-role": "results-row",
        "data-learner": lr.learner, "data-stuck": lr.stuck || "" }, [
        h("th", { scope: "row", class: "cl-dash-name", "data-role": "learner-name", text: lr.name }),
        h("td", { class: "cl-dash-now" }, [h("span", { "data-role": "now-at", text: now }),
          stuck ? h("span", { class: "cl-dash-stuck", "data-role": "stuck", text: stuck }) : null]),
      ]);
      for (const it of r.items) {
        const c = lr.cells[it.key];
        tr.append(h("td", { class: "cl-dash-cell", "data-role": "results-cell", "data-item": it.key,
          "data-state": c ? c.state : "", "data-tries": c ? c.tries : 0, title: it.title,
          text: c ? `${CELL[c.state]}${c.state === "first" ? "" : c.tries}` : "" }));
      }
      return tr;
    });
    const parts = [head];
    if ((r.hardest || []).length) parts.push(heading(3, w("hardest")), hard);
    resultsBox.replaceChildren(...parts, ...[pager("results", r.pages > 1 ? r : null)].filter(Boolean),
      h("div", { class: "cl-dash-grid-box" }, [h("table", { class: "cl-dash-grid",
        "data-role": "results-grid" }, [h("thead", {}, [h("tr", {}, cols)]), h("tbody", {}, rows)])]));
  }

  function download(text, filename) {
    const blob = new Blob([text], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: filename || "results.csv", hidden: "hidden" });
    root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000);   // the download has its copy by then
    root.dataset.csvBytes = String(text.length);
  }

  function busy() {
    const a = root.ownerDocument && root.ownerDocument.activeElement;
    return !!a && root.contains(a) && (a.tagName === "SELECT" || a.tagName === "INPUT") && a !== seed;
  }

  function draw() {
    const st = model.get("state") || {};
    if (!st.tables) return;
    if (busy()) { deferred = true; return; }     // the teacher is choosing: draw after
    deferred = false;
    WORDS = st.words || {};
    root.dataset.rev = String(st.rev ?? -1);
    root.dataset.paused = st.paused ? "true" : "false";
    root.setAttribute("lang", st.lang || "en");
    root.setAttribute("dir", st.dir || "ltr");
    codeLabel.textContent = `${w("code")}:`;
    code.textContent = st.code || "";
    addresses.replaceChildren(...(st.addresses || []).map((a) => h("span", {
      class: "cl-dash-address", "data-role": "join-address", text: a })));
    pausedBadge.textContent = st.paused ? w("paused") : "";
    pauseAll.textContent = w("pause_all");
    resumeAll.textContent = w("resume_all");
    pauseAll.disabled = !!st.paused;
    resumeAll.disabled = !st.paused;
    newDeal.textContent = w("new_deal_all");
    seedLabel.textContent = w("seed");
    seed.setAttribute("aria-label", w("seed"));
    sameDeal.textContent = w("same_deal");
    addTable.textContent = w("add_table");
    hideNames.textContent = w("hide_names");
    hideNames.dataset.on = st.hide_names ? "true" : "false";
    hideNames.setAttribute("aria-pressed", st.hide_names ? "true" : "false");
    csv.textContent = w("csv");
    const free = freeSeats(st);
    const known = new Set();
    tablesBox.replaceChildren(...[pager("tables", st.table_page)].filter(Boolean),
      ...st.tables.map((t) => {
        for (const s of t.seats) if (s.learner !== null) known.add(s.learner);
        return tableCard(t, free);
      }));
    for (const lr of st.lobby || []) known.add(lr.learner);
    if (armed !== null && !known.has(armed)) armed = null;
    lobby(st, free);
    compare(st);
    results(st);
  }

  function onCustom(msg) {
    if (!msg || typeof msg.reply_to !== "number") return;
    root.dataset.reply = msg.ok ? "accepted" : "refused";
    say(msg.ok ? w("done") : String(msg.reason || ""), msg.ok ? "info" : "error");
    if (msg.ok && typeof msg.csv === "string") download(msg.csv, String(msg.filename || ""));
  }
  function onBlur() { if (deferred) setTimeout(() => { if (deferred && !busy()) draw(); }, 0); }

  root.addEventListener("focusout", onBlur);
  model.on("change:state", draw);
  model.on("msg:custom", onCustom);
  draw();
  return () => {
    model.off("change:state", draw);
    model.off("msg:custom", onCustom);
    root.removeEventListener("focusout", onBlur);
  };
}

export default { render };
