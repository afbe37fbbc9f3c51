"""Court Piece through DDS, Bo Haglund's double-dummy solver, by way of endplay.

Court Piece counts tricks with a trump suit, exactly as a bridge deal does, so
DDS solves its positions; ``pip install courtlearn[analysis]`` installs endplay.
:func:`courtlearn.solve` uses it for large Court Piece positions when it is there,
and the tests compare the two solvers on random positions.

Seats map onto bridge's players in the order of play (seat 0 as North, 1 as East,
2 as South, 3 as West): partners stay partners and the turn goes round the same way.

DDS takes a Court Piece position in play once its trump is public. It cannot take a
``first_void`` deal whose trump nobody has fixed yet: the first player who cannot
follow suit fixes it mid-deal, which no bridge deal does (and such a deal never stays
without a trump to the end: with every hand following, each suit's lengths keep their
differences, and 13 cards of a suit never split evenly four ways, so somebody runs out).
A revoke in the open trick (``revokes="allowed"``) is just a card played: DDS takes it.
"""
from __future__ import annotations

from .cards import Card
from .language import tr

__all__ = ["available", "can_take", "refusal", "solve_with_endplay"]

_PLAYERS = ("north", "east", "south", "west")


def available() -> bool:
    """Whether endplay (and so DDS) can be imported."""
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return False
    return True


def refusal(deal) -> "str | None":
    """Why DDS cannot take ``deal`` as it stands (a sentence), or None if it can
    (whether endplay is installed is :func:`available`'s question).

    >>> import courtlearn as cl
    >>> refusal(cl.Deal(cl.Rules.court_piece(trump_method="first_void"), dealer=0, seed=1))
    'DDS needs the trump: in this deal the first player who cannot follow suit fixes it, and nobody has yet.'
    """
    if deal.rules.game != "court_piece":
        return tr("DDS counts tricks only: it solves Court Piece, not {game}.",
                  game=deal.rules.title)
    if deal.phase != "play":
        return tr("DDS needs a Court Piece deal in its play phase.")
    if deal.hidden_trump_card is not None:
        return tr("DDS needs the trump: it is still face down.")
    if deal.trump is None:
        return tr("DDS needs the trump: in this deal the first player who cannot follow "
                  "suit fixes it, and nobody has yet.")
    return None


def can_take(deal) -> bool:
    """Whether DDS can solve ``deal``'s position (see :func:`refusal`)."""
    return refusal(deal) is None


def solve_with_endplay(deal) -> dict:
    """{card: the mover's team's tricks at the end of the deal} for every lawful card of
    the player to move in a Court Piece deal's play phase (ImportError without endplay,
    ValueError where :func:`refusal` gives a reason).
    """
    reason = refusal(deal)
    if reason is not None:
        raise ValueError(reason)
    from endplay.dds import solve_board
    from endplay.types import Card as EPCard, Deal as EPDeal, Denom, Player

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
