"""The Urdu and Hindi lesson 00 in JupyterLab: Urdu prose runs right to left while code
stays left to right, the trilingual glossary renders as a table, and the lesson's own
table speaks the lesson's language. Any console error fails (conftest)."""
import pytest
from playwright.sync_api import expect

from labserver import ARTIFACTS, ROOT, kernel, open_notebook

pytestmark = pytest.mark.browser


def _first_table_rows(path):
    """The rows (with its header) of the first Markdown table in the notebook's prose: the
    glossary, whose length follows the glossary module (16 rows once, 20 now)."""
    import nbformat
    lines = "\n".join(c.source for c in nbformat.read(path, 4).cells
                      if c.cell_type == "markdown").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    block = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        block.append(line)
    rows = [line for line in block if not set(line) <= set("|-: ")]
    assert len(rows) >= 10, rows                   # the glossary, not some small table
    return len(rows)


@pytest.mark.parametrize("lang, word", [("ur", "شمال"), ("hi", "उत्तर")])
def test_lesson_00_in_the_language(lab, page, lang, word):
    name = lab.add_notebook(ROOT / "notebooks" / lang / "00_start_here.ipynb", f"lesson00_{lang}.ipynb")
    open_notebook(page, lab, name)
    table = page.locator(".cl-table").first
    expect(table).to_have_attribute("lang", lang)
    expect(table.locator("[data-role=seat-name]").first).to_be_visible()
    expect(table).to_contain_text(word)
    prose = page.locator(f".jp-MarkdownOutput div[lang={lang}]") if lang == "ur" else \
        page.locator(".jp-MarkdownOutput").first
    if lang == "ur":
        expect(prose.first).to_be_visible()
        assert prose.first.evaluate("el => getComputedStyle(el).direction") == "rtl"
    code = page.locator(".jp-CodeCell .cm-content").nth(1)
    assert code.evaluate("el => getComputedStyle(el).direction") == "ltr"
    # the widget's fonts serve the lesson's prose too: Urdu in Nastaliq, and the glossary's
    # other script drawn (no font of the system has it here)
    page.wait_for_function("() => document.fonts.check('16px \"Noto Nastaliq Urdu\"', 'حکم') && "
                           "document.fonts.check('16px \"Noto Sans Devanagari\"', 'हुकुम') && "
                           "[...document.fonts].filter(f => f.status === 'loaded' && "
                           "f.family.includes('Noto')).length >= 2")
    glossary = page.locator(".jp-MarkdownOutput table").first
    glossary.scroll_into_view_if_needed()
    rows = _first_table_rows(ROOT / "notebooks" / lang / "00_start_here.ipynb")
    expect(glossary.locator("tr")).to_have_count(rows)
    text = glossary.text_content()
    assert "حکم" in text and "हुकुम" in text and "spades" in text
    glossary.screenshot(path=str(ARTIFACTS / f"lesson00_{lang}_glossary.png"))
    assert kernel(page, "print(cl.get_language())").strip() == lang
    page.locator(".jp-MarkdownOutput").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"lesson00_{lang}.png"))
