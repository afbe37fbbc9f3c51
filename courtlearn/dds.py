"""Court Piece through DDS, Bo Haglund's double-dummy solver, by way of endplay.

Court Piece counts tricks with a trump suit, exactly as a bridge deal does, so
DDS solves its positions; ``pip install courtlearn[analysis]`` installs endplay.
:func:`courtlearn.solve` uses it for large Court Piece positions when it is there,
and the tests compare the two solvers on random positions.

Seats map onto bridge's players in the order of play (seat 0 as North, 1 as East,
2 as South, 3 as West): partners stay partners and the turn goes round the same way.
"""
from __future__ import annotations

from .cards import Card

__all__ = ["available", "solve_with_endplay"]

_PLAYERS = ("north", "east", "south", "west")


def available() -> bool:
    """Whether endplay (and so DDS) can be imported."""
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return False
    return True


def solve_with_endplay(deal) -> dict:
    """{card: the mover's team's tricks at the end of the deal} for every lawful card of
    the player to move in a Court Piece deal's play phase (ImportError without endplay).
    """
    from endplay.dds import solve_board
    from endplay.types import Card as EPCard, Deal as EPDeal, Denom, Player

    if deal.rules.game != "court_piece":
        raise ValueError("DDS counts tricks only: it solves Court Piece, not "
                         f"{deal.rules.game}.")
    if deal.phase != "play" or deal.trump is None:
        raise ValueError("DDS needs a Court Piece deal in play with its trump public.")
    ep = EPDeal()
    leader = deal._leader
    trick = list(deal._trick)
    hands = [list(deal.hand(seat)) for seat in range(4)]
    for i, card in enumerate(trick):          # the open trick's cards go back to their hands
        hands[(leader + i) & 3].append(card)
    for seat in range(4):
        hand = getattr(ep, _PLAYERS[seat])
        for card in hands[seat]:
            hand.add(EPCard(_code(card)))
    ep.first = Player[_PLAYERS[leader]]
    ep.trump = Denom[deal.trump.plural]
    for card in trick:
        ep.play(EPCard(_code(card)))
    seat = deal.to_play
    owned = deal.tricks_won[seat & 1]
    out = {}
    for ep_card, tricks in solve_board(ep):
        out[_from_endplay(ep_card)] = owned + tricks
    return out


def _code(card: Card) -> str:
    """endplay's card text: suit letter then rank, T for ten ("ST", "HA")."""
    rank = "T" if card.rank == 10 else card.code[:-1]
    return card.suit.letter + rank


def _from_endplay(ep_card) -> Card:
    """endplay's card (suit Denom.spades.., rank Rank.RA..) as courtlearn's."""
    rank = ep_card.rank.name[1:]                       # "RA" -> "A", "RT" -> "T"
    return Card.parse(("10" if rank == "T" else rank) + ep_card.suit.name[0].upper())
