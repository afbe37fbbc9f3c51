"""What a learner can see and touch on the card table, measured in the browser.

Each check takes a Playwright locator of the table (`.cl-table`; locators reach into the
shadow root marimo draws widgets in) and asks the browser itself: which element lies under
a point (elementFromPoint of the table's own document or shadow root), where boxes are, how
far anything was scrolled sideways. Nothing here trusts the stylesheet's intentions.

    for code in clickable_hand(page, table, seat=0):   # every card found and clicked
        ...
    assert not covered_glyphs(table), ...
    assert not outside_the_table(table), ...
"""
from __future__ import annotations

# scroll `el` to the middle of the window (vertically only when nothing is clipped sideways)
# and say which boxes then sit scrolled sideways: a card reached only by scrolling a clipped
# box sideways cannot be reached by the learner
_SCROLL = """
const scrollToEl = (el) => {
  el.scrollIntoView({block: "center", inline: "nearest"});
  const sideways = [];
  for (let a = el.parentElement; a; a = a.parentElement || (a.getRootNode().host || null)) {
    if (Math.abs(a.scrollLeft) > 0.5) sideways.push(`${a.tagName.toLowerCase()}.${[...a.classList].join(".")} by ${a.scrollLeft}px`);
  }
  const doc = document.scrollingElement;
  if (Math.abs(doc.scrollLeft) > 0.5) sideways.push(`the page by ${doc.scrollLeft}px`);
  return sideways;
};
const hitCard = (node, x, y) => {
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  const hit = node.elementFromPoint(x, y);
  return hit ? hit.closest("[data-card]") : null;
};
"""

_FIND = _SCROLL + """
const [seat, index] = args;
const cards = [...table.querySelectorAll(`[data-role=hand] [data-card][data-seat="${seat}"]`)];
const card = cards[index];
if (!card) return {count: cards.length};
const sideways = scrollToEl(card);
const node = table.getRootNode();
const r = card.getBoundingClientRect();
// the first point of the card (from its top-left corner) that nothing covers, inside the window
let point = null, uncovered = 0;
for (let y = r.top + 2; y < r.bottom - 1; y += 3) {
  for (let x = r.left + 2; x < r.right - 1; x += 3) {
    if (hitCard(node, x, y) === card) { uncovered += 1; if (!point) point = [x, y]; }
  }
}
return {count: cards.length, card: card.dataset.card, point, uncovered, sideways};
"""

_GLYPHS = _SCROLL + """
const node = table.getRootNode();
const problems = [];
const boxes = [];
for (const card of table.querySelectorAll("[data-card]")) {
  const side = !!card.closest(".cl-hand-side");
  for (const part of card.querySelectorAll(".cl-rank, .cl-cpip")) {
    const sideways = scrollToEl(part);
    if (sideways.length) problems.push(`${card.dataset.card}: scrolled sideways: ${sideways}`);
    const r = part.getBoundingClientRect();
    boxes.push([card, r]);
    const what = part.classList.contains("cl-rank") ? "rank" : "suit";
    // the glyph's middle and both ends (a "10" half covered reads as "1"); for a card in a
    // side column, its box's inner corners too
    const pts = [[0.5, 0.5], [0.15, 0.5], [0.85, 0.5]];
    if (side) pts.push([0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]);
    for (const [fx, fy] of pts) {
      const x = r.left + fx * r.width, y = r.top + fy * r.height;
      const hit = hitCard(node, x, y);
      if (hit !== card) {
        problems.push(`${card.dataset.card} (seat ${card.dataset.seat}): its ${what} at ` +
          `(${Math.round(x)}, ${Math.round(y)}) is under ${hit ? hit.dataset.card || "a card" : "something else or outside the window"}`);
        break;
      }
    }
  }
}
// marks that let clicks through (pointer-events: none) must not hide a rank or a suit either
const cross = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
for (const mark of table.querySelectorAll(".cl-dd")) {
  const m = mark.getBoundingClientRect();
  for (const [card, r] of boxes) {
    if (cross(m, r)) problems.push(`the mark ${mark.textContent} of ${mark.closest("[data-card]").dataset.card} covers the rank or suit of ${card.dataset.card}`);
  }
}
return problems;
"""

