"""Write the snapshots the JS tests draw (real ones, from CardTable) to a JSON file.

    .venv/bin/python tests/js/make_fixtures.py build/js/fixtures.json
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import courtlearn as cl  # noqa: E402
from courtlearn.widgets import CardTable  # noqa: E402

HANDS = [
    "AS KS QS JS 2C  5D 6D 7D 8D  10S 9S 8S 7S",   # South
    "AC KC QC JC 10C  9C 8C 7C 6C  5C 4C 3C KD",   # East
    "AH KH QH JH 10H  9H 8H 7H 6H  5H 4H 3H 2H",   # North
    "AD QD JD 10D 9D  4D 3D 2D 6S  5S 4S 3S 2S",   # West
]


def state(table):
    return json.loads(json.dumps(table.state))


def main(out: str) -> None:
    deal = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
    trump_phase = state(CardTable(deal, seat=0))
    deal.call_trump("S")
    deal.play("2C")
    east = CardTable(deal, seat=1)                       # East to play: must follow clubs
    hidden = sorted(c.code for s in (0, 2, 3) for c in deal.hand(s))
    bots = CardTable(cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3),
                     seat=0, bots=cl.bots.RuleBot())
    bots.call_trump("H")
    bots.play("2C")                                       # three bots answer: several frames
    urdu = CardTable(cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3),
                     seat=0, language="ur")
    def fresh(moves="call:S"):
        d = cl.Deal.prearranged(cl.Rules.court_piece(), hands=HANDS, dealer=3)
        d.apply(moves)
        return d

    urdu_hint = CardTable(fresh(), seat=0, language="ur")
    urdu_hint.hint()                                     # the hinted card, tagged in Urdu
    swept = CardTable(fresh("call:S 2C AC 2H"), seat=0)
    swept.play("2D")                                     # the trick completes: it is swept
    fixtures = {"trump_phase": trump_phase, "east_to_play": state(east),
                "urdu_trump_phase": state(urdu),
                "hidden_from_east": hidden, "bots_answer": state(bots),
                "urdu_hint": state(urdu_hint), "swept": state(swept),
                "all_hands": state(CardTable(fresh(), seat=0, show_all=True)),
                # the second trick begun (East won the first with AC and led KC)
                "second_trick": state(CardTable(fresh("call:S 2C AC 2H 2D KC"), seat=0))}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(fixtures, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
