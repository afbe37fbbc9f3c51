"""Find candidate play puzzles with the solver's help (issue 14): the raw material of the
ladder in ``courtlearn/puzzles/ladder.txt``, to be chosen and written up by hand.

    .venv/bin/python scripts/find_puzzles.py --game court_piece --tricks 4 --count 5
    .venv/bin/python scripts/find_puzzles.py --game double_sir --options first_two_capture=false
    .venv/bin/python scripts/find_puzzles.py --game dehla_pakad --tricks 6 --goal deal

``--goal deal`` keeps only goals that score (issue 31): the deal itself (seven tricks in
Court Piece and Double Sir; in Dehla Pakad the tens that win it: two for the side that did
not deal, three for the dealers) or, failing that, a court or kot (all thirteen tricks,
all four tens); never a raw trick count that changes nothing.

Seeded deals are played by RuleBot to a trick that South leads with ``--tricks`` tricks
left. A position is kept when best play for North–South (all hands known) reaches a
goal that some lawful first cards miss, and RuleBot's own card (the tempting one: what a
sensible player does without looking deeper) is among those that miss. The fewer first
cards keep the goal, the better the puzzle. For each candidate it prints a ladder entry
(goal and target filled in, the solution left to write) and the line of best play, each
card with what every lawful card would have kept, to help write the solution.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import courtlearn as cl  # noqa: E402
from courtlearn.puzzles import defend, goal_words  # noqa: E402


def parse_options(text: str) -> dict:
    out = {}
    for item in filter(None, (text or "").split(",")):
        key, value = item.split("=")
        out[key] = {"true": True, "false": False}.get(value.lower(), value)
    return out


def position(rules, seed: int, tricks_left: int, seat: int = 0):
    """The deal of ``seed`` played by RuleBot until ``seat`` leads with ``tricks_left``
    tricks to go, or None."""
    deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
    bot = cl.bots.RuleBot()
    while deal.phase != "over":
        if (deal.phase == "play" and not deal.trick.cards and deal.to_play == seat
                and 13 - len(deal.tricks) == tricks_left):
            return deal
        if deal.phase == "play" and 13 - len(deal.tricks) < tricks_left:
            return None
        cl.bots.act(bot, deal)
    return None


def diagram(deal) -> list:
    """The four hands left, suit by suit, with the trump and the piles."""
    rules = deal.rules
    out = [f"  trump {deal.trump}; piles {deal.tricks_won}"
           + (f", tens {deal.tens_won}" if rules.game != "court_piece" else "")
           + (f", centre {len(deal.centre)} tricks" if rules.game != "court_piece" else "")]
    if deal.tricks:
        out.append(f"  the last trick was won by {rules.seat_name(deal.tricks[-1].winner)}")
    for seat in range(4):
        hand = deal.hand(seat)
        suits = "  ".join(
            s.symbol + "".join(str(c)[:-1] for c in hand if c.suit is s) for s in cl.Suit)
        out.append(f"  {rules.seat_name(seat):5} {suits}")
    return out


def scoring_targets(deal, team: int = 0) -> list:
    """The targets that score for ``team``, most valuable first: a court (all 13 tricks) or
    kot (all four tens), then the deal (7 tricks; in Dehla Pakad 2 tens for the side that
    did not deal, 3 for the dealers)."""
    if deal.rules.game == "dehla_pakad":
        dealers = cl.team_of(deal.dealer) == team
        return [4, 3 if dealers else 2]
    return [13, 7]


def best_line(deal, target: int, team: int):
    """Best play from here to the end (the learner's lowest card that keeps the goal, the
    defence of the puzzles): each card with the lawful cards' values (for the mover's side)."""
    deal = cl.Deal.from_dict(deal.to_dict())
    lines = []
    while deal.phase == "play":
        sol = cl.solve(deal)
        if team == cl.team_of(deal.to_play):
            card = min((c for c, v in sol.values.items() if v >= target),
                       key=lambda c: (c.rank, c.si))
        else:
            card = defend(deal, team, target)   # the defence the puzzles play
        vals = " ".join(f"{c}={v}" for c, v in sol.values.items())
        lines.append(f"  {deal.rules.seat_name(deal.to_play):5} {card!s:>3}   ({vals})")
        deal.play(card)
    return lines


def score_goal(deal, target: int, team: int = 0) -> str:
    """The goal of a scoring puzzle in words: what reaching ``target`` wins, then how."""
    rules = deal.rules
    words = goal_words(deal, team, target)
    head, _, how = words.partition(": ")
    side = rules.team_name(team)
    if rules.game == "dehla_pakad":
        if target == 4:
            what = "a kot"
        elif cl.team_of(deal.dealer) == team:
            what = f"win the deal on tens ({side} dealt, so they need three)"
        else:
            what = f"win the deal on tens (two are enough for {side}, who did not deal)"
    else:
        what = "a court" if target == 13 else "win the deal"
    return f"{head}: {what}: {how}"


def entry(deal, target: int, level: int, seat: int = 0) -> str:
    """A ladder entry (courtlearn/puzzles/ladder.txt) for a scoring puzzle, its solution
    written from the solver's line: the first card, the defence's best answer, and what the
    tempting card (RuleBot's) lets the defence do. The title is left to write by hand."""
    rules = deal.rules
    team = cl.team_of(seat)
    sol = cl.solve(deal)
    keep = [c for c, v in sol.values.items() if v >= target]
    tempting = cl.bots.RuleBot().choose(deal)
    unit = "tens" if rules.game == "dehla_pakad" else "tricks"
    line = []
    d = cl.Deal.from_dict(deal.to_dict())
    first = None
    while d.phase == "play" and len(line) < 8:
        if cl.team_of(d.to_play) == team:
            vals = cl.solve(d).values
            card = min((c for c, v in vals.items() if v >= target), key=lambda c: (c.rank, c.si))
            first = first or card
        else:
            card = defend(d, team, target)
        line.append(f"{rules.seat_name(d.to_play)} {card}")
        d.play(card)
    who = rules.team_name(team)
    others = ", ".join(str(c) for c in sol.values if c not in keep and c != tempting)
    got = sol.values[tempting]
    held = (f"{got} ten" if got == 1 else f"{got} tens") if unit == "tens" else \
        (f"{got} trick" if got == 1 else f"{got} tricks")
    text = (f"Lead the {first}: best play goes {', '.join(line)}, and {who} end the deal with "
            f"{target} {unit} or more. Lead the {tempting} instead, the card that looks "
            f"natural, and East–West can hold {who} to {held}"
            + (f"; so can every other lead ({others})." if others else "."))
    notation = deal.to_notation().strip()
    return (f"=== puzzle\nlevel: {level}\ntitle: TITLE\nseat: {seat}\ntarget: {target}\n"
            f"goal: {score_goal(deal, target, team)}\nsolution: {text}\n{notation}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="court_piece", choices=cl.GAMES)
    ap.add_argument("--options", default="", help="house rules, e.g. aces_capture=false")
    ap.add_argument("--tricks", type=int, default=4, help="tricks left (3 to 7)")
    ap.add_argument("--count", type=int, default=5, help="candidates to print")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--seeds", type=int, default=400, help="deals to look at")
    ap.add_argument("--max-answers", type=int, default=1, help="first cards that may keep the goal")
    ap.add_argument("--goal", default="max", choices=("max", "deal"),
                    help="max: the most best play reaches; deal: only goals that score")
    args = ap.parse_args()
    rules = cl.Rules.of(args.game, stop_when_decided=False, **parse_options(args.options))
    found = 0
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        deal = position(rules, seed, args.tricks)
        if deal is None or len(deal.legal_cards()) < 3:
            continue
        sol = cl.solve(deal)
        target = max(sol.values.values())
        if args.goal == "deal":
            fits = [t for t in scoring_targets(deal) if target >= t > min(sol.values.values())]
            if not fits:
                continue
            target = fits[0]
        answer = [c for c, v in sol.values.items() if v >= target]
        wrong = [c for c, v in sol.values.items() if v < target]
        tempting = cl.bots.RuleBot().choose(deal)
        if not wrong or len(answer) > args.max_answers or tempting in answer:
            continue
        found += 1
        print(f"=== candidate {found}: seed {seed}, {len(wrong)} of {len(sol.values)} first "
              f"cards miss, RuleBot plays {tempting}")
        print(f"target: {target}\nanswer: {' '.join(str(c) for c in answer)}")
        print(f"goal: {goal_words(deal, 0, target)}")
        print(deal.to_notation())
        print("\n".join(diagram(deal)))
        if args.goal == "deal":
            print("--- ladder entry")
            print(entry(deal, target, args.tricks - 2))
        print("best play:")
        print("\n".join(best_line(deal, target, 0)))
        print(flush=True)
        if found == args.count:
            break
    print(f"# {found} candidates in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
