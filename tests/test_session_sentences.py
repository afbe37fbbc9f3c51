"""The session's sentence about a deal that scored courts says it in words (issue 30: no raw
code a learner reads): never "score 1 court (goon)" or "(revoke)", in English, Urdu and
Hindi; and the built notebooks that print these sentences show none of the old codes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import courtlearn as cl
from courtlearn.explain import session_text
from courtlearn.language import using

ROOT = Path(__file__).resolve().parents[1]
CP = cl.Rules.court_piece(revokes="allowed")
KINDS = [("court", 1), ("goon", 1), ("goon", 3), ("bavney", 52), ("kot", 1), ("revoke", 1)]


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_every_kind_of_court_is_said_in_words(lang):
    seen = set()
    with using(lang):
        for kind, courts in KINDS:
            text = session_text("deal_won", (1, courts, kind), CP)
            assert "(" not in text and ")" not in text, (kind, text)
            assert cl.language.team_word(1) in text, text
            if courts > 1:
                assert str(courts) in text, text
            if lang != "en":                 # translated: no English word left in it
                assert not re.search("[A-Za-z]", text), (kind, text)
            seen.add(text)
    assert len(seen) == len(KINDS)           # each kind its own sentence


def _revoke_claimed(session):
    """West revokes at the first chance; North claims it: a court for North–South."""
    deal = session.deal
    deal.call_trump("S")
    while True:
        seat = deal.to_play
        off = [c for c in deal.hand(seat) if c not in deal.legal_cards()]
        if seat == 3 and deal.trick.cards and off:
            deal.play(off[0])
            break
        deal.play(deal.legal_cards()[0])
    while deal.trick.cards:
        deal.play(deal.legal_cards()[0])
    deal.claim_revoke(0)
    assert deal.result.kind == "revoke"


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_a_claimed_revoke_in_a_session_reads_as_a_sentence(lang):
    session = cl.Session(CP, seed=3, dealer=1)
    _revoke_claimed(session)
    with using(lang):
        texts = [e.text for e in session.events]
    assert len(texts) >= 2 and all("(" not in t for t in texts), texts
    if lang == "en":
        assert texts[0] == "North–South score a court for the revoke they claimed."


OLD_CODES = re.compile(r"courts? \((?:court|goon|bavney|revoke|kot|tens|tricks)\)"
                       r"|کوٹ مل[اے] \(|कोट मिल[ाे] \(")


def _outputs(path, html=True):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            for text in (out.get("text"), *(data.values() if html else [data.get("text/plain")])):
                if isinstance(text, (str, list)):
                    yield "".join(text) if isinstance(text, list) else text


def test_no_built_notebook_prints_a_courts_code():
    found = []
    for path in sorted(ROOT.glob("notebooks/**/*.ipynb")) + sorted(ROOT.glob("exercises/**/*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        for text in _outputs(path):
            found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in OLD_CODES.finditer(text)]
    assert not found, found


@pytest.mark.parametrize("lang", ["", "ur/", "hi/"])
def test_lesson_06_says_one_thing_a_line(lang):
    """Lesson 06's edge case printed "…won a goon court: West deals next: …": the result
    and the session's sentence run together with two colons."""
    path = ROOT / f"notebooks/{lang}06_who_deals_next.ipynb"
    lines = [line for text in _outputs(path, html=False) for line in text.splitlines()]
    assert len(lines) > 5
    doubled = [line for line in lines if line.count(":") >= 2]
    assert not doubled, doubled
