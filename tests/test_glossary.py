"""The Urdu and Hindi lessons, exercises and catalogs use the glossary's words
(courtlearn/locale/glossary.py) for suit, trump, trick, chance and the coach, and never a
banned one (issue 30: رنگ / रंग was both trump and suit, موقع / मौक़ा an opportunity where a
probability was meant, ख़ाना a notebook cell, हाथ both a trick and a player's cards...)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from courtlearn.locale import glossary

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import messages  # noqa: E402

LANGS = ("ur", "hi")
#: the English that says the idea, and the word each language must then use
IDEAS = {
    "suit": (r"\bsuits?\b", {"ur": r"سوٹ", "hi": r"सूट"}),
    # a trump is رنگ / रंग; to trump (ruff) is کاٹنا / काटना
    "trump": (r"\btrump", {"ur": r"رنگ|کاٹ|کٹ", "hi": r"रंग|काट|कट"}),
    "trick": (r"\btricks?\b", {"ur": r"(?<!\w)سر(?:وں)?(?!\w)", "hi": r"हाथ"}),
    "chance": (r"\bchances?\b", {"ur": r"امکان", "hi": r"संभावना"}),
    "coach": (r"\bcoach", {"ur": r"کوچ", "hi": r"कोच"}),
}
#: English where "chance" is an opportunity, not a probability (its translation says so)
OPPORTUNITY = re.compile(r"gives it that chance|trump's one chance")
#: the words that belong to one idea only: found in a translation, the English must say it
ONLY_FOR = {
    "ur": [(r"رنگ", r"\btrump|\bruff|\bRang\b|\bcall|\bdefer|^Court Piece$"), (r"استاد", r"\bteacher"),
           (r"کوچ", r"\bcoach")],
    "hi": [(r"रंग", r"\btrump|\bruff|\bRang\b|\bcall|\bdefer|^Court Piece$"), (r"शिक्षक", r"\bteacher"),
           (r"कोच", r"\bcoach")],
}

TEXTS = sorted(p for folder in ("notebooks", "exercises") for lang in LANGS
               for p in (ROOT / folder / ".text" / lang).glob("*.md"))


def _catalog(lang):
    """[(English, translation)] of every translated message (plural forms joined)."""
    pairs = []
    for m in messages.read(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not m.id or not any(strings):
            continue                    # not translated yet: scripts/messages.py check says so
        pairs.append((" / ".join(ids), " / ".join(strings)))
    return pairs


_CATALOGS = {}


def catalog(lang):
    if lang not in _CATALOGS:
        _CATALOGS[lang] = _catalog(lang)
    return _CATALOGS[lang]


def _english_words(text):
    """English prose without placeholders and code ({suit}, call_trump, 'trumps=...')."""
    return re.sub(r"\{[^}]*\}|\w*_\w+|`[^`]*`", " ", text)


# ----------------------------------------------------------------------------- the catalogs
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("idea", sorted(IDEAS))
def test_the_catalog_says_each_idea_with_the_glossary_word(lang, idea):
    english, words = IDEAS[idea]
    wrong = []
    for en, text in catalog(lang):
        said = _english_words(en)
        if not re.search(english, said, re.I):
            continue
        if idea == "chance" and OPPORTUNITY.search(en):
            continue
        if not re.search(words[lang], text):
            wrong.append(f"{en!r} -> {text!r}")
    assert wrong == [], f"{len(wrong)} messages say {idea!r} without {words[lang]}:\n" + \
        "\n".join(wrong[:15])


@pytest.mark.parametrize("lang", LANGS)
def test_a_word_of_one_idea_is_used_only_for_it(lang):
    """رنگ / रंग only where the English speaks of trumps; the teacher and the coach apart."""
    wrong = []
    for en, text in catalog(lang):
        for word, english in ONLY_FOR[lang]:
            if re.search(word, text) and not re.search(english, _english_words(en), re.I):
                wrong.append(f"{word}: {en!r} -> {text!r}")
    assert wrong == [], "\n".join(wrong[:15])


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalog_has_no_banned_word(lang):
    found = [(en[:60], hit) for en, text in catalog(lang) for hit in glossary.banned_in(lang, text)]
    assert found == [], "\n".join(map(str, found[:15]))


# ----------------------------------------------------------------------------- the lessons
@pytest.mark.parametrize("source", TEXTS, ids=lambda p: f"{p.parts[-4]}/{p.parent.name}/{p.stem}")
def test_a_lesson_has_no_banned_word(source):
    lang = source.parent.name
    found = glossary.banned_in(lang, source.read_text(encoding="utf-8"))
    assert found == [], "\n".join(map(str, found[:15]))


@pytest.mark.parametrize("source", TEXTS, ids=lambda p: f"{p.parts[-4]}/{p.parent.name}/{p.stem}")
def test_a_lesson_says_each_idea_of_its_english_with_the_glossary_word(source):
    lang = source.parent.name
    english = _english_words((source.parent.parent / source.name).read_text(encoding="utf-8"))
    text = source.read_text(encoding="utf-8")
    missing = [idea for idea, (en, words) in IDEAS.items()
               if len(re.findall(en, english, re.I)) >= 2 and not re.search(words[lang], text)]
    assert missing == [], f"{source.name} ({lang}) never says {missing} with the glossary's words"


# ----------------------------------------------------------------------------- the glossary
def test_one_word_per_idea():
    """No word of the glossary stands for two ideas (رنگ is trumps, never a suit)."""
    for lang in LANGS:
        heads = {}
        for t in glossary.TERMS.values():
            head = getattr(t, lang).split(" (")[0].split("؛")[0].split(";")[0]
            assert head not in heads or heads[head] in ("trumps", "a_trump", "trump_card"), \
                (lang, head, heads.get(head), t.key)
            heads.setdefault(head, t.key)
    assert glossary.TERMS["suit"].ur != glossary.TERMS["trumps"].ur
    assert glossary.TERMS["trick"].hi not in glossary.TERMS["hand"].hi


def test_the_checks_catch_the_old_words():
    """Sentences of the texts as they were are caught (so the tests above can fail)."""
    old = {"ur": ["کسی اور پتّے کا بڑا پتّا کبھی نہیں جیتتا", "درجہ اور رنگ لکھیے",
                  "جوڑی کا موقع بہترین کے دسویں حصے کے اندر", "خود کھیلیں", "ملکہ سے پہلے رنگ"],
           "hi": ["पहले हाथ में एक ख़ाना चलाइए", "सर दक्षिण का", "«हिन्दी»", "जीतने का मौक़ा",
                  "उसके हाथ में तीन पत्ते", "कोई और रंग आज़माइए", "इबारत लिखिए"]}
    for lang, sentences in old.items():
        for s in sentences:
            assert glossary.banned_in(lang, s), (lang, s)
    assert glossary.banned_in("hi", "डबल सर में हर हाथ (सर) गिना जाता है") == []


def test_the_readable_glossary_is_current():
    path = ROOT / "courtlearn" / "locale" / "GLOSSARY.md"
    assert path.read_text(encoding="utf-8") == glossary.markdown(), \
        "run: python courtlearn/locale/glossary.py > courtlearn/locale/GLOSSARY.md"
