"""Build lessons 07-12 of courtlearn (notebooks/07_... to 12_...).

    .venv/bin/python scripts/lessons_b.py            # write and execute all six
    .venv/bin/python scripts/lessons_b.py 07 09      # only these
    .venv/bin/python scripts/lessons_b.py --no-run   # write only, do not execute

Every lesson is written here as a list of cells, then executed in place with
``jupyter nbconvert --execute --inplace`` so the committed notebooks carry
their outputs (nbval compares them).

The prearranged deals are *designed as scripts of tricks*: each trick is
written as its leader and the four cards in play order ("S AS 3S 5S 2H").
``layout()`` turns such a script into the four hands (the cards each seat
plays, in the order played, then filler cards that respect every void the
script shows), so a lesson's hands are exactly what its story needs.  The
engine itself checks every card when the notebook runs.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
JUPYTER = ROOT / ".venv" / "bin" / "jupyter"

PIPLITE = """try:
    import piplite
    await piplite.install("courtlearn")
except ImportError:
    pass"""

SEAT = {"S": 0, "E": 1, "N": 2, "W": 3}
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
SUITS = "SHCD"  # the order a hand is held in: spades, hearts, clubs, diamonds


# --------------------------------------------------------------------------
# designing deals
# --------------------------------------------------------------------------
def _suit(code: str) -> str:
    return code[-1]


def layout(script: str, first: dict | None = None, hold: dict | None = None,
           short: dict | None = None, fill_order=None) -> list[str]:
    """Four hand strings (seat order) that play out ``script``.

    ``script`` has one trick per line: leader letter, then four card codes in
    the order played.  ``first`` may give, per seat letter, the cards that must
    open that seat's list (its first batch of five, or a deferred card's
    position); the rest follow in the order they are played, then the cards
    ``hold`` gives a seat, then filler (never of a suit ``short`` names for
    that seat).
    """
    hands: list[list[str]] = [[], [], [], []]
    voids: list[set[str]] = [set(), set(), set(), set()]
    used: set[str] = set()
    for line in script.strip().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        leader, *cards = line.split()
        assert len(cards) == 4, line
        led = _suit(cards[0])
        for i, card in enumerate(cards):
            seat = (SEAT[leader] + i) % 4
            assert card not in used, f"{card} twice"
            used.add(card)
            if _suit(card) != led:
                voids[seat].add(led)
            hands[seat].append(card)
    for letter, suits in (short or {}).items():
        voids[SEAT[letter]].update(suits)
    hold = {k: v.split() for k, v in (hold or {}).items()}
    for letter, cards in (first or {}).items():
        for card in cards.split():
            if card not in used and card not in hold.get(letter, []):
                hold.setdefault(letter, []).append(card)
    for letter, cards in hold.items():
        for card in cards:
            assert card not in used, f"{card} twice"
            used.add(card)
            hands[SEAT[letter]].append(card)
    deck = [r + s for s in SUITS for r in RANKS]
    rest = [c for c in deck if c not in used]
    if fill_order:
        rest = sorted(rest, key=fill_order)
    # give the filler to the seats that need cards, respecting voids
    need = [13 - len(h) for h in hands]

    def place(i: int) -> bool:
        if i == len(rest):
            return True
        card = rest[i]
        for seat in sorted(range(4), key=lambda s: -need[s]):
            if need[seat] and _suit(card) not in voids[seat]:
                need[seat] -= 1
                hands[seat].append(card)
                if place(i + 1):
                    return True
                hands[seat].pop()
                need[seat] += 1
        return False

    assert place(0), "no filler respects the voids"
    if first:
        for letter, cards in first.items():
            seat = SEAT[letter]
            cards = cards.split()
            hands[seat] = cards + [c for c in hands[seat] if c not in cards]
    for h in hands:
        assert len(h) == 13
    return [" ".join(h) for h in hands]


def tricks(script: str) -> list[str]:
    """The cards of each trick of a script, as one string per trick."""
    out = []
    for line in script.strip().splitlines():
        line = line.split("#")[0].strip()
        if line:
            out.append(" ".join(line.split()[1:]))
    return out


def hands_code(hands: list[str], indent: str = "    ") -> str:
    names = ["South", "East", "North", "West"]
    rows = [f'{indent}"{h}",  # {n}' for h, n in zip(hands, names)]
    return "[\n" + "\n".join(rows) + "\n]"


# --------------------------------------------------------------------------
# writing notebooks
# --------------------------------------------------------------------------
def md(text: str):
    return new_markdown_cell(textwrap.dedent(text).strip())


def _dedent(text: str) -> str:
    """Remove the first line's indentation from every line that has it (lines
    spliced in from ``hands_code`` are already flush and stay as they are)."""
    lines = text.strip("\n").splitlines()
    first = next(line for line in lines if line.strip())
    pad = first[: len(first) - len(first.lstrip())]
    return "\n".join(line[len(pad):] if line.startswith(pad) else line for line in lines).strip()


def code(text: str):
    return new_code_cell(_dedent(text))


def notebook(cells) -> nbformat.NotebookNode:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def start_cells():
    return [code(PIPLITE), code("import courtlearn as cl")]


PLAY_HELPER = '''
def play(deal, cards):
    """Play these cards in turn, then print what the engine said about them."""
    start = len(deal.events)
    for card in cards.split():
        deal.play(card)
    for event in deal.events[start:]:
        print(event.text)
'''


LESSONS = {}


def expect(*items):
    """Fail the build if a fixed exercise question no longer has the answer the
    lesson's hidden answer text gives (the exercises are written elsewhere)."""
    import courtlearn as cl
    for kind, n, solution in items:
        got = cl.exercises.question(kind, n).solution
        if got != solution:
            raise SystemExit(f"{kind} question {n} now answers {got!r}, the lesson says {solution!r}")


def lesson(number: str, name: str):
    def register(fn):
        LESSONS[number] = (name, fn)
        return fn
    return register


PILE_HELPER = '''
def play(deal, cards):
    """Play these cards in turn; print the engine's sentences, then the piles."""
    start = len(deal.events)
    for card in cards.split():
        deal.play(card)
    for event in deal.events[start:]:
        print(event.text)
    ns, ew = deal.tricks_won
    print(f"   [centre pile: {len(deal.centre)} · North–South: {ns} · East–West: {ew}]")
'''


# --------------------------------------------------------------------------
# 07 Double Sir: the centre pile
# --------------------------------------------------------------------------
DS_SCRIPT = """
S AS 3S 5S 2H    # 1 South wins: centre 1
S AH QS 4H 7H    # 2 East trumps: centre 2
E AD 6D 2D KD    # 3 East twice in a row: takes 3
E AC 3C 4C 5C    # 4 East a third time: new pile, centre 1
E KC 6C 7C 8C    # 5 East a fourth time: takes 2
E 4D QD 5D 3D    # 6 North: centre 1
N JD 7D 8D 9D    # 7 North twice: takes 2
N 5H KH 3H 10D   # 8 West: centre 1
W 8H 6H 10C QH   # 9 North: centre 2
N 9H 10H JH QC   # 10 South (partner, no chain): centre 3
S KS 4S 6S 2C    # 11 South twice: takes 4
S 10S 7S 8S 9C   # 12 South a third time: centre 1
S 2S JS 9S JC    # 13 East: the last trick sweeps
"""


