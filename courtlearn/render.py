"""Static pictures of deals, hands and tricks: plain HTML with inline styles.

Used where no kernel runs (GitHub, nbviewer, a PDF export) and as the saved
fallback of the live table: ``Deal._repr_html_`` delegates to :func:`deal_html`.
No script, no stylesheet, every text escaped; the same picture every run.

>>> import courtlearn as cl
>>> html = cards_html(cl.cards("AS 10H"))
>>> html.startswith('<div style="display:inline-flex;gap:2px;'), 'data-card="10H"' in html
(True, True)
"""
from __future__ import annotations

from html import escape

from .cards import Card, cards as parse_cards, quoted
from .language import card_words, get_language, suit_word, text_direction, tr, trn
from .rules import Rules, check_seat

__all__ = ["deal_html", "cards_html", "trick_html", "card_html", "back_html", "positions"]

RED, BLACK = "#c0262d", "#1c1c1c"
FELT, ON_FELT = "#1d6b45", "#f4f7f2"

CARD_BOX = ("display:inline-flex;flex-direction:column;justify-content:space-between;"
            "width:{w}px;height:{h}px;border-radius:5px;padding:2px 4px;box-sizing:border-box;"
            "font:bold {f}px sans-serif;line-height:1;box-shadow:0 1px 2px rgba(0,0,0,.4);")


def title_html(text: str) -> str:
    """A title inside an output (a question's, a puzzle's, a quiz's): bold text, not an
    ``<h4>``. JupyterLab's table of contents lists every heading of every output and, on
    a notebook reopened with its outputs not yet drawn, throws reading the output that is
    not there ("Cannot read properties of undefined (reading 'node')"); a lesson's
    contents are its own headings, not its questions'.

    >>> title_html("Trick winner <1>")
    '<p class="courtlearn-title" style="font-size:1.15em;margin:0.5em 0"><b>Trick winner &lt;1&gt;</b></p>'
    """
    return (f'<p class="courtlearn-title" style="font-size:1.15em;margin:0.5em 0">'
            f"<b>{escape(text)}</b></p>")


def card_html(card, seat=None, small=False) -> str:
    """One face-up card: rank above its suit pip, red or black (names from Card and Suit)."""
    card = Card.parse(card)
    rank = card.code[:-1]
    w, h, f = (34, 48, 13) if small else (40, 56, 15)
    colour = RED if card.suit.red else BLACK
    seat_attr = f' data-seat="{check_seat(seat)}"' if seat is not None else ""
    return (f'<span data-card="{escape(card.code)}"{seat_attr} aria-label="{escape(card_words(card))}" '
            f'role="img" style="{CARD_BOX.format(w=w, h=h, f=f)}background:#fffdf6;'
            f'border:1px solid #9a9a90;color:{colour};"><span>{escape(rank)}</span>'
            f'<span style="align-self:flex-end;font-size:{f + 6}px">{card.suit.symbol}</span></span>')


def back_html(seat=None, small=False) -> str:
    """One face-down card: no identity, only its seat."""
    w, h = (34, 48) if small else (40, 56)
    seat_attr = f' data-seat="{check_seat(seat)}"' if seat is not None else ""
    label = escape(tr("face-down card"))
    return (f'<span data-facedown=""{seat_attr} aria-label="{label}" '
            f'role="img" '
            f'style="{CARD_BOX.format(w=w, h=h, f=12)}border:2px solid #f2f2f2;'
            f'background-color:#2d5cb4;background-image:repeating-linear-gradient(45deg,#244f9e 0 5px,#3566c2 5px 10px);"></span>')


def cards_html(cards, seat=None) -> str:
    """A row of face-up cards (a hand, in the order given)."""
    inner = "".join(card_html(c, seat) for c in parse_cards(cards))
    return f'<div style="display:inline-flex;gap:2px;flex-wrap:wrap">{inner}</div>'


def positions(rules: Rules, viewer: int) -> list[str]:
    """Where each seat sits on the screen: the viewer at the bottom, play passing to the
    right (anticlockwise) or to the left (clockwise). The live table uses the same.

    >>> positions(Rules.court_piece(), 0)
    ['bottom', 'right', 'top', 'left']
    """
    return list(_POSITIONS[rules.direction == "clockwise"][viewer % 4])


# (anticlockwise, clockwise) x viewer: where each seat sits (four pictures a move at a
# class table ask)
_POSITIONS = tuple(
    tuple(tuple(ring[(s - viewer) % 4] for s in range(4)) for viewer in range(4))
    for ring in (("bottom", "right", "top", "left"), ("bottom", "left", "top", "right")))


def trick_html(trick, rules: Rules | None = None, viewer: int = 0) -> str:
    """The cards of one trick, each at its player's side."""
    rules = rules or Rules.court_piece()
    pos = positions(rules, viewer)
    names = rules.seat_names()
    slot = {p: "" for p in ("top", "left", "right", "bottom")}
    for seat, card in trick.cards:
        slot[pos[seat]] = (f'<div style="display:flex;flex-direction:column;align-items:center;'
                           f'font:11px sans-serif;color:{ON_FELT}">{card_html(card, seat)}'
                           f'<span>{escape(names[seat])}</span></div>')
    cell = "display:flex;justify-content:center;align-items:center;min-width:48px;min-height:30px"

    def at(p):
        return f'<div data-pos="{p}" style="{cell}">{slot[p]}</div>'

    return (f'<div data-role="trick" data-count="{len(trick.cards)}" style="display:grid;'
            f'grid-template-columns:repeat(3,auto);gap:2px;justify-content:center;align-items:center">'
            f'<div></div>{at("top")}<div></div>{at("left")}<div style="{cell}"></div>{at("right")}'
            f'<div></div>{at("bottom")}<div></div></div>')


