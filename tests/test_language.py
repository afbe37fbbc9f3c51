"""courtlearn in Urdu and Hindi: the catalogs are complete and well formed, the language is
chosen as API.md says, and deals played to the end speak no English."""
from __future__ import annotations

import html
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import courtlearn as cl
from courtlearn.language import get_language, text_direction, tr, trn, using
from courtlearn.widgets import CardTable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import messages  # noqa: E402

# a word of English: two or more Latin letters. Card names (K♠, 10♥) have one letter at most,
# and card codes (KH) and code a learner types (call_trump, trump_method='hidden',
# defer_trump(7)) are left out, and so are an address (http://127.0.0.1:8765/: lesson 14's
# join display) and a class code (capitals and digits, DEMO14: what the learners type).
ENGLISH = re.compile(r"[A-Za-z]{2,}")
CODE = re.compile(r"https?://\S+|\b(?=[A-Z0-9]*[0-9])[A-Z0-9]{4,16}\b|\b(?:True|False|None)\b|\b(?:10|[2-9AKQJT])[SHCD]\b|\{\w+\}|\w+\([^)]*\)|\w+=\S+|\w*_\w+|'\w+'")


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(CODE.sub("", text))


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    cl.set_language("en")


# ----------------------------------------------------------------------------- the catalogs
@pytest.mark.parametrize("lang", messages.LANGS)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    assert messages.problems(lang) == []


def test_the_checker_catches_a_wrong_placeholder_and_a_missing_plural(tmp_path, monkeypatch):
    cat = messages.read("ur")
    m = cat.get("{seat} leads {card}.")
    m.string = "{seat} نے {kard} سے چال چلی۔"
    m2 = cat.get(("Took back {n} move.", "Took back {n} moves."))
    m2.string = ("{n} چال واپس لی۔", "")
    path = tmp_path / "ur" / "LC_MESSAGES" / "courtlearn.po"
    messages.write(cat, path)
    monkeypatch.setattr(messages, "po_path", lambda lang: path)
    found = messages.problems("ur")
    assert any("{kard}" in p or "'kard'" in p for p in found), found
    assert any("not translated: ('Took back" in p for p in found), found
    assert len(found) == 2, found


def test_the_template_holds_every_message_of_the_code():
    """`scripts/messages.py extract` was run after the last change of a sentence."""
    committed = {m.id for m in messages.read_po(messages.TEMPLATE.open("rb")) if m.id}
    current = {m.id for m in messages.template() if m.id}
    assert current - committed == set(), "run: python scripts/messages.py extract"
    assert committed - current == set(), "run: python scripts/messages.py extract"


@pytest.mark.parametrize("lang", messages.LANGS)
def test_plural_forms_follow_the_language(lang):
    cat = messages.read(lang)
    assert cat.num_plurals == 2
    with using(lang):
        one, many = trn("{n} court", "{n} courts", 1), trn("{n} court", "{n} courts", 5)
    assert one.startswith("1 ") and many.startswith("5 ")


def test_the_game_words_are_the_players_own():
    words = {"ur": ["حکم", "پان", "چڑی", "اینٹ"], "hi": ["हुकुम", "पान", "चिड़ी", "ईंट"]}
    for lang, suits in words.items():
        with using(lang):
            assert [cl.language.suit_word(s) for s in cl.Suit] == suits
    with using("ur"):
        assert tr("court") == "کوٹ" and tr("tricks") == "سر" and tr("bavney") == "باونی"
        assert cl.Rules.court_piece().team_name(0) == "شمال–جنوب"
    with using("hi"):
        assert tr("court") == "कोट" and tr("tricks") == "हाथ" and tr("tens") == "दहले"
        assert cl.Rules.dehla_pakad().title == "दहला पकड़"


# ----------------------------------------------------------------------------- choosing
def test_set_language_changes_every_sentence_and_back():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    deal.call_trump("S")
    english = [e.text for e in deal.events]
    cl.set_language("ur")
    assert cl.get_language() == "ur"
    urdu = [e.text for e in deal.events]
    assert urdu != english and "حکم" in urdu[1]
    cl.set_language("HI")
    assert cl.get_language() == "hi" and "हुकुम" in deal.events[1].text
    cl.set_language("en")
    assert [e.text for e in deal.events] == english