@lesson("07", "07_double_sir_centre_pile.ipynb")
def lesson_07():
    hands = layout(DS_SCRIPT, first={"S": "AS KS 10S AH KD"})
    t = tricks(DS_SCRIPT)
    expect(("pile_capture", 2, "nobody"), ("pile_capture", 3, "South"))
    return [
        md("""
        # 07 · Double Sir: the centre pile

        **In ten minutes you will know why, in Double Sir, winning two tricks in a row
        matters more than winning tricks.**

        Lessons 01–06 taught Court Piece, where every trick you win goes straight to
        your side. *Double Sir* (also *Double Sar*: *sir* is a word for a trick) is
        Court Piece with one change, and only one: what happens to a trick after it
        has been won. Dealing, calling trumps, following suit and trumping stay
        exactly as you know them.
        """),
        *start_cells(),
        md("""
        ## The rule in one sentence

        > A won trick is laid face down in the middle of the table, the **centre
        > pile**, where it belongs to nobody; when the **same player** wins **two
        > tricks in a row**, their side takes the whole pile, the trick just won
        > included.

        Three details complete the rule, and you will see each one on a table below:
        a capture starts a brand-new pile, two partners winning one trick each do not
        count as "in a row", and whoever wins the thirteenth trick takes whatever is
        still in the centre.

        *Rules in our own words, after source texts 000 (Court Piece, with its Double
        Sir section) and 003 (Double Sir, whose worked example we replay below).*
        """),
        md("""
        ## See it: the three tricks of the rulebook

        Source 003 explains the centre pile with three tricks. Here they are on a real
        deal. West deals, so South is the trump caller: South calls spades and leads.

        One small helper first: `play(deal, cards)` plays cards in turn and prints the
        engine's own sentences, then a line with the centre pile and each side's own
        pile (counted in tricks).
        """),
        code(PILE_HELPER),
        code(f"""
        rules = cl.Rules.double_sir()
        deal = cl.Deal.prearranged(rules, hands={hands_code(hands)}, dealer=3)
        deal.call_trump("S")
        deal
        """),
        md("""
        **Trick 1.** South leads the A♠. East and North follow with small spades;
        West has none and throws a heart.
        """),
        code(f'play(deal, "{t[0]}")\ndeal'),
        md("""
        South has won a trick, yet South's side has nothing: the trick lies in the
        centre. **Trick 2.** South leads the A♥; East has no hearts and trumps with
        the Q♠.
        """),
        code(f'play(deal, "{t[1]}")\ndeal'),
        md("""
        Two tricks in the centre, won by two different players: still nobody's.
        **Trick 3.** East, who won the last trick, leads the A♦ and wins again.
        """),
        code(f'play(deal, "{t[2]}")\ndeal'),
        md("""
        East has won two tricks in a row, so East–West take the whole centre pile:
        all **three** tricks, including the one South won with the A♠. In Double Sir
        a trick you win is only a loan until someone wins twice running.

        ## Edge case 1: after a capture, a new pile starts

        East has just captured. Does a third win in a row take anything? Watch tricks
        4 and 5, both won by East.
        """),
        code(f'play(deal, "{t[3]}")'),
        code(f'play(deal, "{t[4]}")'),
        md("""
        The third win in a row only *starts* the new pile; the fourth is the second
        win in a row **of the new pile**, and takes both tricks. Count wins from the
        last capture, not from the start of the run.

        North now wins tricks 6 and 7, which is an ordinary capture of two:
        """),
        code(f'play(deal, "{t[5]}")\nplay(deal, "{t[6]}")'),
        md("""
        ## Edge case 2: partners do not chain

        West wins trick 8. Then North wins trick 9 and North's partner South wins
        trick 10. That is one side winning twice in a row, but not the **same player**:
        """),
        code(f'play(deal, "{t[7]}")\nplay(deal, "{t[8]}")\nplay(deal, "{t[9]}")\ndeal'),
        md("""
        Three tricks wait in the centre, and South, who won the last one, leads to
        trick 11.

        ## Try it: trick 11, three tricks in the centre

        You are South, holding K♠ 10♠ 2♠ (spades are trumps). East still holds the
        J♠. Which card makes sure your side gets the pile? Play it on the table below.
        The table holds a *copy* of the deal, so the rest of the lesson is not
        disturbed.
        """),
        code("""
        trial = cl.Deal.from_dict(deal.to_dict())   # a copy of the deal at trick 11
        cl.widgets.CardTable(trial, seat=0, bots=cl.bots.RuleBot())
        """),
        md("""
        The same through Python. First the mistake: lead the 10♠ and East, who has
        been saving the J♠, takes the trick, so the pile stays in the centre (we try
        it on another copy).
        """),
        code("""
        mistake = cl.Deal.from_dict(deal.to_dict())
        play(mistake, "10S JS 6S 2C")
        """),
        md("Now the K♠, which nobody can beat: South wins twice in a row and takes all four tricks."),
        code(f'play(deal, "{t[10]}")'),
        md("""
        ## Edge case 3: the last trick sweeps the centre

        South wins trick 12 as well: a third win in a row, so it only starts a new
        pile. Then East wins trick 13 with the J♠ kept for it. East did not win
        trick 12, but the thirteenth trick takes everything left in the centre.
        """),
        code(f'play(deal, "{t[11]}")\nplay(deal, "{t[12]}")'),
        code("deal"),
        md("""
        Count the tricks each player *won*: North–South won seven of the thirteen
        (tricks 1, 6, 7, 9, 10, 11 and 12), East–West only six. Yet East–West hold
        seven tricks in their pile and win the deal. That is why Double Sir players
        care about *two in a row* far more than about single tricks.
        """),
        md("""
        ## Check yourself

        Each question shows a table; write your answer in place of `...` (a player
        such as `"North"`, or `"nobody"`) and run the cell. A wrong answer gets a
        hint, never an error.
        """),
        code("""
        q1 = cl.exercises.question("pile_capture", 2)
        q1
        """),
        code("""
        answer = ...
        q1.check(answer)
        """),
        code("""
        q2 = cl.exercises.question("pile_capture", 3)
        q2
        """),
        code("""
        answer = ...
        q2.check(answer)
        """),
        md("""
        And one to count in your head: in our deal, how many tricks did North–South
        hold right after trick 11, and how many lay in the centre?

        <details><summary>Answers</summary>

        1. Nobody: South won trick 1 and North wins trick 2. One side won both, but
           not the same player, and partners do not chain.
        2. South: the capture at trick 2 started a new pile; South's win at trick 3
           only began it, and trick 4 is South's second win in a row of the new pile.
        3. Six, and none: North–South had 2 (North's capture at trick 7), and South's
           capture at trick 11 brought 4 more, emptying the centre.
        </details>

        Want more? `cl.exercises.question("pile_capture", seed=1)` makes a fresh one
        (any seed), and the exercise notebook
        [Who collects the centre pile?](../exercises/04_pile_capture.ipynb) has a whole set.

        ## Remember

        - **Same player, two in a row:** that player's side takes the whole centre
          pile; partners winning one trick each take nothing.
        - **A capture starts a new pile:** a third win in a row takes nothing, the
          fourth takes two.
        - **The 13th trick takes what is left** in the centre, whoever won the 12th.

        Next: [08 · Dehla Pakad: chasing the tens](08_dehla_pakad_tens.ipynb), where
        the same centre pile decides who catches the tens.
        """),
    ]


# --------------------------------------------------------------------------
# 08 Dehla Pakad: chasing the tens
# --------------------------------------------------------------------------
TENS_HELPER = '''
def play(deal, cards, brief=False):
    """Play these cards in turn and print the engine's sentences (brief: leave out
    the single cards), then the tens in the centre and in each side's pile."""
    start = len(deal.events)
    for card in cards.split():
        deal.play(card)
    for event in deal.events[start:]:
        if not (brief and event.kind == "play"):
            print(event.text)
    centre = [str(card) for trick in deal.centre for _, card in trick.cards if card.rank == 10]
    ns, ew = deal.tens_won
    print(f"   [tens in the centre: {' '.join(centre) or 'none'} · "
          f"tens taken: North–South {ns}, East–West {ew}]")
'''

