"""The game's words in Urdu and Hindi: ONE word for each idea, the same in every lesson,
exercise, puzzle and message (issue 30, "Urdu and Hindi say the same thing").

Translators and everyone who writes an Urdu or Hindi sentence follow this table. The
readable copy, ``courtlearn/locale/GLOSSARY.md``, is written from it
(``python courtlearn/locale/glossary.py > courtlearn/locale/GLOSSARY.md``), and
``tests/test_glossary.py`` checks the lessons, the exercises and the catalogs against it:
the words for suit, trump, trick, chance and coach are used where the English says them,
and the words in :data:`BANNED` (a second meaning, an old spelling) never appear.

>>> TERMS["suit"].ur, TERMS["suit"].hi
('سوٹ', 'सूट')
>>> TERMS["trick"].hi                     # Indian players' own word; सर is Double Sir's
'हाथ'
>>> TERMS["trumps"].ur == TERMS["trumps"].ur != TERMS["suit"].ur
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Term", "TERMS", "BANNED", "RULES", "markdown", "banned_in"]


@dataclass(frozen=True)
class Term:
    """One idea of the game: its English, the Urdu and the Hindi word, and why."""
    key: str
    en: str
    ur: str
    hi: str
    why: str


_T = [
    # --------------------------------------------------------------- cards and suits
    Term("card", "card", "پتّا (پتّے)", "पत्ता (पत्ते)",
         "One card, never a suit: «کسی اور پتّے کا بڑا پتّا» read 'a high card of another card'."),
    Term("suit", "suit", "سوٹ", "सूट",
         "رنگ / रंग is trumps only and پتّا / पत्ता is one card; सूट is what Indian card "
         "players (rummy, bridge) say, and سوٹ reads the same to a Pakistani player."),
    Term("suit_led", "the suit led", "چال کا سوٹ", "चाल का सूट",
         "The suit of the trick's first card; «چال والا پتّا» read as the one card led."),
    Term("follow_suit", "follow suit", "سوٹ ملانا", "सूट मिलाना",
         "The players' verb (ملانا / मिलाना) with the suit word: «چال کا سوٹ ملانا»."),
    Term("suits", "spades, hearts, clubs, diamonds", "حکم، پان، چڑی، اینٹ",
         "हुकुम, पान, चिड़ी, ईंट",
         "The players' own names. In Urdu چڑی and اینٹ are feminine: say «{suit} کا سب سے "
         "بڑا پتّا», never «سب سے بڑا چڑی»."),
    Term("ranks", "ace, king, queen, jack", "یکّا، بادشاہ، بیگم، غلام",
         "इक्का, बादशाह, बेगम, ग़ुलाम",
         "The players' names; the queen is بیگم / बेगम everywhere (never ملکہ / मलिका)."),
    Term("rank", "rank", "درجہ", "दर्जा", "A card's place from ace down to 2."),
    Term("ten", "ten, tens", "دہلا، دہلے", "दहला, दहले", "Dehla Pakad's own word."),
    Term("hand", "hand (a player's cards)", "پتّے («جنوب کے پتّے»، «جنوب کے پاس»)",
         'पत्ते ("दक्षिण के पत्ते", "दक्षिण के पास")',
         "हाथ is the Hindi word for a trick, so a player's hand is 'their cards' in both "
         "languages; ہاتھ / हाथ is never a player's cards."),
    # --------------------------------------------------------------- trumps
    Term("trumps", "trumps (the trump suit)", "رنگ", "रंग",
         "The game's own name (Rang); only ever trumps. «رنگ پان ہے» / «रंग पान है»."),
    Term("a_trump", "a trump (a card of the trump suit)", "رنگ کا پتّا (رنگ)",
         "रंग का पत्ता (रंग)", "Built on رنگ / रंग: «آخری رنگ», «تین چھوٹے رنگ»."),
    Term("to_trump", "to trump, to ruff; overtrump", "کاٹنا؛ اوپر سے کاٹنا",
         "काटना; ऊपर से काटना", "What players say at the table."),
    Term("call_trumps", "call trumps; trump caller", "رنگ بولنا؛ رنگ بولنے والا",
         "रंग बोलना; रंग बोलने वाला", "The seeds' 'announces the trump suit'."),
    Term("trump_card", "the trump card (shown or hidden)", "رنگ کا پتّا", "रंग का पत्ता",
         "House rules of lesson 09: the card whose suit is trumps."),
    Term("no_trumps", "no trumps (be-ranga)", "بے رنگا، کوئی رنگ نہیں", "बेरंगा, कोई रंग नहीं",
         "Seed 000's Be-ranga."),
    # --------------------------------------------------------------- play
    Term("trick", "trick", "سر", "हाथ",
         "Urdu: the players' word. Hindi: Indian players say हाथ (seed 000, and the English "
         "lesson says so); सर is given beside it the first time, and in Double Sir."),
    Term("lead", "lead (v.), the lead", "چال چلنا، چال", "चाल चलना, चाल",
         "«چال جنوب کی»: South to lead."),
    Term("play", "play a card; throw (a card of no use)", "پتّا چلنا / ڈالنا؛ پھینکنا",
         "पत्ता चलना / डालना; फेंकना", "Kept as the lessons say it."),
    Term("revoke", "revoke", "ریووک", "रिवोक",
         "No native word is used by the seeds; the English word in the script, glossed in 00."),
    Term("deal", "a deal (13 tricks); to deal; dealer", "بازی؛ بانٹنا؛ بانٹنے والا",
         "बाज़ी; बाँटना; बाँटने वाला",
         "بازی / बाज़ी is one deal, never the whole session."),
    Term("side", "side, team; partner; opponent", "جوڑی؛ ساتھی؛ مخالف",
         "जोड़ी; साथी; विरोधी", "Two partners are a جوڑی / जोड़ी."),
    Term("seats", "South, East, North, West", "جنوب، مشرق، شمال، مغرب",
         "दक्षिण, पूर्व, उत्तर, पश्चिम", "The table's seat names."),
    Term("seat", "seat", "نشست", "सीट", "Where a player sits."),
    # --------------------------------------------------------------- scoring
    Term("court", "court (coat, kot)", "کوٹ", "कोट", "One word for court and kot (seed 000)."),
    Term("goon_court", "goon court", "گون کوٹ", "गून कोट", "The seeds' word."),
    Term("bavney", "bavney (52-court)", "باونی", "बावनी", "Fifty-two."),
    Term("streak", "streak (deals won in a row)", "لگاتار جیتی بازیاں", "लगातार जीती बाज़ियाँ",
         "«سات بازیاں لگاتار»: the seven-deal court."),
    Term("centre_pile", "centre pile; take the pile", "بیچ کی ڈھیری؛ ڈھیری اٹھانا",
         "बीच की ढेरी; ढेरी उठाना", "Double Sir and Dehla Pakad."),
    Term("double_sir", "Double Sir (sir, sar)", "ڈبل سر", "डबल सर",
         "The game's name keeps सर in Hindi: «सर यानी हाथ»."),
    # --------------------------------------------------------------- the coach and the class
    Term("chance", "chance (a probability), 54%", "امکان («54% امکان»)",
         'संभावना ("54% संभावना")',
         "A probability, never موقع / मौक़ा ('an opportunity')."),
    Term("ten_in_100", "within 10 in 100 (of the best chance)",
         "بہترین امکان سے 100 میں 10 کے اندر", "सबसे अच्छी संभावना से 100 में 10 के भीतर",
         "The limit is 10 points in 100, not a tenth of the best chance."),
    Term("coach", "coach (cl.coach, hints and reviews)", "کوچ", "कोच",
         "The program that judges a move; never the teacher."),
    Term("teacher", "teacher", "استاد", "शिक्षक", "The person who runs the class."),
    Term("learner", "learner; class", "سیکھنے والا؛ جماعت", "सीखने वाला; कक्षा",
         "As the class pages say."),
    Term("hint", "hint; review; best play (all hands known)",
         "اشارہ؛ جائزہ؛ بہترین کھیل", "इशारा; समीक्षा; सबसे अच्छा खेल",
         "The coach's three tools."),
    Term("bot", "bot (a computer player)", "کمپیوٹر کھلاڑی", "कंप्यूटर खिलाड़ी",
         "The lessons' word."),
    Term("autoplay", "Auto-play (the bots answer by themselves)",
         "کمپیوٹر خود کھیلے", "कंप्यूटर ख़ुद खेले",
         "«خود کھیلیں» told the learner to play by themselves: the opposite."),
    # --------------------------------------------------------------- the notebook
    Term("cell", "cell (of a notebook)", "خانہ", "सेल",
         "Urdu computing says خانہ; Indian classrooms say सेल (ख़ाना is a drawer or a meal)."),
    Term("text", "text (a string)", "عبارت", "टेक्स्ट", "Hindi: the word in use, not इबारत."),
    Term("lesson", "lesson; exercise; puzzle", "سبق؛ مشق؛ پہیلی", "पाठ; अभ्यास; पहेली",
         "As the notebooks' titles say."),
    Term("notebook", "notebook", "نوٹ بک", "नोटबुक", "Jupyter's word."),
    Term("language", "Urdu, Hindi", "اردو، ہندی", "उर्दू, हिंदी",
         "One spelling of हिंदी (the Central Hindi Directorate's, with the anusvara)."),
]

TERMS: dict[str, Term] = {t.key: t for t in _T}

#: how a sentence is built, whatever the words
RULES = [
    ("seat", "A seat is one player: singular, masculine, in both languages (جنوب چال چلتا ہے / "
             "दक्षिण चाल चलता है; جنوب نہیں کھیل سکتا). A side (شمال–جنوب) is two players: plural "
             "(شمال–جنوب جیت چکے ہیں). The learner is آپ / आप."),
    ("tense", "What the engine reports as it happens is in the perfective past (جنوب نے K♠ سے "
              "چال چلی / दक्षिण ने K♠ से चाल चली); a rule in the present; what comes next in the "
              "future (اگلی بار مشرق بانٹے گا)."),
    ("number", "One card, one trick: singular verb (ان کے پاس 9♥ ہے); more than one: plural. "
               "Where a number or a list decides it, the code uses trn() or two messages."),
    ("first", "Hindi: the first time a lesson says हाथ for a trick, it adds सर: «हाथ (सर)»."),
    ("quotes", "Hindi quotes are \"…\" (never « »). Urdu lists use the Urdu comma «، », Hindi "
               "«, »; language.list_words() does it."),
    ("arrow", "Arrows follow the reading direction: language.arrow() (→ in English and Hindi, "
              "← in Urdu)."),
]

#: words that must never appear, per language: (regular expression, what it wrongly says)
BANNED: dict[str, list[tuple[str, str]]] = {
    "ur": [
        (r"موقع", "chance is امکان (موقع is an opportunity)"),
        (r"چانس", "chance is امکان"),
        (r"دسویں حصے", "the limit is 10 in 100, not a tenth"),
        (r"ملکہ", "the queen is بیگم"),
        (r"(?:اور|اسی|کسی|اس|ایک|دوسرے) پتّے کا", "پتّا is a card: a suit is سوٹ"),
        (r"چال والا پتّا|چال والے پتّ", "the suit led is چال کا سوٹ"),
        (r"(?:درجہ|درجے) اور رنگ|(?:اس|اسی|پتّے|پتّوں) کا رنگ|اور رنگ آزمائیے|کوئی رنگ نہیں:",
         "رنگ is trumps: a suit is سوٹ"),
        (r"(?<!\*)ہاتھ", "a player's hand is their پتّے (ہاتھ is the Indian word for a trick)"),
        (r"خود کھیلیں", "Auto-play means the bots play: کمپیوٹر خود کھیلے"),
        (r"استاد کا جائزہ|استاد کی (?:رائے|جانچ)", "the coach is کوچ: the teacher is a person"),
    ],
    "hi": [
        (r"मौक़|मौका|मौके|चांस", "chance is संभावना (मौक़ा is an opportunity)"),
        (r"दसवें हिस्से", "the limit is 10 in 100, not a tenth"),
        (r"मलिका", "the queen is बेगम"),
        (r"(?:और|उसी|किसी|उस|एक|दूसरे) पत्ते का", "पत्ता is a card: a suit is सूट"),
        (r"चाल वाला पत्ता|चाल वाले पत्त", "the suit led is चाल का सूट"),
        (r"(?:दर्जा|दर्जे) और रंग|(?:उस|उसी|इस|पत्ते|पत्तों) का रंग|और रंग आज़माइए|कोई रंग नहीं:",
         "रंग is trumps: a suit is सूट"),
        (r"(?<![\u0900-\u0963\u0971-\u097F])सर(?:ों)?(?![\u0900-\u0963\u0971-\u097F])",
         "a trick is हाथ (सर only in डबल सर and beside हाथ: «हाथ (सर)»)"),
        (r"(?:के|अपने|आपके|उसके|उनके|इसके|किसके|हर) हाथ (?:में|से)|हाथ के पत्ते",
         "a player's hand is their पत्ते (हाथ is a trick)"),
        (r"(?<![\u0900-\u0963\u0971-\u097F])(?:ख\u093c|\u0959|ख)ान[ाेो]", "a notebook cell is सेल"),
        (r"इबारत", "text is टेक्स्ट"),
        (r"हिन्दी", "one spelling: हिंदी"),
        (r"[«»]", "no guillemets in Hindi: \"…\""),
        (r"हैसियत", "«दक्षिण की हैसियत से» is stiff: «दक्षिण बनकर»"),
        (r"उस्ताद", "the teacher is शिक्षक, the coach कोच"),
        (r"ख़ुद खेलें", "Auto-play means the bots play: कंप्यूटर ख़ुद खेले"),
    ],
}

# the Hindi सर is allowed in the game's name (डबल सर) and beside हाथ: «हाथ (सर)»
_HI_SAR_ALLOWED = re.compile(r"डबल सर|\(सर\)|\*सर\*|सर यानी|सर \(sar|सर\s*\|")


def banned_in(lang: str, text: str) -> list[tuple[str, str]]:
    """Each banned word found in ``text`` with its reason: [(the words around it, why)].

    >>> banned_in("hi", "रंग का पत्ता किसी और पत्ते का नहीं")
    [('रंग का पत्ता किसी और पत्ते का नहीं', 'पत्ता is a card: a suit is सूट')]
    >>> banned_in("hi", "डबल सर में हर हाथ (सर) गिना जाता है")
    []
    """
    found = []
    if lang == "hi":
        text = _HI_SAR_ALLOWED.sub(lambda m: "\u2063" * len(m.group()), text)
    for pattern, why in BANNED[lang]:
        for m in re.finditer(pattern, text):
            found.append((text[max(0, m.start() - 30):m.end() + 30].strip(), why))
    return found


def markdown() -> str:
    """The glossary as a Markdown table, for translators (GLOSSARY.md)."""
    lines = ["# courtlearn's glossary: one word for each idea",
             "",
             "Every Urdu and Hindi sentence of courtlearn (lessons, exercises, puzzles, the "
             "engine's messages) uses these words and no others for these ideas. The source is "
             "`courtlearn/locale/glossary.py`; `tests/test_glossary.py` checks the texts against it.",
             "",
             "| idea | English | اردو | हिंदी | why |",
             "|---|---|---|---|---|"]
    for t in _T:
        lines.append(f"| {t.key} | {t.en} | {t.ur} | {t.hi} | {t.why} |")
    lines += ["", "## How sentences are built", ""]
    lines += [f"- **{key}**: {text}" for key, text in RULES]
    lines += ["", "## Never", "", "| language | pattern | because |", "|---|---|---|"]
    for lang, pairs in BANNED.items():
        for pattern, why in pairs:
            shown = pattern.replace("|", "\\|")
            lines.append(f"| {lang} | `{shown}` | {why} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