@pytest.mark.parametrize("bad", ["fr", "urdu", "", None, 3, "en-GB"])
def test_a_wrong_language_is_refused_and_nothing_changes(bad):
    cl.set_language("hi")
    with pytest.raises(ValueError, match=r'is not a language courtlearn speaks: choose "en" '
                                         r'\(English\), "ur" \(اردو\), "hi" \(हिंदी\)'):
        cl.set_language(bad)
    assert cl.get_language() == "hi"
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    with pytest.raises(ValueError, match="is not a language"):
        CardTable(deal, language=bad if bad is not None else "xx")
    assert cl.get_language() == "hi"


def _run(code: str, value: str | None) -> subprocess.CompletedProcess:
    """``code`` in a new Python with COURTLEARN_LANG set to ``value`` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "COURTLEARN_LANG"}
    env["PYTHONPATH"] = str(ROOT)
    if value is not None:
        env["COURTLEARN_LANG"] = value
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)


def test_the_environment_variable_chooses_when_nothing_else_does():
    code = ("import courtlearn as cl; d = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7);"
            "print(cl.get_language(), d.events[0].text)")
    out = _run(code, "hi")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("hi पश्चिम"), out.stdout
    # set_language wins over the environment
    code2 = "import courtlearn as cl; cl.set_language('ur'); print(cl.get_language())"
    out = _run(code2, "hi")
    assert out.stdout.strip() == "ur", out.stderr


# Every call a learner makes, under a value of COURTLEARN_LANG: what language is spoken, and
# the warnings given (all of them shown, so that "once" is courtlearn's doing, not Python's).
PROBE = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import courtlearn as cl
    said = {"lang": cl.get_language()}
    try:
        cl.Card.parse("ZZ")
    except ValueError as err:
        said["card"] = str(err)
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    said["event"] = deal.events[0].text
    said["check"] = cl.puzzles.puzzle(1, 1).check(["AS"], quiet=True, record=False).message
    said["again"] = cl.get_language()
    cl.set_language("hi")
    said["chosen"] = cl.get_language()
said["warnings"] = [str(w.message) for w in caught]
print(json.dumps(said))
"""


@pytest.mark.parametrize("value, lang", [
    (None, "en"), ("", "en"), ("   ", "en"), ("UR", "ur"), (" hi ", "hi"), ("ur_PK", "ur"),
    ("hi-IN", "hi"), ("en_US.UTF-8", "en"), ("ur_PK.UTF-8", "ur"), ("HI_in.utf8", "hi")])
def test_the_environment_variable_takes_a_code_or_a_locale_in_any_case(value, lang):
    out = _run(PROBE, value)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout)
    assert said["warnings"] == [] and out.stderr == ""
    assert said["lang"] == said["again"] == lang and said["chosen"] == "hi"
    english = said["event"] == "West deals five cards to each player, starting with South, the " \
                               "trump caller."
    assert english == (lang == "en")
    assert "cannot be played by" in said["check"] or lang != "en"


@pytest.mark.parametrize("value", ["fr", "klingon", "C", "fr_FR.UTF-8", "en-", "x" * 500,
                                   "urdu"])
def test_a_wrong_environment_variable_is_warned_about_once_and_english_is_spoken(value):
    """Every call used to raise about the language; a check, documented never to raise,
    too."""
    out = _run(PROBE, value)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout)
    assert said["lang"] == said["again"] == "en" and said["chosen"] == "hi"
    assert said["card"].startswith("'ZZ' is not a card")
    assert said["event"].startswith("West deals five cards")
    assert "cannot be played by South" in said["check"]
    [warning] = said["warnings"]
    assert "COURTLEARN_LANG" in warning and "English is used" in warning
    assert '"ur" (اردو)' in warning and "ur_PK" in warning
    assert repr(value[:20])[:-1] in warning and len(warning) < 400   # a short prefix only