DP_SEE = """
S AH 10H 3H 4H   # 1 South wins; East's 10H lies in the centre
S AD 5D 10D 6D   # 2 North drops the 10D on partner's ace; South takes both
S 2S AS 3S 10S   # 3 West drops the 10S on East's ace
E KS 4S 5S 6S    # 4 East takes it: one ten each way is enough, the deal is decided
"""

DP_TIE = """
S 2S AS 3S 10S   # 1 East wins, West's 10S in the centre
E KS 4S 5S 6S    # 2 East takes it
E AH 3H 10H 4H   # 3 East again (new pile), West's 10H in the centre
E KH 5H 6H 7H    # 4 East takes it: East-West 2 tens
E 2D AD 3D 10D   # 5 North wins, South's 10D in the centre
N AC 2C 10C 3C   # 6 North takes it: North-South 2 tens, 2-2
N 4D 5D 6D KD    # 7 East
E QD 7D 4C 8D    # 8 West trumps
W QH 9H JH 2H    # 9 West again: takes 3 tricks, East-West have 7
"""

DP_KOT = """
S AH 10H 3H 4H
S AD 5D 10D 6D
S AS 10S 3S 4S
S KS 5S 6S 7S
S AC 2C 10C 3C
S KC 4C 5C 6C
"""


@lesson("08", "08_dehla_pakad_tens.ipynb")
def lesson_08():
    see = layout(DP_SEE, first={"S": "AH AD AC KC 2S"}, hold={"S": "AC KC", "N": "9D 2D"},
                 short={"E": "H", "N": "D"})
    tie = layout(DP_TIE, first={"S": "QC JC 10C 2S 4H"}, hold={"S": "QC JC"})
    kot = layout(DP_KOT, first={"S": "AH AD AS KS AC"})
    a, b, c = tricks(DP_SEE), tricks(DP_TIE), tricks(DP_KOT)
    expect(("tens_winner", 3, "East–West"), ("tens_winner", 2, "East–West"))
    return [
        md("""
        # 08 · Dehla Pakad: chasing the tens

        **In ten minutes you will know how the four tens decide a Dehla Pakad deal,
        and how to help your partner catch them.**

        *Dehla pakad* means "catch the tens". The play is the Double Sir play of
        lesson 07: tricks go to the centre pile, and the same player winning two in a
        row takes the pile for their side. What changes is what counts at the end:
        not tricks, but **the four tens** in each side's own pile.
        """),
        *start_cells(),
        md("""
        ## The rule in one sentence

        > The side that dealt wins the deal only with **three** tens; the other side
        > (the trump caller's) wins with **two or three**; and a side that catches
        > **all four** tens scores a **kot** (the Dehla Pakad word for a court).

        With two tens each, the house rule `tens_tie` decides: by default the
        non-dealers win; some play that the side with more tricks wins (the Mendikot
        custom). A ten lying in the centre belongs to nobody yet.

        *Rules in our own words, after source text 004 (Dehla Pakad), with the centre
        pile of 000 and 003.*
        """),
        md("""
        ## See it: two tens are enough for the trump caller's side

        West deals, so South is the trump caller (South calls clubs) and North–South
        are the **non-dealers**: two tens are enough for them.

        `play(deal, cards)` plays cards and prints the engine's sentences, then a line
        with the tens lying in the centre and the tens each side has taken.
        (`brief=True` leaves out the single cards and keeps what happened to each
        trick.)
        """),
        code(TENS_HELPER),
        code(f"""
        rules = cl.Rules.dehla_pakad()
        deal = cl.Deal.prearranged(rules, hands={hands_code(see)}, dealer=3)
        deal.call_trump("C")
        deal
        """),
        md("""
        **Trick 1.** South leads the A♥, and East has to follow with the 10♥, East's
        only heart. South wins, but the ten only goes to the centre:
        """),
        code(f'play(deal, "{a[0]}")'),
        md("""
        ## Try it: give your ten to your partner

        Trick 2: South, who won trick 1, leads the A♦ and East follows with the 5♦.
        You are **North**, holding 10♦ 9♦ 2♦. Nobody can beat the A♦ with a diamond,
        and South has just won a trick: if South wins this one too, your side takes
        the centre. Which diamond do you play? (The table holds a copy of the deal;
        the computer plays for the others.)
        """),
        code('deal.play("AD")\ndeal.play("5D")'),
        code("""
        trial = cl.Deal.from_dict(deal.to_dict())   # a copy, North to play
        cl.widgets.CardTable(trial, seat=2, bots=cl.bots.RuleBot())
        """),
        md("""
        The same through Python: North drops the 10♦ on the ace, and South's second
        win in a row takes the pile with **both** tens in it.
        """),
        code('play(deal, "10D 6D")'),
        md("""
        East–West know the move too. **Tricks 3 and 4:** West drops the 10♠ on
        East's A♠, and East wins the next trick to take it.
        """),
        code(f'play(deal, "{a[2]}")\nplay(deal, "{a[3]}")'),
        code("deal"),
        md("""
        Only four tricks were played. North–South, the non-dealers, have two tens and
        East–West one. Whoever catches the last ten (the 10♣), the non-dealers have
        won, and nobody can catch all four any more, so the engine ends the deal
        there: nothing left can change the result.

        ## Edge case: two tens each

        A 2–2 split is the one people argue about, so it is a house rule. Here is one
        deal played twice: with the default `tens_tie="non_dealers"` and with the
        Mendikot custom `tens_tie="tricks"`. Both sides use the "ten on partner's
        ace" move again.
        """),
        code(f"""
        tie_hands = {hands_code(tie)}
        default = cl.Deal.prearranged(cl.Rules.dehla_pakad(), hands=tie_hands, dealer=3)
        mendikot = cl.Deal.prearranged(cl.Rules.dehla_pakad(tens_tie="tricks"), hands=tie_hands, dealer=3)
        default.call_trump("C")
        mendikot.call_trump("C")
        """),
        md("""
        The first five tricks, in brief: East–West catch the 10♠ and the 10♥, then
        South drops the 10♦ on North's A♦.
        """),
        code(f'play(default, "{" ".join(b[:5])}", brief=True)'),
        md("Trick 6: North leads the A♣ (a trump) and South drops the last ten, the 10♣, on it."),
        code(f'play(default, "{b[5]}")'),
        md("""
        Two tens each: by default the tie goes to the non-dealers, North–South, and
        the deal is over. Now the very same six tricks with `tens_tie="tricks"`:
        """),
        code(f'play(mendikot, "{" ".join(b[:6])}", brief=True)\nprint(mendikot.phase)'),
        md("""
        Nothing is decided: with this house rule a 2–2 split goes to the side with
        more tricks, and play goes on. East–West hold four tricks to two; three more
        tricks settle it:
        """),
        code(f'play(mendikot, "{" ".join(b[6:])}", brief=True)'),
        md("""
        Same cards, same tens, opposite winners: agree on `tens_tie` before you play.

        ## A kot: all four tens

        Catching all four tens is the big prize, a **kot**. South holds a wonderful
        hand here and wins six tricks in a row; every second one takes the pile, and
        with it a ten or two.
        """),
        code(f"""
        kot = cl.Deal.prearranged(rules, hands={hands_code(kot)}, dealer=3)
        kot.call_trump("C")
        play(kot, "{" ".join(c)}", brief=True)
        kot.result
        """),
        md("""
        The result records the kind of win (`'kot'`) and the courts it scores (one).

        ## Check yourself

        Who wins each of these deals? Write a team in place of `...`, such as
        `"North–South"`, and run the cell. Look first at **who dealt**.
        """),
        code('q1 = cl.exercises.question("tens_winner", 3)\nq1'),
        code("answer = ...\nq1.check(answer)"),
        code('q2 = cl.exercises.question("tens_winner", 2)\nq2'),
        code("answer = ...\nq2.check(answer)"),
        md("""
        <details><summary>Answers</summary>

        1. East–West: they dealt, and the dealers win with three tens.
        2. East–West: South dealt, so East–West are the non-dealers, and by default a
           2–2 split goes to the non-dealers (the tricks do not matter).
        </details>

        ## Remember

        - **Non-dealers need two tens, dealers need three;** all four is a **kot**.
          A 2–2 split follows the house rule `tens_tie` (default: the non-dealers).
        - **A ten in the centre is nobody's:** it goes with the pile to whoever next
          wins two tricks in a row.
        - **Drop your ten on your partner's sure winner** when your partner has just
          won a trick: the second win in a row takes the pile, ten and all.

        More practice: [Who wins on tens?](../exercises/07_tens_winner.ipynb).

        Next: [09 · House rules](09_house_rules.ipynb): shown, hidden and deferred
        trumps, Be-ranga, and the Double Sir variants.
        """),
    ]


