"""Double Sir and Dehla Pakad puzzles at levels 3-5 (issue 31): at least eight of each,
every goal one that scores (the deal, the tens that win it, a court or a kot), never a raw
trick count. tests/test_puzzles.py proves each one with the solver like every puzzle."""
from __future__ import annotations

import courtlearn as cl
from courtlearn.rules import team_of

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
        # reaching the target really is the deal (or the court) for the learner's side
        deal = p.deal
        line = p.winning_line()
        while deal.phase == "play":
            if team_of(deal.to_play) == p.team:
                deal.play(line.pop(0))
            else:
                deal.play(cl.puzzles.defend(deal, p.team, p.target))
        assert deal.result.winner == p.team, (p.key, deal.result)     # the deal, scored
        if p.target in (13, 4):
            assert deal.result.courts > 0, (p.key, deal.result)