def test_an_unreadable_catalog_named_by_the_environment_falls_back_to_english(monkeypatch):
    """COURTLEARN_LANG=ur in a copy that cannot read the Urdu catalog (no Babel to compile
    it): one warning, English, instead of an error in every sentence."""
    from courtlearn import language

    def broken(lang):
        raise RuntimeError("the catalog is not compiled and Babel is not installed")
    monkeypatch.setattr(language, "_load", broken)
    monkeypatch.setattr(language, "_catalogs", {})
    monkeypatch.setattr(language, "_chosen", None)
    monkeypatch.setattr(language, "_from_env", (None, "en"))
    monkeypatch.setenv("COURTLEARN_LANG", "ur_PK")
    with pytest.warns(UserWarning, match="Babel is not installed") as caught:
        assert [get_language(), get_language()] == ["en", "en"]
        assert tr("court") == "court"
    assert len(caught) == 1
    monkeypatch.delenv("COURTLEARN_LANG")
    assert get_language() == "en"


def test_using_is_for_one_block_only():
    with using("ur"):
        assert get_language() == "ur" and text_direction() == "rtl"
        with using("hi"):
            assert get_language() == "hi" and text_direction() == "ltr"
        assert get_language() == "ur"
    assert get_language() == "en"


def test_a_repr_stays_english_for_programs():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    cl.set_language("ur")
    assert repr(deal) == "<Deal court_piece dealer=West, South to fix the trump, tricks 0-0>"
    assert "South" in repr(CardTable(deal))
    assert cl.SEAT_NAMES == ("South", "East", "North", "West")


def test_a_table_keeps_its_own_language():
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    urdu = CardTable(deal, seat=0, language="ur")
    plain = CardTable(deal, seat=0)
    frame = urdu.state["frames"][-1]
    assert frame["lang"] == "ur" and frame["dir"] == "rtl"
    assert frame["names"]["seats"][0] == "جنوب" and frame["words"]["hint"] == "اشارہ"
    assert set(urdu.fonts) == {"Noto Nastaliq Urdu", "Noto Sans Devanagari"}
    assert len(urdu.fonts["Noto Nastaliq Urdu"]) > 100_000
    assert plain.state["frames"][-1]["lang"] == "en" and plain.fonts == {}
    # a refusal at the Urdu table is in Urdu, the global language untouched
    urdu._on_msg(None, {"type": "call_trump", "suit": "X", "id": 1})
    assert "میز نے" in urdu.state["frames"][-1]["message"]
    with pytest.raises(ValueError) as err:
        urdu.play("AS")
    assert "call_trump" in str(err.value) and english_words(str(err.value)) == [], str(err.value)
    assert get_language() == "en"
    urdu.call_trump("S")
    assert "حکم" in urdu.state["frames"][-1]["message"] or "حکم" in str(urdu.state)
    hindi = CardTable(deal, seat=0, language="hi")
    assert hindi.fonts["Noto Sans Devanagari"][:4] == b"wOF2"
    assert hindi.state["frames"][-1]["dir"] == "ltr"


# ----------------------------------------------------------------------------- no English
def _english(texts):
    return [t for t in texts if english_words(t)]


VARIANTS = [
    cl.Rules.court_piece(stop_when_decided=False),
    cl.Rules.court_piece(trump_method="hidden"),
    cl.Rules.court_piece(trump_method="hidden_random", allow_deferred=False),
    cl.Rules.court_piece(revokes="allowed"),
    cl.Rules.double_sir(),
    cl.Rules.double_sir(trump_method="first_void"),
    cl.Rules.dehla_pakad(),
    cl.Rules.dehla_pakad(trump_method="first_void", tens_tie="tricks"),
]