# --------------------------------------------------------------------------
# 09 House rules
# --------------------------------------------------------------------------
EVENTS_HELPER = '''
def say(deal, start=0):
    """Print the engine's sentences from event number `start` on."""
    for event in deal.events[start:]:
        print(event.text)


def play(deal, cards, brief=False):
    """Play these cards in turn and print what the engine said (brief: leave out
    the single cards)."""
    start = len(deal.events)
    for card in cards.split():
        deal.play(card)
    for event in deal.events[start:]:
        if not (brief and event.kind == "play"):
            print(event.text)
'''

HIDDEN = """
S AH QC 2H 5C    # East discards QC without asking; West asks, must trump, and loses to QC
"""

BERANGA = """
S AS 2S 3S 4S    # 1 no trumps yet: South wins
S KS 5S 6S 7S    # 2 South again, but nothing is captured before trumps are fixed
S AH 2H 3H 2D    # 3 West cannot follow: diamonds are trumps, West's 2D wins
W AD 3D 4D 5D    # 4 West wins the trump-fixing trick and the next: takes all four
"""

FIRST_TWO = """
S AS 2S 3S 4S
S KS 5S 6S 7S
S QS 8S 9S 10S
"""

ACES = """
S AS 2S 3S 4S
S AH 2H 3H 4H
S KS 5S 6S 7S
"""

GOON = """
S JH AH 2H 2S
E AC 2C 3S 5C
E KC 3C 4S 6C
E QC 4C 5S 7C
E JC 3H 6S 10H
E 10C 4H 7S 9H
E 9C 5H 8S 8H
E 8C 6H 9S 7H
E KH JD 10S 2D
E QH 10D JS 3D
E AD 9D QS 4D
E KD 8D KS 5D
E QD 7D AS 6D
"""