def stage_words(view) -> str:
    """Where a deal stands, in the language: "trick 4 of 13", "fixing the trump", "deal over"
    (the picture's header and the live table's title say it alike)."""
    phase = str(view.phase)
    if phase == "play":
        return tr("trick {n} of 13", n=len(view.tricks) + 1)
    if phase == "trump":
        return tr("fixing the trump")
    return tr("deal over")


def deal_html(deal, seat=None, show_all=False) -> str:
    """The whole table as a static picture.

    seat None: the teacher's view, every hand face up, South at the bottom.
    seat n: what that seat sees (its hand face up, the others face down unless
    ``show_all``), that seat at the bottom.
    """
    from .deal import Deal
    if not isinstance(deal, Deal):
        raise TypeError(tr("deal_html() draws a Deal (like cl.Deal(cl.Rules.court_piece(), "
                           "seed=1)), got {deal!r}.", deal=quoted(deal)))
    rules = deal.rules
    viewer = 0 if seat is None else check_seat(seat)
    everything = seat is None or show_all
    v = deal.view(viewer)
    names = rules.seat_names()
    teams = (rules.team_name(0), rules.team_name(1))
    pos = positions(rules, viewer)
    phase = str(deal.phase)
    to_act = deal.actor

    def seat_block(s):
        hand = deal.hand(s) if (everything or s == viewer) else None
        count = len(deal.hand(s))
        marks = []
        if s == deal.dealer:
            marks.append(tr("dealer"))
        if s == deal.trump_caller:
            marks.append(tr("trump caller"))
        if s == to_act:
            marks.append(tr("to play") if phase == "play" else tr("to call"))
        head = (f'<div style="font:bold 13px sans-serif;color:{ON_FELT};margin:2px 0">{escape(names[s])}'
                + (f' <span style="font-weight:normal;opacity:.85">({escape(", ".join(marks))})</span>'
                   if marks else "") + "</div>")
        if hand is not None:
            cards = "".join(card_html(c, s, small=True) for c in hand)
        else:
            cards = "".join(back_html(s, small=True) for _ in range(count))
        width = 460 if pos[s] in ("top", "bottom") else 250
        body = (f'<div style="display:flex;flex-wrap:wrap;gap:1px;max-width:{width}px;'
                f'justify-content:center">{cards}</div>')
        return (f'<div data-role="seat" data-seat="{s}" style="display:flex;flex-direction:column;'
                f'align-items:center;padding:2px">{head}{body}</div>')

    by_pos = {pos[s]: seat_block(s) for s in range(4)}
    trick = trick_html(v.trick, rules, viewer)
    centre_html = ""
    pile = trn("centre pile: {n} trick", "centre pile: {n} tricks", len(v.centre))
    if rules.has_pile:
        centre_html = (f'<div data-role="centre" data-count="{len(v.centre)}" style="font:12px sans-serif;'
                       f'color:{ON_FELT};text-align:center;margin-top:4px">'
                       f'{escape(pile)}</div>')
    won = v.tricks_won
    piles = (f'<div style="font:12px sans-serif;color:{ON_FELT};text-align:center;margin-top:4px">'
             f'{escape(teams[0])}: {won[0]} \u00b7 {escape(teams[1])}: {won[1]}</div>')

    trump = v.trump
    if trump is not None:
        colour = RED if trump.red else BLACK
        trump_text = (f'<span style="background:#fffdf6;color:{colour};border-radius:4px;padding:0 5px">'
                      f'{trump.symbol} {escape(suit_word(trump))}</span>')
    elif phase == "trump":
        trump_text = escape(tr("not chosen yet"))
    else:
        trump_text = escape(tr("none yet"))
    where = stage_words(v)
    trump_label = tr("trump:")
    header = (f'<div style="font:bold 14px sans-serif;margin-bottom:6px;color:{ON_FELT}">'
              f'{escape(rules.title)} \u00b7 {escape(where)} \u00b7 '
              f'{escape(trump_label)} {trump_text}</div>')
    events = list(v.events)
    message = ""
    if events:
        message = (f'<div data-role="message" style="font:13px sans-serif;color:{ON_FELT};'
                   f'margin-top:6px">{escape(events[-1].text)}</div>')
    cell = "display:flex;justify-content:center;align-items:center"
    grid = (f'<div style="display:grid;grid-template-columns:auto auto auto;gap:6px;align-items:center">'
            f'<div></div><div style="{cell}">{by_pos["top"]}</div><div></div>'
            f'<div style="{cell}">{by_pos["left"]}</div>'
            f'<div style="{cell};flex-direction:column;min-width:170px;min-height:150px">{trick}{centre_html}{piles}</div>'
            f'<div style="{cell}">{by_pos["right"]}</div>'
            f'<div></div><div style="{cell}">{by_pos["bottom"]}</div><div></div></div>')
    lang = get_language()             # (English pictures carry no attributes: as before)
    speech = "" if lang == "en" else f'lang="{lang}" dir="{text_direction(lang)}" '
    return (f'<div class="courtlearn-deal" {speech}'
            f'style="display:inline-block;background:{FELT};border-radius:12px;'
            f'padding:10px;max-width:880px">{header}{grid}{message}</div>')