def _play_out(rules, seed):
    """A deal played to the end by bots, with a wrong card tried before every play."""
    rng = random.Random(seed)
    deal = cl.Deal(rules, dealer=seed % 4, seed=seed)
    refusals = []
    bot = cl.bots.RuleBot()
    while deal.phase != "over":
        if deal.phase == "play":
            hand = deal.hand(deal.to_play)
            others = [c for c in cl.deck() if c not in deal.legal_cards()]
            wrong = rng.choice(others)
            try:
                deal.play(wrong)
            except ValueError as err:
                refusals.append(getattr(err, "reason", None) or str(err))
            if deal.can_ask_for_trump() and rng.random() < 0.5:
                deal.ask_for_trump()
                continue
            if rules.revokes == "allowed" and rng.random() < 0.1:
                off = [c for c in hand if deal.trick.cards and c.suit != deal.trick.cards[0][1].suit]
                if off and deal.can_play(off[0]):
                    deal.play(off[0])
                    if deal.phase == "play" and deal.can_correct_revoke():
                        deal.correct_revoke()
                    continue
        cl.bots.act(bot, deal)
        if deal.phase == "over" and deal.can_play_on():
            deal.play_on()
    return deal, refusals


@pytest.mark.parametrize("lang", messages.LANGS)
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.game}-{r.trump_method}-{r.revokes}")
def test_a_deal_played_to_the_end_speaks_no_english(lang, rules):
    cl.set_language(lang)
    texts = []
    for seed in range(6):
        deal, refusals = _play_out(rules, seed)
        texts += [e.text for e in deal.events] + refusals
        texts += [e.text for s in range(4) for e in deal.view(s).events]
        assert deal.result is not None
    assert len(texts) > 300
    assert _english(texts) == []


@pytest.mark.parametrize("lang", messages.LANGS)
def test_a_session_and_its_table_speak_no_english(lang):
    cl.set_language(lang)
    session = cl.Session(cl.Rules.court_piece(), seed=3)
    texts = []
    for _ in range(4):
        while session.deal.phase != "over":
            cl.bots.act(cl.bots.RuleBot(), session.deal)
        texts += [e.text for e in session.events]
        session.next_deal()
    assert _english(texts) == []
    table = CardTable(session, seat=0, bots=cl.bots.RuleBot())
    frame = table.state["frames"][-1]
    shown = [frame["title"], frame["message"], frame["score"] or "", frame["trump_note"] or "",
             *frame["names"]["seats"], *frame["names"]["teams"],
             *(s["plural"] for s in frame["names"]["suits"].values()),
             *frame["names"]["ranks"].values(), *frame["words"].values()]
    assert _english(shown) == [], _english(shown)


@pytest.mark.parametrize("lang", messages.LANGS)
def test_the_exercises_ask_and_answer_in_the_language(lang, capsys):
    """Every kind's questions, help and feedback speak the language, and the solution as the
    language writes it is read back as correct (answers in English are still understood)."""
    from courtlearn import exercises as ex
    cl.set_language(lang)
    texts = [*ex.TITLES.values(), *ex.RULES.values()]
    for kind in ex.KINDS + ex.PLAY_KINDS:
        for q in [ex.question(kind, n) for n in range(1, ex.count(kind) + 1)] + \
                 [ex.question(kind, seed=s) for s in range(2)]:
            texts += [repr(q), q.solution, q.reason, q.answer_help]
            assert q.check(q.solution).correct is True, (kind, q.solution)
            for wrong in ("AS", "2C", "North", "nobody", "court", 7, "ZZ"):
                fb = q.check(wrong)
                texts.append(fb.message)
    capsys.readouterr()
    assert _english(texts) == [], _english(texts)[:5]
    with pytest.raises(ValueError) as err:
        ex.question("trick_winner", 99)
    assert english_words(str(err.value)) == [], str(err.value)


def test_every_marked_sentence_reaches_the_catalog():
    """A tr("...") that Babel cannot see (inside an f-string, say) would stay English:
    every literal handed to tr/trn/N_ in the package begins a message of the template."""
    import ast
    ids = [m.id for m in messages.read_po(messages.TEMPLATE.open("rb")) if m.id]
    starts = {i if isinstance(i, str) else i[0] for i in ids}
    found = []
    call = re.compile(r"""\b(?:tr|trn|N_)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""")
    for path in sorted((ROOT / "courtlearn").rglob("*.py")):
        for m in call.finditer(path.read_text(encoding="utf-8")):
            text = ast.literal_eval(m.group(1))
            if not any(s.startswith(text) for s in starts):
                found.append(f"{path.name}: {text!r}")
    assert len(found) == 0, found