@lesson("09", "09_house_rules.ipynb")
def lesson_09():
    shown = layout("", first={"S": "QH 7H AS KD 4C"})
    hidden = layout(HIDDEN, first={"S": "AH KC 9S 8D 4S"}, hold={"W": "4C"},
                    short={"E": "H", "W": "HC"})
    deferred = layout("", first={"S": "9S 6H 4C 3D 2S AD 8C 7S 5H KH QC 3H 2D"})
    beranga = layout(BERANGA, short={"W": "H"})
    first_two = layout(FIRST_TWO, first={"S": "AS KS QS 2H 3H"})
    aces = layout(ACES, first={"S": "AS AH KS 2D 3D"})
    goon = layout(GOON)
    br = tricks(BERANGA)
    expect(("tens_winner", 4, "North–South"), ("pile_capture", 3, "South"))
    return [
        md("""
        # 09 · House rules

        **In fifteen minutes you will know the house rules people play most, and how
        to switch each one on with a single keyword.**

        Lessons 01–08 used the standard rules of each game. Around a real table,
        someone always says "we play it differently". Here are the common ways, each
        on a small prearranged deal: shown, hidden and deferred trumps, Be-ranga
        (trumps fixed by the first player who cannot follow suit), and the Double Sir
        variants of the centre pile.
        """),
        *start_cells(),
        md("""
        ## The rule in one sentence

        > Every house rule is a keyword of `cl.Rules`: start from the game's preset
        > and change only what your table plays differently.

        *House rules in our own words, after source texts 000 (trump-indicator
        variants, the Double Sir variants, Be-ranga), 002 (trump card shown, deferred
        trump) and 004 (Dehla Pakad's first way of fixing trumps).*
        """),
        code('cl.Rules.court_piece(trump_method="shown")'),
        md("""
        The one edge case for all of them: an option that does not belong to the game
        is refused, and the message says why. `goon_courts` is a Double Sir option, so
        Court Piece says no:
        """),
        code("""
        try:
            cl.Rules.court_piece(goon_courts=10)
        except ValueError as error:
            print(error)
        """),
        md("""
        Two small helpers: `say(deal, start)` prints the engine's sentences from event
        number `start` on; `play(deal, cards)` plays cards and prints what the engine said (`brief=True`
        leaves out the single cards and keeps what happened to each trick).
        """),
        code(EVENTS_HELPER),
        md("""
        ## 1. Shown trump (`trump_method="shown"`)

        The trump caller does not *name* a suit: they pick one of their first five
        cards and put it face up. Its suit is trumps, and the card stays in their
        hand, to be played like any other. West deals, so South chooses:
        """),
        code(f"""
        hands = {hands_code(shown)}
        deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="shown"), hands=hands, dealer=3)
        deal.choose_trump_card("QH")
        say(deal)
        print("trump:", deal.trump, "· trump card:", deal.trump_card)
        print("Q♥ still in South's hand:", cl.Card.parse("QH") in deal.hand(0))
        """),
        md("""
        ## 2. Hidden trump (`trump_method="hidden"`)

        Now the chosen card is set aside **face down**. Until it is shown there are
        **no trumps at all**. A player who cannot follow suit may ask for it: it is
        turned up and goes back into its owner's hand, its suit is trumps from that
        trick on, and the player who asked must play a trump if they have one.
        """),
        code(f"""
        hands = {hands_code(hidden)}
        deal = cl.Deal.prearranged(cl.Rules.court_piece(trump_method="hidden"), hands=hands, dealer=3)
        deal.choose_trump_card("KC")
        print("trump for everyone now:", deal.trump)
        """),
        md("""
        Who knows what? Each seat has its own view of the deal. South, the owner, hears
        which card went face down; East hears only that *a* card did:
        """),
        code("""
        for seat, name in [(0, "South"), (1, "East")]:
            print(f"{name} hears:")
            for event in deal.view(seat).events:
                print("   ", event.text)
        """),
        md("Not even its owner may play the face-down card before it is shown:"),
        code("""
        try:
            deal.play("KC")
        except cl.IllegalPlay as refusal:
            print(refusal.reason)
        """),
        md("""
        South leads the A♥. East has no hearts and throws away the Q♣ without asking;
        North follows. West has no hearts either, and West **asks**:
        """),
        code("""
        play(deal, "AH QC 2H")
        n = len(deal.events)
        deal.ask_for_trump()
        say(deal, n)
        print("West may now play:", " ".join(str(card) for card in deal.legal_cards()))
        """),
        md("""
        Clubs are trumps, and West must play one. Here is the edge case: East's Q♣,
        thrown away *before* anyone knew, now counts as a trump too, and it beats
        West's little club. West asked, and East–West win the trick all the same:
        """),
        code('play(deal, "5C")'),
        md("""
        A cousin: `trump_method="hidden_random"` picks the face-down card at random,
        unseen even by its owner.

        ## 3. Deferred trump (`allow_deferred=True`)

        A trump caller who dislikes their first five cards may **defer**: by default
        the first card of their next batch is turned up and fixes trumps (it stays in
        their hand). South's cards are listed in the order they are dealt; the sixth
        is the A♦:
        """),
        code(f"""
        hands = {hands_code(deferred)}
        deal = cl.Deal.prearranged(cl.Rules.court_piece(allow_deferred=True), hands=hands, dealer=3)
        deal.defer_trump()
        say(deal)
        """),
        md("""
        In Double Sir some tables let the caller name *which* later card, from the
        6th to the 13th of their own, will be turned up
        (`deferred_card="numbered"`). South names the 10th, the K♥:
        """),
        code("""
        rules = cl.Rules.double_sir(allow_deferred=True, deferred_card="numbered")
        deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
        deal.defer_trump(number=10)
        say(deal)
        """),
        md("""
        (`deferred_card="random"` turns up a random card of the caller's second
        batch.)

        ## 4. Be-ranga: the first player who cannot follow fixes trumps

        With `trump_method="first_void"` nobody calls trumps. Play starts without
        trumps, and the first player unable to follow suit fixes them: the suit of the
        card they play is trumps for the rest of the deal, **that trick included**.
        In Double Sir (*Be-ranga Double Sar*) one more thing changes: nothing is
        captured before trumps are fixed, unless the same player wins the
        trump-fixing trick **and** the next one. (In Dehla Pakad the same option is
        the first method of source 004: play starts on five cards, and the rest are
        dealt after the trump-fixing trick.)
        """),
        code(f"""
        hands = {hands_code(beranga)}
        deal = cl.Deal.prearranged(cl.Rules.double_sir(trump_method="first_void"), hands=hands, dealer=3)
        play(deal, "{br[0]}")
        play(deal, "{br[1]}")
        """),
        md("""
        South won twice in a row, but with no trumps fixed yet the two tricks stay in
        the centre. Trick 3: South leads the A♥, East and North follow, and West has
        no hearts.

        **Try it.** You are West: which card do you play, and so which suit becomes
        trumps? (The table holds a copy; the computer plays the other seats.)
        """),
        code("""
        deal.play("AH")
        deal.play("2H")
        deal.play("3H")
        trial = cl.Deal.from_dict(deal.to_dict())
        cl.widgets.CardTable(trial, seat=3, bots=cl.bots.RuleBot())
        """),
        md("In the lesson West plays the 2♦. Diamonds become trumps at once, so the little 2♦ beats the A♥:"),
        code('play(deal, "2D")'),
        md("West won the trump-fixing trick; winning the next one as well takes everything:"),
        code(f'play(deal, "{br[3]}")'),
        md("""
        ## 5. Double Sir: the first two tricks, and two aces

        Two house rules make the centre pile harder to take.

        `first_two_capture=False`: the winner of tricks 1 and 2 does **not** pick
        them up, though winning trick 3 as well takes all three. South wins the first
        three tricks here, under each rule in turn:
        """),
        code(f"""
        hands = {hands_code(first_two)}
        for rules in [cl.Rules.double_sir(), cl.Rules.double_sir(first_two_capture=False)]:
            print(f"first_two_capture={{rules.first_two_capture}}:")
            deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
            deal.call_trump("S")
            play(deal, "{" ".join(tricks(FIRST_TWO))}", brief=True)
            print()
        """),
        md("""
        `aces_capture=False`: two tricks in a row **both won with aces** do not
        capture, and the run goes on; the same player's next win, with any other card,
        takes all three. South wins with the A♠, the A♥, then the K♠:
        """),
        code(f"""
        hands = {hands_code(aces)}
        for rules in [cl.Rules.double_sir(), cl.Rules.double_sir(aces_capture=False)]:
            print(f"aces_capture={{rules.aces_capture}}:")
            deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
            deal.call_trump("D")
            play(deal, "{" ".join(tricks(ACES))}", brief=True)
            print()
        """),
        md("""
        ## 6. Double Sir: what a goon court is worth (`goon_courts`)

        A side that takes all thirteen tricks scores a court; if it is the
        **dealer's** side, it is a **goon court**, worth three courts, or ten where
        `goon_courts=10` is played. Here West deals, South calls clubs on a poor hand,
        and East wins every single trick. We play the deal quietly and print its last
        sentence:
        """),
        code(f"""
        hands = {hands_code(goon)}
        for rules in [cl.Rules.double_sir(), cl.Rules.double_sir(goon_courts=10)]:
            deal = cl.Deal.prearranged(rules, hands=hands, dealer=3)
            deal.call_trump("C")
            for card in "{" ".join(tricks(GOON))}".split():
                deal.play(card)
            print(f"goon_courts={{rules.goon_courts}}:", deal.events[-1].text)
        """),
        md("""
        ## Check yourself

        Write your answer in place of `...` and run the cell. The first question uses
        a house rule: read the line that names it.
        """),
        code('q1 = cl.exercises.question("tens_winner", 4)\nq1'),
        code("answer = ...\nq1.check(answer)"),
        code('q2 = cl.exercises.question("pile_capture", 3)\nq2'),
        code("answer = ...\nq2.check(answer)"),
        md("""
        And with `first_two_capture=False`, who would collect after that same trick?

        <details><summary>Answers</summary>

        1. North–South: two tens each, and under `tens_tie="tricks"` the side with
           more tricks (9 to 4) takes the tie.
        2. South: the capture at trick 2 started a new pile; trick 3 began it and
           trick 4 is South's second win of the new pile.
        3. With `first_two_capture=False`: nobody. Tricks 1 and 2 stay in the centre,
           South's third win takes all three, and trick 4 only starts a new pile.
        </details>

        ## Remember

        - **One keyword per house rule**, on the game's preset:
          `cl.Rules.double_sir(first_two_capture=False)`; an option from another game
          is refused.
        - **Hidden trump:** no trumps until someone who cannot follow asks; then the
          asker must trump, and a card of that suit already in the trick counts.
        - **Be-ranga:** the first card played off-suit fixes trumps, in that very
          trick.

        Next: [10 · Play a session against the computer](10_play_a_session.ipynb).
        """),
    ]


