"""Play a list of cards and read what the engine says: the one helper every lesson uses.

>>> import courtlearn as cl
>>> deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=[
...     "AS KS QS JS 2C 5D 6D 7D 8D 10S 9S 8S 7S", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C KD",
...     "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", "AD QD JD 10D 9D 4D 3D 2D 6S 5S 4S 3S 2S"],
...     dealer=3)
>>> _ = deal.call_trump("S")
>>> cl.play_cards(deal, "2C AC 2H 2S")
South leads 2♣.
East follows with A♣.
North does not follow clubs and throws 2♥.
West does not follow clubs and trumps with 2♠.
West wins the trick: 2♠ is the highest trump.
>>> cl.play_cards(deal, "2D 5D KD AH", brief=True, summary=True)
East wins the trick: K♦ is the highest diamond.
   [tricks: North–South 0 · East–West 2]
"""
from __future__ import annotations

from .cards import cards as parse_cards, quoted
from .language import tr

__all__ = ["play_cards"]


def play_cards(deal, cards, *, brief: bool = False, summary: bool = False) -> None:
    """Play ``cards`` in turn, each for whoever is to play, and print the engine's sentence
    for everything that happens (the cards, tricks, piles, the end of the deal).

    ``cards``: text like ``"AS KS 3H"`` or a list of cards. ``brief``: leave out the
    sentences of single cards (the tricks and what follows them stay). ``summary``: then
    print one line of where things stand: the tricks in each side's pile (Court Piece),
    with the centre pile (Double Sir), or the tens (Dehla Pakad).

    A card the rules refuse raises the engine's :class:`~courtlearn.IllegalPlay`, with the
    cards before it played and printed, and nothing of it. Returns nothing: it prints
    (each action of the deal also returns its events).
    """
    from .deal import Deal
    if not isinstance(deal, Deal):
        raise TypeError(tr("play_cards() plays in a Deal (like cl.Deal(cl.Rules.court_piece(), "
                           "seed=1)), got {deal!r}.", deal=quoted(deal)))
    for card in parse_cards(cards):
        for event in deal.play(card):
            if not (brief and event.kind == "play"):
                print(event.text)
    if summary:
        print(where_things_stand(deal))


def where_things_stand(deal) -> str:
    """One line: each side's tricks; the centre pile in Double Sir; the tens in Dehla Pakad."""
    rules = deal.rules
    ns, ew = (rules.team_name(t) for t in (0, 1))
    if rules.game == "dehla_pakad":
        centre = [str(card) for trick in deal.centre for _, card in trick.cards if card.rank == 10]
        a, b = deal.tens_won
        return "   [" + tr("tens in the centre: {tens} · tens taken: {ns} {a}, {ew} {b}",
                            tens=" ".join(centre) or tr("none"), ns=ns, a=a, ew=ew, b=b) + "]"
    a, b = deal.tricks_won
    if rules.game == "double_sir":
        return "   [" + tr("centre pile: {n} · {ns}: {a} · {ew}: {b}", n=len(deal.centre), ns=ns,
                            a=a, ew=ew, b=b) + "]"
    return "   [" + tr("tricks: {ns} {a} · {ew} {b}", ns=ns, a=a, ew=ew, b=b) + "]"