@pytest.mark.parametrize("lang", messages.LANGS)
def test_the_puzzles_speak_the_language(lang, tmp_path, monkeypatch):
    """Titles, goals and write-ups of the whole ladder, the checker's verdicts and the
    puzzle table's own words."""
    monkeypatch.setenv("COURTLEARN_PROGRESS", str(tmp_path / "progress.json"))
    cl.set_language(lang)
    ladder = cl.puzzles.all()
    texts = [t for p in ladder for t in (p.heading, p.goal, p.solution, str(p))]
    for p in ladder[::9]:
        texts.append(cl.puzzles.goal_words(p.deal, p.seat, p.target))
        texts.append(p.check(list(p.answer), quiet=True, record=False).message)
        wrong = [c for c in p.deal.legal_cards() if c != p.answer[0]][:1]
        texts.append(p.check(wrong, quiet=True, record=False).message)
        texts.append(p.check(..., quiet=True, record=False).message)
    texts.append(p._repr_html_())
    app = cl.puzzles.play(level=1)
    texts += [app.header.value, app.again_button.description, app.solution_button.description,
              app.next_button.description, app.progress_label.value,
              app.table.state["frames"][-1]["message"]]
    assert _english([re.sub(r"<[^>]+>", " ", t) for t in texts]) == []


# ----------------------------------------------------------------------------- the lessons
LESSON_TEXTS = sorted(p for folder in ("notebooks", "exercises") for lang in messages.LANGS
                      for p in (ROOT / folder / ".text" / lang).glob("*.md"))


def test_lesson_00_is_in_both_languages_with_the_glossary():
    for lang in messages.LANGS:
        text = (ROOT / "notebooks" / ".text" / lang / "00_start_here.md").read_text(encoding="utf-8")
        # the trilingual glossary: the game's words in English, Urdu and Hindi, side by side
        for row in (("trumps", "رنگ", "रंग"), ("court", "کوٹ", "कोट"), ("bavney", "باونی", "बावनी"),
                    ("spades, hearts, clubs, diamonds", "حکم، پان، چڑی، اینٹ", "हुकुम, पान, चिड़ी, ईंट"),
                    ("centre pile", "بیچ کی ڈھیری", "बीच की ढेरी"), ("ten", "دہلا", "दहला")):
            assert any(all(w in line for w in row) for line in text.splitlines()), (lang, row)