# --------------------------------------------------------------------------
# 10 Play a session against the computer
# --------------------------------------------------------------------------
@lesson("10", "10_play_a_session.ipynb")
def lesson_10():
    expect(("next_dealer", 1, "East"), ("next_dealer", 2, "North"))
    return [
        md("""
        # 10 · Play a session against the computer

        **In fifteen minutes you will play Court Piece against three computer
        players, ask for a hint when you are stuck, and see how a session is scored
        deal after deal.**

        You know the play (lessons 01–04), how a deal is won (05) and who deals next
        (06). Now put it together at a table of your own.
        """),
        *start_cells(),
        md("""
        ## The idea in one sentence

        > A **session** is a run of deals scored in courts: each deal's losers provide
        > the next dealer (so the winners call trumps), and the side with more courts
        > when the session ends wins it.

        *Rules in our own words, after source texts 000, 001 and 002 (Court Piece
        scoring and passing the deal).*

        ## See it: a table driven from Python

        A `Session` deals one deal after another. A `CardTable` shows it from your
        seat (South) and lets `RuleBot`, a computer player that follows a few sensible
        rules of thumb, play the other three seats. Everything a click does has a
        Python twin, so this notebook plays itself; the live table is further down.
        """),
        code("""
        session = cl.Session(cl.Rules.court_piece(), seed=3, deals=3)
        table = cl.widgets.CardTable(session, seat=0, bots=cl.bots.RuleBot())
        table
        """),
        md("""
        North dealt, so West was the trump caller; West called and led, and now it is
        your turn. What has South been told so far? (`deal.view(0)` is everything South
        may know, nothing more.)
        """),
        code("""
        for event in table.deal.view(0).events:
            print(event.text)
        print("You hold:", " ".join(str(card) for card in table.deal.hand(0)))
        """),
        md("""
        ## Ask for a hint

        `cl.hint(deal)` suggests a card for the player to move and says why. It also
        plays the rest of the deal out many times from here, with the unseen cards
        shared out in different ways, and estimates for each card you may play how
        often your side then wins the deal (`hint.chances`). Those quick play-outs
        use numpy, which comes with courtlearn's `[lab]` extra.
        """),
        code("""
        hint = cl.hint(table.deal)
        print(hint.text)
        for card, chance in sorted(hint.chances.items(), key=lambda item: -item[1])[:4]:
            print(f"   {card}: your side wins about {chance:.0%} of the time")
        """),
        md("Take the hint. The computer players answer at once, until it is your turn again:"),
        code("""
        n = len(table.deal.events)
        table.play(hint.card)
        for event in table.deal.events[n:]:
            print(event.text)
        """),
        md("""
        ## Edge case: the table refuses a card, and says why

        West has led the K♠ and you still hold spades. Try to play your A♥ instead:
        """),
        code("""
        try:
            table.play("AH")
        except cl.IllegalPlay as refusal:
            print(refusal.reason)
        """),
        md("""
        Nothing changed: a refused card is never played. On the live table the same
        sentence appears in the message line and the illegal cards are greyed out.

        Let the computer play your seat too for the rest of this deal: `table.step()`
        makes the next move for whoever is to play (for your seat, the move a
        `RuleBot` would make).
        """),
        code("""
        while table.deal.phase != "over":
            table.step()
        print(table.deal.events[-1].text)
        """),
        md("""
        ## Scoring the session

        `table.new_deal()` scores the finished deal and starts the next one; the
        session's own sentences say who won, how long the run of won deals is, and
        who deals next and why:
        """),
        code("""
        table.new_deal()
        for event in session.events:
            print(event.text)
        """),
        md("""
        The same edge case one level up: a new deal before this one is finished is
        refused.
        """),
        code("""
        try:
            table.new_deal()
        except ValueError as refusal:
            print(refusal)
        """),
        md("Play out the last two deals (the computer at every seat) and read the score:"),
        code("""
        told = len(session.events)
        while True:
            while table.deal.phase != "over":
                table.step()
            if session.over:
                break
            table.new_deal()
        for event in session.events[told:]:
            print(event.text)
        print("courts (North–South, East–West):", session.courts)
        """),
        md("""
        A court is rare (lesson 11 counts how rare), so most short sessions end level:
        a draw, with no courts at all. Real sessions run for an evening, or to an
        agreed number of courts: `cl.Session(rules, target_courts=1)`.

        ## Try it: your own session

        Now play for real. `cl.play` opens a table with buttons: *New deal*, *Undo*,
        *Step* (the next move, or a suggestion for you), *Auto-play* for the computer
        seats, *Show all hands*, a rules picker (Court Piece, Double Sir, Dehla Pakad)
        and a replay slider. Click a card to play it.
        """),
        code('cl.play("court_piece", seed=10, seat=0)'),
        md("""
        Stuck in the middle of a deal? Press the table's *Hint* button: it highlights
        the suggested card and shows why in the message line. From Python, with
        `app = cl.play(...)`, the same is `app.table.hint()`.

        ## Check yourself

        Who deals next? Write a player in place of `...`, such as `"North"`.
        """),
        code('q1 = cl.exercises.question("next_dealer", 1)\nq1'),
        code("answer = ...\nq1.check(answer)"),
        code('q2 = cl.exercises.question("next_dealer", 2)\nq2'),
        code("answer = ...\nq2.check(answer)"),
        md("""
        <details><summary>Answers</summary>

        1. East: North–South, the trump caller's side, won without a court, so the
           same dealer (East) deals again.
        2. North: East–West, the dealer's side, won, so the deal passes on to the
           next player, North.
        </details>

        ## Remember

        - **A session is scored in courts**, not deals; the losers of each deal
          provide the next dealer.
        - **`cl.hint(deal)`** suggests a card, says why, and estimates your chances
          with each card.
        - **Every click has a Python twin** (`table.play`, `table.step`,
          `table.new_deal`), and a refused move changes nothing.

        Practise choosing a card: [Exercise 08 · What would you play here?](../exercises/08_what_would_you_play.ipynb)
        checks your card against the hint's chances.

        Next: [11 · What the numbers say](11_what_the_numbers_say.ipynb): thousands
        of deals, counted.
        """),
    ]


