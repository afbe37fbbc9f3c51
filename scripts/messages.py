"""courtlearn's message catalogs: extract, update, check and compile (Babel).

    python scripts/messages.py extract     # courtlearn/**.py -> courtlearn/locale/courtlearn.pot,
                                           # then merge it into every language's .po
    python scripts/messages.py check       # every message translated, same placeholders
    python scripts/messages.py compile OUT # the .mo files, as OUT/<lang>/LC_MESSAGES/courtlearn.mo

Sentences are marked in the code with ``tr("...")``, ``trn("...", "...", n)`` and
``N_("...")`` (courtlearn/language.py). The .po files are the sources translators edit;
the compiled .mo files go only into the wheel (scripts/hatch_build.py) and the site.
"""
from __future__ import annotations

import argparse
import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "courtlearn"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "courtlearn.pot"
LANGS = ("ur", "hi")
KEYWORDS = {"tr": None, "trn": (1, 2), "plural_forms": (1, 2), "N_": None}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "courtlearn.po"


def template() -> Catalog:
    cat = Catalog(project="courtlearn", version="0.1", charset="utf-8",
                  msgid_bugs_address="courtlearn developers")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        cat.add(message, None, [(f"courtlearn/{filename}", lineno)], auto_comments=comments,
                context=context)
    # the puzzle ladder's own words (courtlearn/puzzles/ladder.txt): Puzzle.title, .goal and
    # .solution look them up
    sys.path.insert(0, str(ROOT))
    try:
        from courtlearn.puzzles import _read
    finally:
        sys.path.pop(0)
    for p in _read():
        for part in ("title", "goal", "solution"):
            cat.add(getattr(p, part + "_text"), None, [("courtlearn/puzzles/ladder.txt", 0)],
                    auto_comments=[f"puzzle {p.key}, its {part}"])
    return cat


def write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, omit_header=False, ignore_obsolete=True,
             include_lineno=False)
    text = buf.getvalue().decode()
    # the header's dates change on every run: keep them out of the diff
    lines = [ln for ln in text.splitlines(True)
             if not ln.startswith(('"POT-Creation-Date:', '"PO-Revision-Date:'))]
    path.write_text("".join(lines))


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="courtlearn")


def extract() -> None:
    tmpl = template()
    write(tmpl, TEMPLATE)
    for lang in LANGS:
        path = po_path(lang)
        cat = read(lang) if path.exists() else Catalog(locale=lang, domain="courtlearn",
                                                       project="courtlearn", version="0.1")
        cat.update(tmpl, no_fuzzy_matching=True)
        write(cat, path)
        print(f"{path.relative_to(ROOT)}: {len(cat)} messages, "
              f"{sum(1 for m in cat if m.id and not _done(m))} to translate")


def fields(text: str) -> list[str]:
    """The placeholders a message names (each once): "{seat} leads {card}." -> ["card", "seat"]."""
    return sorted({name for _, name, _, _ in string.Formatter().parse(text) if name is not None})


def _done(m) -> bool:
    strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
    return all(strings) and not m.fuzzy


def problems(lang: str) -> list[str]:
    """Every message of the template untranslated, fuzzy, or with other placeholders."""
    cat = read(lang)
    out = []
    with TEMPLATE.open("rb") as f:
        tmpl = read_po(f)
    for t in tmpl:
        if not t.id:
            continue
        m = cat.get(t.id)
        if m is None or not _done(m):
            out.append(f"{lang}: not translated: {t.id!r}")
            continue
        ids = t.id if isinstance(t.id, tuple) else (t.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(t.id, tuple) and len(strings) != cat.num_plurals:
            out.append(f"{lang}: {len(strings)} plural forms, the language has {cat.num_plurals}: {t.id!r}")
        want = fields(ids[-1])
        for s in strings:
            if fields(s) != want:
                out.append(f"{lang}: placeholders {fields(s)} instead of {want}: {t.id!r} -> {s!r}")
    return out


def compile_to(out: Path) -> list[Path]:
    written = []
    for lang in LANGS:
        target = out / lang / "LC_MESSAGES" / "courtlearn.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as f:
            write_mo(f, read(lang))
        written.append(target)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="refresh the template and merge it into each .po")
    sub.add_parser("check", help="every message translated with the same placeholders")
    c = sub.add_parser("compile", help="write the .mo files under OUT")
    c.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    if args.command == "extract":
        extract()
    elif args.command == "check":
        found = [p for lang in LANGS for p in problems(lang)]
        print("\n".join(found) or "every message is translated in " + ", ".join(LANGS))
        return 1 if found else 0
    else:
        for path in compile_to(args.out):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