@pytest.mark.parametrize("source", LESSON_TEXTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_translated_lesson_sets_its_language_and_has_an_english_original(source):
    lang = source.parent.name
    text = source.read_text(encoding="utf-8")
    assert f'cl.set_language("{lang}")' in text
    assert (source.parent.parent / source.name).exists(), "translated from an English lesson"
    built = source.parents[2] / lang / (source.stem + ".ipynb")
    assert built.exists(), f"run: python scripts/build_notebooks.py {lang}/{source.stem[:2]}"
    import nbformat                     # prose marked with its language, Urdu right to left
    opening = '<div dir="rtl" lang="ur">' if lang == "ur" else f'<div lang="{lang}">'
    for cell in nbformat.read(built, as_version=4).cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            assert cell.source.startswith(opening), cell.source[:60]
        else:
            assert "dir=" not in cell.source


def test_the_readme_says_how_to_start_in_each_language():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for lang, heading in (("ur", "### اردو میں شروع کیجیے"), ("hi", "### हिंदी में शुरू कीजिए")):
        part = readme.split(heading, 1)[1].split("\n#", 1)[0]
        assert f"notebooks/{lang}/00_start_here.ipynb" in part
        assert (ROOT / "notebooks" / lang / "00_start_here.ipynb").exists()
        assert f'cl.set_language("{lang}")' in part
    assert '<div dir="rtl" lang="ur">' in readme.split("### اردو میں", 1)[0][-40:]


@pytest.mark.parametrize("lang", messages.LANGS)
def test_the_translated_notebooks_print_no_english(lang):
    """What the Urdu and Hindi notebooks print (their stored outputs) is all in the language."""
    import nbformat
    said = []
    for folder in ("notebooks", "exercises"):
        for path in sorted((ROOT / folder / lang).glob("*.ipynb")):
            for cell in nbformat.read(path, as_version=4).cells:
                for out in cell.get("outputs", []):
                    if out.get("output_type") == "stream":
                        # the deal notation is a file format: its keys stay as they are
                        said.append(re.sub(r"(?m)^(# courtlearn deal|rules:|dealer:|seed:|hand \d:"
                                           r"|moves:).*$", "", out["text"]))
                    elif 'class="dataframe"' in out.get("data", {}).get("text/html", ""):
                        continue          # a pandas frame is data: English names by design
                    elif "text/html" in out.get("data", {}):
                        said.append(html.unescape(re.sub(r"<[^>]+>", " ",
                                                         out["data"]["text/html"])))
    assert len(said) > 20
    assert _english(said) == [], _english(said)[:3]


def test_the_pandas_views_are_data_in_english_whatever_the_language():
    """A frame is for code (filters like frame.player == "North"): its names do not move."""
    pytest.importorskip("pandas")
    cl.set_language("ur")
    deal = cl.Deal(cl.Rules.double_sir(), dealer=3, seed=2)
    while deal.phase != "over":
        cl.bots.act(cl.bots.RuleBot(), deal)
    frame = deal.history()
    assert set(frame.player) == set(cl.SEAT_NAMES) and set(frame.team) == set(cl.TEAM_NAMES)
    sim = cl.simulate(cl.Rules.court_piece(), deals=5, seed=1, progress=False)
    assert set(sim.dealer) <= set(cl.SEAT_NAMES)
    assert get_language() == "ur" and "جنوب" in deal.events[0].text


@pytest.mark.parametrize("lang", messages.LANGS)
def test_every_lesson_and_exercise_is_in_the_language(lang):
    for folder in ("notebooks", "exercises"):
        english = sorted(p.name for p in (ROOT / folder).glob("*.ipynb"))
        translated = sorted(p.name for p in (ROOT / folder / lang).glob("*.ipynb"))
        assert translated == english, (folder, lang)


@pytest.mark.parametrize("lang", messages.LANGS)
def test_the_page_words_keep_their_placeholders_for_the_page(lang):
    """table.js fills {n}, {value}, {card}...: Python must hand them over unfilled."""
    from courtlearn.widgets.table import page_words
    english = page_words()
    with using(lang):
        words = page_words()
    assert set(words) == set(english)
    for key, text in english.items():
        assert messages.fields(words[key]) == messages.fields(text), (key, words[key])
    assert english["tricks_one"] == "{n} trick" and english["tricks"] == "{n} tricks"


# ----------------------------------------------------------------------------- grammar (issue 30)
def _card(code):
    return cl.Card.parse(code)


def _refusal(deal, card):
    with pytest.raises(ValueError) as err:
        deal.play(card)
    return getattr(err.value, "reason", None) or str(err.value)


def test_one_card_held_is_singular_and_more_are_plural():
    """«ان کے پاس 9♥ ہیں» said 'holds' in the plural for one card: a refusal agrees with the
    number of cards it names, in Urdu and Hindi (English says it alike for both)."""
    def east_refused(east, lang):
        south = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S AH KH"
        west = "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"
        taken = set((south + " " + east + " " + west).split())
        north = " ".join(c.code for c in cl.deck() if c.code not in taken)
        deal = cl.Deal.prearranged(cl.Rules.court_piece(), [south, east, north, west], dealer=3)
        deal.call_trump("D")
        deal.play("AS")                            # East must follow with a spade
        with using(lang):
            return _refusal(deal, _card("QC"))
    alone = "2S KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"
    two = "2S 3S QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"
    for lang, singular, plural in (("ur", "ہے۔", "ہیں۔"), ("hi", "है।", "हैं।")):
        text = east_refused(alone, lang)
        assert "2♠" in text and text.endswith(singular), text
        text = east_refused(two, lang)
        assert "3♠ 2♠" in text and text.endswith(plural), text
    assert east_refused(alone, "en") == "East cannot play Q♣: spades were led and East holds 2♠."
    assert east_refused(two, "en") == "East cannot play Q♣: spades were led and East holds 3♠ 2♠."


def test_the_trick_sentence_names_the_suit_as_a_suit():
    """«A♣ سب سے بڑا چڑی ہے» made a card out of a (feminine) suit name: the sentence says the
    highest card of the suit, and each event of play is told in the perfective past."""
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    deal.call_trump("S")
    while len(deal.tricks) < 3:
        cl.bots.act(cl.bots.RuleBot(), deal)
    for lang, card_of_suit, did in (("ur", "کا سب سے بڑا پتّا", " نے "), ("hi", "का सबसे बड़ा पत्ता", " ने ")):
        with using(lang):
            tricks = [e.text for e in deal.events if e.kind == "trick"]
            past = [e.text for e in deal.events if e.kind in ("deal_first", "deal_rest", "call", "play", "trick")]
        assert tricks and all(did in t for t in tricks), tricks
        assert any(card_of_suit in t for t in tricks) or all("رنگ" in t or "रंग" in t for t in tricks)
        assert all(did in t for t in past), [t for t in past if did not in t][:3]
    with using("ur"):
        for suit in cl.Suit:
            text = tr("{seat} wins the trick: {card} is the highest {suit}.", seat="جنوب", card="A♣",
                      suit=cl.language.suit_word(suit, one=True))
            assert "سب سے بڑا " + cl.language.suit_word(suit, one=True) not in text


@pytest.mark.parametrize("lang", messages.LANGS)
def test_a_seat_is_one_player(lang):
    """Seats are singular (a seat is one player): no honorific plural after a seat's name in
    the messages that say what a seat can or may do."""
    plural = {"ur": re.compile(r"سکتے|بانٹیں گے|کھلواتے|ان کے پاس|نہیں جیتتے"),
              "hi": re.compile(r"सकते|बाँटेंगे|खुलवाते|उनके पास|नहीं जीतते")}[lang]
    wrong = []
    for m in messages.read(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        if not m.id or not ids[0].startswith(("{seat}", "Then {seat}", "Which cards may {seat}",
                                               "card {n} of your line", "{card} is not one of")):
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if any(plural.search(s) for s in strings):
            wrong.append(f"{ids[0]!r} -> {strings[0]!r}")
    assert wrong == [], wrong


def test_the_auto_play_box_says_the_bots_play():
    """«خود کھیلیں» / «ख़ुद खेलें» told the learner to play by themselves; the box lets the
    bots answer by themselves."""
    for lang, bots in (("ur", "کمپیوٹر"), ("hi", "कंप्यूटर")):
        with using(lang):
            assert bots in tr("Auto-play"), tr("Auto-play")


def test_lists_and_arrows_follow_the_language():
    """The trick lines of the exercises point at the winner the way the language reads (← in
    Urdu: → pointed back at the first card), and lists use the language's comma."""
    from courtlearn.exercises._base import trick_line
    from courtlearn.language import arrow, list_separator, or_words
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=7)
    deal.call_trump("S")
    for _ in range(4):
        cl.bots.act(cl.bots.RuleBot(), deal)
    trick = deal.tricks[0]
    english = trick_line(deal.rules, trick, 1)
    assert " → " in english and english.count(", ") == 3
    with using("ur"):
        urdu = trick_line(deal.rules, trick, 1)
        assert arrow() == "←" and list_separator() == "، " and or_words(["A", "B", "C"]) == "A، B یا C"
    assert " ← " in urdu and "→" not in urdu and ", " not in urdu and urdu.count("، ") == 3, urdu
    with using("hi"):
        hindi = trick_line(deal.rules, trick, 1)
    assert " → " in hindi, hindi
    # the solver's and the coach's lists of cards
    deal = cl.Deal(cl.Rules.court_piece(), dealer=3, seed=11)
    deal.call_trump("H")
    while len(deal.tricks) < 9:
        cl.bots.act(cl.bots.RuleBot(), deal)
    with using("ur"):
        said = cl.solve(deal).text
    assert ", " not in said, said
