"""The static picture (courtlearn.render): what GitHub, nbviewer and a PDF show."""
import re

import courtlearn as cl
from courtlearn import render

HANDS = [
    "AS KS QS JS 2C  5D 6D 7D 8D  10S 9S 8S 7S",
    "AC KC QC JC 10C  9C 8C 7C 6C  5C 4C 3C KD",
    "AH KH QH JH 10H  9H 8H 7H 6H  5H 4H 3H 2H",
    "AD QD JD 10D 9D  4D 3D 2D 6S  5S 4S 3S 2S",
]


def deal(rules=None):
    d = cl.Deal.prearranged(rules or cl.Rules.court_piece(), hands=HANDS, dealer=3)
    d.call_trump("S")
    for card in ("2C", "AC", "2H", "2D", "KD"):
        d.play(card)
    return d


def cards_shown(html):
    return re.findall(r'data-card="([^"]+)"', html)


def test_teachers_view_shows_every_card_once():
    d = deal()
    html = render.deal_html(d)
    shown = cards_shown(html)
    held = [c.code for s in range(4) for c in d.hand(s)]
    played = [c.code for t in d.tricks for _, c in t.cards]
    assert sorted(shown) == sorted(held + ["KD"])          # hands and the open trick; old tricks are piles
    assert not set(played) & set(shown)
    assert 'data-facedown' not in html
    assert "trump: " in html and "\u2660 spades" in html


def test_a_seats_view_hides_the_other_hands():
    d = deal()
    html = render.deal_html(d, seat=0)
    assert sorted(cards_shown(html)) == sorted([c.code for c in d.hand(0)] + ["KD"])
    assert html.count("data-facedown") == sum(len(d.hand(s)) for s in (1, 2, 3))
    assert sorted(cards_shown(render.deal_html(d, seat=0, show_all=True))) == sorted(cards_shown(render.deal_html(d)))


def test_picture_is_deterministic_and_script_free():
    a, b = render.deal_html(deal()), render.deal_html(deal())
    assert a == b
    assert "<script" not in a and "<style" not in a and "on" + "error" not in a
    assert d_repr_html_matches()


def d_repr_html_matches():
    d = deal()
    return d._repr_html_() == render.deal_html(d)


def test_cards_look_like_cards():
    red = render.card_html(cl.Card.parse("10H"))
    black = render.card_html(cl.Card.parse("AS"))
    assert 'aria-label="10 of hearts"' in red and render.RED in red and ">10<" in red and "\u2665" in red
    assert 'aria-label="ace of spades"' in black and render.BLACK in black
    row = render.cards_html(cl.cards("AS KS 10H"))
    assert cards_shown(row) == ["AS", "KS", "10H"]


def test_trick_cards_sit_at_their_players_side():
    d = deal()
    html = render.trick_html(d.trick, d.rules, viewer=0)      # East (seat 1) led KD
    assert 'data-role="trick" data-count="1"' in html
    assert re.search(r'data-pos="right"[^>]*><div[^>]*><span data-card="KD" data-seat="1"', html)
    # with North as the viewer, East sits on North's left
    left = render.trick_html(d.trick, d.rules, viewer=2)
    assert re.search(r'data-pos="left"[^>]*><div[^>]*><span data-card="KD" data-seat="1"', left)


def test_double_sir_centre_pile_count():
    d = cl.Deal.prearranged(cl.Rules.double_sir(), hands=HANDS, dealer=3)
    d.call_trump("S")
    for card in ("2C", "AC", "2H", "2D"):
        d.play(card)
    html = render.deal_html(d, seat=0)
    assert f'data-role="centre" data-count="{len(d.centre)}"' in html
    assert len(d.centre) == 1
    assert 'data-role="centre"' not in render.deal_html(deal())   # Court Piece has no centre pile
