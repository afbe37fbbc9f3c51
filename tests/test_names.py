"""One source for names: seat, team, game and suit words are spelt once, in the language
module (courtlearn/language.py, where they are marked for translation) and Suit
(courtlearn/cards.py), and everything else asks them (through Rules and Suit)."""
import re
from pathlib import Path

import pytest

import courtlearn as cl

PACKAGE = Path(cl.__file__).parent
# a table of names: two or more quoted seat, team, game or suit words on one line of code
TABLE_WORD = re.compile(r"""["'](North|South|East|West|North–South|East–West|North\\u2013South|"""
                        r"""East\\u2013West|spades|hearts|clubs|diamonds|Court Piece|Double Sir|"""
                        r"""Dehla Pakad)["']""")
OWNERS = {"language.py", "cards.py"}


def _code_lines(path: Path):
    """The lines of code: comments and docstrings (examples and their output) left out."""
    in_doc = False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        quotes = line.count('"""')
        if in_doc or quotes:
            if quotes % 2:
                in_doc = not in_doc
            continue
        if stripped.startswith(("#", "//", "*", ">>>", "...")):
            continue
        yield n, line


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".js")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_second_copy_of_a_name_table(path):
    if path.name in OWNERS:
        return
    found = [f"{path.name}:{n}: {line.strip()}" for n, line in _code_lines(path)
             if len(TABLE_WORD.findall(line.split(" # ")[0])) >= 2]
    assert found == []


def test_the_check_catches_a_copy(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('SUITS = {"S": "spades", "H": "hearts"}\n', encoding="utf-8")
    assert any(len(TABLE_WORD.findall(line)) >= 2 for _, line in _code_lines(bad))


def test_words_follow_rules_and_suit_everywhere():
    """In another language a seat's name changes in the sentences, the picture and the table,
    all from the one word in the catalog."""
    from courtlearn.language import using
    from courtlearn.render import deal_html
    from courtlearn.widgets.table import snapshot
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    deal.call_trump("S")
    with using("hi"):
        assert "दक्षिण" in deal.events[-2].text
        assert "पश्चिम" in deal_html(deal)
        assert snapshot(deal, 0)["names"]["seats"][0] == "दक्षिण"
    assert "South" in deal.events[-2].text