# --------------------------------------------------------------------------
# 11 What the numbers say
# --------------------------------------------------------------------------
@lesson("11", "11_what_the_numbers_say.ipynb")
def lesson_11():
    expect(("court_or_not", 2, "no court"), ("court_or_not", 3, "goon court"))
    return [
        md("""
        # 11 · What the numbers say

        > **This lesson needs pandas and matplotlib** (`pip install pandas matplotlib`,
        > or install courtlearn with its `[lab]` extra). It is the only lesson that
        > does.

        **In ten minutes you will know how often the trump caller's side wins, and
        just how rare a court or a bavney is, from thousands of deals played by the
        computer.**

        Lessons 05 and 07–08 told you what a court, a goon court, a bavney and a kot
        are. Here we count them.
        """),
        *start_cells(),
        code("""
        import matplotlib.pyplot as plt
        import pandas as pd
        """),
        md("""
        ## The idea in one sentence

        > `cl.simulate(rules, deals=N)` lets four computer players (`RuleBot`s) play N
        > shuffled deals and returns a pandas table with one row per deal: count the
        > rows, and the rules turn into numbers.

        *The rules simulated are those of lessons 01–09, after source texts 000–004;
        the numbers are our own, from the engine.*

        ## See it: eight hundred deals of Court Piece

        Every deal is shuffled from the seed, so the same call gives the same table
        on every computer (`progress=False` hides the progress bar).
        """),
        code("""
        rules = cl.Rules.court_piece()
        deals = cl.simulate(rules, deals=800, seed=0, progress=False)
        deals.head()
        """),
        md("""
        One row per deal: who dealt and who called, the trump, the tricks each side
        took before the deal was decided, the winning side, whether the **trump
        caller's** side won (`caller_won`), the courts scored and the `kind` of win.

        **How often does the trump caller's side win?** Calling trumps after seeing
        five cards, and leading first, is an advantage. How big?
        """),
        code("""
        print(f"The trump caller's side won {deals.caller_won.mean():.0%} of {len(deals)} deals.")
        """),
        md("**How rare is a court?** Count the kinds of win:"),
        code("""
        kinds = deals.kind.value_counts()
        kinds
        """),
        code("""
        ax = kinds.plot.bar(rot=0, color="#1d6b45", title="Court Piece: how 800 deals were won")
        ax.set_xlabel("kind of win")
        ax.set_ylabel("deals")
        plt.show()
        """),
        md("""
        Most deals are won on tricks. A **court** (the first seven tricks) comes
        roughly once in a few dozen deals, a **goon court** (the dealer's side does it)
        less often still. A **bavney** needs all thirteen tricks:
        """),
        code("""
        courts = deals.kind.isin(["court", "goon", "bavney"]).mean()
        bavneys = (deals.kind == "bavney").sum()
        print(f"Courts of any kind: {courts:.1%} of deals, about 1 deal in {1 / courts:.0f}.")
        print(f"Bavneys: {bavneys} in {len(deals)} deals.")
        """),
        md("""
        A bavney needs a court first and then six more tricks in a row: the rarest
        result of all.

        **How long is a deal?** The engine stops a deal as soon as its result cannot
        change, so most Court Piece deals end well before trick 13:
        """),
        code("""
        ax = deals.tricks_played.value_counts().sort_index().plot.bar(
            rot=0, color="#244f9e", title="Court Piece: tricks played before the deal was decided")
        ax.set_xlabel("tricks played")
        ax.set_ylabel("deals")
        plt.show()
        """),
        md("""
        ## Edge case: small samples lie

        Twenty deals feel like a lot at the table. Here are five evenings of twenty
        deals each, and what each would have "shown" about the trump caller's side:
        """),
        code("""
        for seed in range(1, 6):
            evening = cl.simulate(rules, deals=20, seed=seed, progress=False)
            print(f"evening {seed}: the trump caller's side won {evening.caller_won.mean():.0%}")
        """),
        md("""
        Any one evening can be far from the 800-deal figure above. Trust
        big numbers, not a single session.

        ## The other games: courts in Double Sir, kots in Dehla Pakad

        The centre pile changes everything. In Double Sir a court needs all thirteen
        tricks, yet the last trick sweeps the centre; in Dehla Pakad a kot needs all
        four tens:
        """),
        code("""
        double_sir = cl.simulate(cl.Rules.double_sir(), deals=300, seed=0, progress=False)
        dehla_pakad = cl.simulate(cl.Rules.dehla_pakad(), deals=300, seed=0, progress=False)
        summary = pd.DataFrame({
            "Court Piece": deals.kind.value_counts(normalize=True),
            "Double Sir": double_sir.kind.value_counts(normalize=True),
            "Dehla Pakad": dehla_pakad.kind.value_counts(normalize=True),
        }).fillna(0).round(3)
        summary
        """),
        md("""
        Read across the table: a court of any kind is the exception in Court Piece and
        in Double Sir, while in Dehla Pakad a kot is common, because catching all four
        tens is far easier than taking every trick.
        """),
        md("""
        In Dehla Pakad, how many tens does the **non-dealing** side catch? (They need
        two; the dealers need three. A deal stops once the tens decide it, so a ten
        may still be out when it ends.)
        """),
        code("""
        dealers_ns = dehla_pakad.dealer.isin(["North", "South"])
        non_dealer_tens = dehla_pakad.tens_ew.where(dealers_ns, dehla_pakad.tens_ns)
        ax = non_dealer_tens.value_counts().sort_index().plot.bar(
            rot=0, color="#c0262d", title="Dehla Pakad: tens the non-dealing side held when the deal was decided")
        ax.set_xlabel("tens")
        ax.set_ylabel("deals")
        plt.show()
        """),
        md("""
        ## Try it

        Change a house rule and count again. Source 000 says that with
        `first_two_capture=False` (lesson 09) a side finds it slightly harder to escape
        a court. Does the simulation agree? The same seed gives the same 300 shuffles,
        so only the rule differs. Edit the rules, or the number of deals, and re-run:
        """),
        code("""
        variant = cl.simulate(cl.Rules.double_sir(first_two_capture=False), deals=300, seed=0, progress=False)
        pd.DataFrame({"standard": double_sir.kind.value_counts(),
                      "first_two_capture=False": variant.kind.value_counts()})
        """),
        md("On the same shuffles the house rule gives more courts and goon courts, as the source says."),
        md("""
        Every row is a real deal you can play yourself: its `seed` and `dealer` rebuild
        it. Here is the first goon court of the Court Piece run, on a live table with
        the computer at the other seats. Can you stop it?
        """),
        code("""
        goon = deals[deals.kind == "goon"].iloc[0]
        deal = cl.Deal(rules, dealer=cl.SEAT_NAMES.index(goon.dealer), seed=int(goon.seed))
        print(f"deal {goon.deal}: {goon.dealer} dealt, {goon.trump_caller} calls trumps")
        cl.widgets.CardTable(deal, seat=0, bots=cl.bots.RuleBot())
        """),
        md("""
        ## Check yourself

        Court or not? Write `"court"`, `"goon court"` or `"no court"` in place of
        `...`.
        """),
        code('q1 = cl.exercises.question("court_or_not", 2)\nq1'),
        code("answer = ...\nq1.check(answer)"),
        code('q2 = cl.exercises.question("court_or_not", 3)\nq2'),
        code("answer = ...\nq2.check(answer)"),
        md("""
        <details><summary>Answers</summary>

        1. No court: East–West won seven tricks, but South won trick 7 in between.
        2. Goon court: East–West won each of the first seven tricks, and West, their
           side, dealt.
        </details>

        ## Remember

        - **`cl.simulate(rules, deals=..., seed=...)`** gives one row per deal; pandas
          counts and plots them.
        - **The trump caller's side wins more often**, and a court is rare: count
          before you believe a feeling.
        - **Small samples lie:** one evening of twenty deals can be far off.

        Next: [12 · For teachers](12_for_teachers.ipynb): any deal on the screen,
        step by step.
        """),
    ]


# --------------------------------------------------------------------------
# 12 For teachers
# --------------------------------------------------------------------------
def _teacher_notation() -> str:
    """The notation of lesson 07's deal after its first three tricks (built by the engine)."""
    import courtlearn as cl
    hands = layout(DS_SCRIPT, first={"S": "AS KS 10S AH KD"})
    deal = cl.Deal.prearranged(cl.Rules.double_sir(), hands=hands, dealer=3, seed=0)
    deal.call_trump("S")
    for trick in tricks(DS_SCRIPT)[:3]:
        for card in trick.split():
            deal.play(card)
    return deal.to_notation()


def _solutions(*questions) -> list[str]:
    import courtlearn as cl
    out = []
    for kind, seed in questions:
        q = cl.exercises.question(kind, seed=seed)
        out.append(f"{q.solution}. {q.reason}")
    return out


