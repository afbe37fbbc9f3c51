"""Double Sir and Dehla Pakad puzzles at levels 3-5 (issue 31): at least eight of each,
every goal one that scores (the deal, the tens that win it, a court or a kot), never a raw
trick count. tests/test_puzzles.py proves each one with the solver like every puzzle."""
from __future__ import annotations

import courtlearn as cl
from courtlearn.rules import team_of
from courtlearn.scoring import final_result

HIGH = [p for p in cl.puzzles.all() if p.level >= 3 and p.game != "court_piece"]


def scoring(p) -> list:
    deal = p.deal
    if p.game == "dehla_pakad":
        dealers = team_of(deal.dealer) == p.team
        return [4, 3 if dealers else 2]
    return [13, 7]


def test_at_least_eight_of_each_pile_game_at_levels_3_to_5():
    for game in ("double_sir", "dehla_pakad"):
        mine = [p for p in HIGH if p.game == game]
        assert len(mine) >= 8, game
        assert len({p.level for p in mine}) >= 2, game


def test_every_goal_scores_and_says_what_it_wins():
    for p in HIGH:
        assert p.target in scoring(p), (p.key, p.target)
        words = {13: "a court", 7: "win the deal", 4: "a kot"}.get(p.target, "win the deal on tens")
        assert words in p.goal, (p.key, p.goal)
        # reaching the target is what scores, by the engine's own scoring: the least the
        # learner's side ends with wins the deal (or the court), one less does not
        rules, dealer = p.deal.rules, p.deal.dealer
        assert p.team == 0

        def outcome(n):
            if p.game == "dehla_pakad":
                return final_result(rules, dealer, (7, 6), (n, 4 - n))
            return final_result(rules, dealer, (n, 13 - n), (0, 0))
        won = outcome(p.target)
        assert won[0] == 0 and (won[1] > 0) == (p.target in (13, 4)), (p.key, won)
        less = outcome(p.target - 1)
        assert less[0] == 1 or less[1] < won[1], (p.key, less)