_INSIDE = """
const box = table.getBoundingClientRect();
const problems = [];
const name = (el) => el.dataset.card || el.dataset.role || el.textContent.trim().slice(0, 20) || el.className;
if (box.left < -0.5 || box.right > innerWidth + 0.5) problems.push(`the table (${Math.round(box.left)}..${Math.round(box.right)}) is wider than the window (${innerWidth})`);
const sel = ".cl-card, .cl-seat, .cl-pile, .cl-centre-pile, .cl-message, .cl-btn, .cl-marker, .cl-dd, .cl-best-play, .cl-title, .cl-trump, .cl-score, .cl-result";
for (const el of table.querySelectorAll(sel)) {
  const r = el.getBoundingClientRect();
  if (!r.width) continue;
  if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
    problems.push(`${name(el)} (${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}) is outside the table (${Math.round(box.left)}..${Math.round(box.right)} x ${Math.round(box.top)}..${Math.round(box.bottom)})`);
  }
}
// words are not cut off: buttons, labels and markers show all of their text
for (const el of table.querySelectorAll(".cl-btn, .cl-marker, .cl-seat-name, .cl-pile-name, .cl-pile-count, .cl-best-play, .cl-title")) {
  if (el.clientWidth && el.scrollWidth > el.clientWidth + 1) problems.push(`"${el.textContent}" is cut off (${el.scrollWidth}px in ${el.clientWidth}px)`);
}
// the trick and the centre pile do not lie over each other
const centre = table.querySelector("[data-role=centre]");
if (centre) {
  const c = centre.getBoundingClientRect();
  for (const card of table.querySelectorAll("[data-role=trick] [data-card], [data-role=last-trick] [data-card]")) {
    const r = card.getBoundingClientRect();
    if (c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom) problems.push(`the centre pile lies over ${card.dataset.card} of the trick`);
  }
}
return problems;
"""


def _run(table, body: str, args=None):
    return table.evaluate(f"(table, args) => {{ {body} }}", args)


def record_clicks(table, *, block: bool) -> None:
    """Note the card under every click in the table's document (or shadow root) as
    `window.clickedCard`; with `block`, the click then stops there (the table never hears it)."""
    table.evaluate("""(table, block) => {
        window.clickedCard = undefined;
        if (window.__clRecorder) window.__clRecorder.node.removeEventListener("click", window.__clRecorder.f, true);
        const node = table.getRootNode();
        const f = (ev) => {
            const card = ev.target.closest && ev.target.closest("[data-card]");
            window.clickedCard = card ? card.dataset.card : null;
            if (block) { ev.stopPropagation(); ev.preventDefault(); }
        };
        node.addEventListener("click", f, true);
        window.__clRecorder = {node, f};
    }""", block)


def clickable_hand(page, table, seat: int, *, after_click=None) -> list[str]:
    """Find, for each card of `seat`'s hand in turn, a point nothing covers inside the window
    (scrolling the page up or down only), click it, and check that the click reached that
    card. Returns the cards clicked, in order; raises AssertionError naming the first card
    that cannot be reached. `after_click(code)` runs after each click (e.g. to check the
    table's own reaction); record_clicks() must have been called."""
    clicked = []
    index = 0
    while True:
        found = _run(table, _FIND, [seat, index])
        if "card" not in found:
            assert index == found["count"], found
            return clicked
        code = found["card"]
        assert not found["sideways"], f"{code}: reached only by scrolling sideways: {found['sideways']}"
        assert found["point"], f"{code} of seat {seat}: no part of it lies uncovered inside the window"
        x, y = found["point"]
        page.evaluate("() => { window.clickedCard = undefined; }")
        page.mouse.click(x, y)
        got = page.evaluate("() => window.clickedCard")
        assert got == code, f"a click at ({x:.0f}, {y:.0f}) on {code}'s visible part reached {got!r}"
        if after_click is not None:
            after_click(code)
        clicked.append(code)
        index += 1


def covered_glyphs(table) -> list[str]:
    """Every face-up card's rank and suit that something covers (or that lies outside the
    window even when scrolled to): the glyph's middle and both ends, and for cards in the
    side columns its box's inner corners."""
    return _run(table, _GLYPHS)


def outside_the_table(table) -> list[str]:
    """Parts of the table drawn outside its own box or the window, words cut off, and the
    centre pile lying over the trick."""
    return _run(table, _INSIDE)