@lesson("12", "12_for_teachers.ipynb")
def lesson_12():
    text = _teacher_notation()
    a1, a2 = _solutions(("pile_capture", 12), ("trick_winner", 12))
    return [
        md("""
        # 12 · For teachers

        **In ten minutes you will know how to put any deal on the screen, step
        through it with a class, and show every hand at a size the back row can
        read.**

        Lessons 00–11 were written for learners. This one is for whoever stands at
        the front: a teacher, a club organiser, or a grandparent with a projector.
        """),
        *start_cells(),
        md("""
        ## The idea in one sentence

        > A whole deal, its cards and every move, fits in a few lines of text:
        > `deal.to_notation()` writes it and `cl.Deal.from_notation(text)` reads it
        > back, exactly.

        *The deal below is the three-trick example of source text 003 (Double Sir),
        the one lesson 07 plays.*

        ## See it: a deal from notation

        Paste the text into a cell and read it back. The lines are: `rules` (the game,
        then any house rules that differ from its preset), `dealer` (a seat number
        in order of play: 0 South, 1 East, 2 North, 3 West), `seed` (for anything the
        rules draw at random), one `hand` line per seat with its thirteen cards in the
        order dealt (five, then four, then four), and `moves` (`call:S` calls spades;
        the `|` after each trick is only for the eye). Lines starting with `#` are
        comments.
        """),
        code('text = """\\\n' + text + '"""\ndeal = cl.Deal.from_notation(text)\ndeal'),
        md("""
        The notation round-trips exactly: written out again, it is the same text.
        """),
        code("deal.to_notation() == text"),
        md("""
        To write down a deal of your own, set it up (`cl.Deal.prearranged` with the
        four hands, or a shuffled `cl.Deal(rules, dealer=..., seed=...)`), play it as
        far as you like, and print its notation. Every student who runs the same
        seed gets the same cards:
        """),
        code("""
        shuffled = cl.Deal(cl.Rules.court_piece(), dealer=0, seed=42)
        print(shuffled.to_notation())
        """),
        md("""
        ## Step through it

        `deal.replay(n)` is the same deal after its first `n` moves, so a class can
        walk through a deal one card at a time and read the engine's sentence for
        each step:
        """),
        code("""
        shown = 0
        for n in range(1, 14):     # all 13 moves: the trump call, then twelve cards
            step = deal.replay(n)
            for event in step.events[shown:]:
                print(f"move {n:2}: {event.text}")
            shown = len(step.events)
        """),
        md("And the table at any step, say just before South's K♦ completes trick 3:"),
        code("deal.replay(12)"),
        md("""
        ## Show all hands, at presenter size

        For the front of a room, a live table with **every hand face up**
        (`show_all=True`) and **large cards** (`size="large"`). `table.replay(n)` moves
        the live table back to step `n` (the replay slider of `cl.play` does the same),
        and `table.replay()` brings it back to the present. Click the cards, or drive
        it from the next cell.
        """),
        code("""
        table = cl.widgets.CardTable(deal, seat=0, show_all=True, size="large")
        table
        """),
        code("""
        # the class sees the table after the first trick
        _ = table.replay(5)
        """),
        code("""
        # back to the present
        _ = table.replay()
        print(repr(table))
        """),
        md("""
        ## Edge case: a typing mistake in the notation

        Notation typed by hand goes wrong sometimes. Nothing half-works: the text is
        refused with the reason. A card written twice:
        """),
        code("""
        try:
            cl.Deal.from_notation(text.replace("KD", "KS", 1))
        except ValueError as error:
            print(error)
        """),
        md("A move that breaks a rule (South throws the 5♣ on a diamond lead while holding diamonds):"),
        code("""
        try:
            cl.Deal.from_notation(text.replace("AD 6D 2D KD", "AD 6D 2D 5C"))
        except ValueError as error:
            print(error)
        """),
        md("""
        ## Try it

        Change the text (say, give it the house rule `first_two_capture=false` on the
        `rules` line, or different moves) and run the cell to put your version on a
        table:
        """),
        code("""
        my_text = text.replace("rules: double_sir", "rules: double_sir first_two_capture=false")
        mine = cl.Deal.from_notation(my_text)
        print(mine.rules)
        cl.widgets.CardTable(mine, seat=0, show_all=True)
        """),
        md("""
        ## Check yourself, and fresh questions for a class

        Every exercise kind makes endless fresh questions from a seed, and a seed
        always makes the same question: put one seed on the board, and everyone has
        the same deal. Answer in place of `...`.
        """),
        code('q1 = cl.exercises.question("pile_capture", seed=12)\nq1'),
        code("answer = ...\nq1.check(answer)"),
        code('q2 = cl.exercises.question("trick_winner", seed=12)\nq2'),
        code("answer = ...\nq2.check(answer)"),
        md(f"""
        <details><summary>Answers</summary>

        1. {a1}
        2. {a2}
        </details>

        The kinds are `cl.exercises.KINDS`; the [exercise notebooks](../exercises/)
        hold a set of each, with worked solutions (`make student` writes copies
        without them).

        ## Remember

        - **`deal.to_notation()` / `cl.Deal.from_notation(text)`**: any deal, cards
          and moves, as a few lines you can paste; a mistake is refused with its
          reason.
        - **`deal.replay(n)`** (or `table.replay(n)`) steps through a deal one move
          at a time.
        - **`show_all=True, size="large"`** for the front of the room.

        That is the end of the lessons. Back to [00 · Start here](00_start_here.ipynb),
        or on to the exercises.
        """),
    ]


# --------------------------------------------------------------------------
# What the prose of each lesson says the engine printed: checked after each run,
# so a change in the engine, the bots or the exercises cannot leave a lesson
# telling a story its own outputs no longer show.
OUTPUT_CHECKS = {
    "07": ["East wins two tricks in a row and takes the 3 tricks in the centre for East–West.",
           "The trick goes face down to the centre: 3 tricks lie there.",
           "East wins the trick: J♠ is the highest trump.\nThe trick goes face down to the centre: 4",
           "South wins two tricks in a row and takes the 4 tricks in the centre for North–South.",
           "East wins the last trick and takes the 2 tricks in the centre for East–West.",
           "East–West win the deal with 7 tricks to 6."],
    "08": ["North–South, the non-dealers, win the deal with 2 tens to 1.",
           "a tie goes to the non-dealers",
           "they have more tricks (7 to 2)",
           "North–South take all four tens: a kot"],
    "09": ["goon_courts", "South cannot play K♣",
           "West may now play: 5♣ 4♣", "East wins the trick: Q♣ is the highest trump.",
           "nothing can be picked up until the trick after the one that fixed trumps",
           "West wins the trick: 2♦ is the highest trump.",
           "West wins two tricks in a row and takes the 4 tricks",
           "the first two tricks cannot be picked up",
           "South wins two tricks in a row and takes the 3 tricks",
           "both tricks were won with aces", "worth 10 courts"],
    "10": ["North deals five cards to each player, starting with West, the trump caller.",
           "West leads K♠.", "South cannot play A♥: spades were led",
           "The current deal is not finished yet"],
    "11": ["Bavneys: 0 in 800 deals."],
    "12": ["True", "is dealt twice", "South cannot play 5♣: diamonds were led"],
}


def check_outputs(number: str, path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    text = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text.append(out["text"])
            elif out.get("output_type") == "error":
                raise SystemExit(f"{path.name}: a cell failed: {out['ename']}: {out['evalue']}")
            else:
                text.append(out.get("data", {}).get("text/plain", ""))
    text = "".join(text)
    missing = [want for want in OUTPUT_CHECKS.get(number, []) if want not in text]
    if missing:
        raise SystemExit(f"{path.name}: the outputs no longer show: {missing}")
    if number == "11":   # the prose says the house rule gives more courts
        import courtlearn as cl
        kinds = ("court", "goon")
        std = cl.simulate(cl.Rules.double_sir(), deals=300, seed=0, progress=False)
        var = cl.simulate(cl.Rules.double_sir(first_two_capture=False), deals=300, seed=0,
                          progress=False)
        for kind in kinds:
            if (var.kind == kind).sum() <= (std.kind == kind).sum():
                raise SystemExit(f"{path.name}: first_two_capture=False no longer gives more {kind}s")


def build(numbers, run=True):
    for number in numbers:
        name, fn = LESSONS[number]
        path = NOTEBOOKS / name
        nb = notebook(fn())
        nbformat.validate(nb)
        nbformat.write(nb, path)
        print("wrote", path.relative_to(ROOT), flush=True)
        if run:
            subprocess.run([str(JUPYTER), "nbconvert", "--to", "notebook", "--execute",
                            "--inplace", "--ExecutePreprocessor.timeout=120", str(path)],
                           check=True, cwd=NOTEBOOKS)
            check_outputs(number, path)


def main(argv):
    run = "--no-run" not in argv
    numbers = [a for a in argv if not a.startswith("--")] or sorted(LESSONS)
    build(numbers, run=run)


if __name__ == "__main__":
    main(sys.argv[1:])
