"""Adapt the site's copies of the lessons and exercises to JupyterLite.

usage: python scripts/lite/prepare_notebooks.py FILES_DIR

- kernelspec -> the Pyodide kernel ("python"), so the lesson opens with its
  kernel started instead of a "Select Kernel" dialog (lessons in the repository
  name "python3", the ipykernel of a normal Jupyter);
- stored widget views, tracebacks and stderr are dropped (their models live only in a running kernel:
  they would show "model not found" until the cell is run again); every other
  stored output, the static table pictures included, stays so a lesson reads
  well before its kernel is ready; execution counts are cleared, so a "[n]"
  prompt always means the cell ran in this browser;
- a lesson that needs a computer of its own (lesson 14, running a class: its class
  server listens on the network for the learners' phones, and Python inside a web page
  can open no listening socket) stays in the site, to be read with its stored outputs,
  behind a first cell that says so in the lesson's language and where to run it (Binder,
  or JupyterLab on the teacher's laptop). Left out, lesson 00's overview would name a
  lesson the site does not have.
The repository's notebooks are never modified: only the copies in FILES_DIR.
"""
import json
import sys
from pathlib import Path

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LITE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

# lessons whose cells cannot run in the browser's Python, and the note each one opens with
NEEDS_A_COMPUTER = {"14_running_a_class.ipynb"}
BINDER = "https://mybinder.org/v2/gh/courtlearn/courtlearn/HEAD?urlpath=lab/tree/notebooks/"
NOTE = {
    "en": "> **This lesson runs in Jupyter on a computer, not in this browser-only site.** "
          "Its class server listens on the network for your learners' phones, and Python "
          "inside a web page cannot do that: its cells stop at `cl.classroom.open`. Read it "
          "here (the outputs below come from a run), then run it [on Binder]({binder}) or in "
          "JupyterLab on your laptop (`pip install 'courtlearn[class]'`).",
    "ur": "> **یہ سبق کمپیوٹر پر Jupyter میں چلتا ہے، براؤزر والی اس سائٹ میں نہیں۔** اس کی "
          "جماعت کا سرور نیٹ ورک پر سیکھنے والوں کے فون سنتا ہے، اور ویب صفحے کے اندر کا "
          "Python یہ نہیں کر سکتا: اس کے خانے `cl.classroom.open` پر رک جاتے ہیں۔ اسے یہاں "
          "پڑھیے (نیچے کے نتیجے ایک بار چلانے سے آئے ہیں)، پھر [Binder پر]({binder}) یا اپنے "
          "لیپ ٹاپ کی JupyterLab میں چلائیے (`pip install 'courtlearn[class]'`)۔",
    "hi": "> **यह पाठ कंप्यूटर पर Jupyter में चलता है, ब्राउज़र वाली इस साइट में नहीं।** इसकी "
          "कक्षा का सर्वर नेटवर्क पर सीखने वालों के फ़ोन सुनता है, और वेब पन्ने के अंदर का "
          "Python यह नहीं कर सकता: इसके ख़ाने `cl.classroom.open` पर रुक जाते हैं। इसे यहाँ "
          "पढ़िए (नीचे के नतीजे एक बार चलाने से आए हैं), फिर [Binder पर]({binder}) या अपने "
          "लैपटॉप की JupyterLab में चलाइए (`pip install 'courtlearn[class]'`)।",
}
OPENING = {"en": "", "ur": '<div dir="rtl" lang="ur">\n\n', "hi": '<div lang="hi">\n\n'}


def computer_note(path: Path) -> dict:
    """The first cell of a lesson that cannot run here, in the lesson's language."""
    lang = path.parent.name if path.parent.name in ("ur", "hi") else "en"
    where = "" if lang == "en" else f"{lang}/"
    text = NOTE[lang].format(binder=f"{BINDER}{where}{path.name}")
    if lang != "en":
        text = f"{OPENING[lang]}{text}\n\n</div>"
    return {"cell_type": "markdown", "id": "runs-on-a-computer",
            "metadata": {"tags": ["lite-note"]}, "source": text}


def prepare(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb.setdefault("metadata", {})["kernelspec"] = LITE_KERNEL
    nb["metadata"].pop("widgets", None)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["execution_count"] = None             # "[ ]" until it runs in the browser
            cell["outputs"] = [o for o in cell.get("outputs", [])
                               if WIDGET_VIEW not in o.get("data", {})
                               and o.get("output_type") != "error"
                               and o.get("name") != "stderr"]
    if path.name in NEEDS_A_COMPUTER:
        nb["cells"].insert(0, computer_note(path))
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for p in sorted(Path(sys.argv[1]).rglob("*.ipynb")):
        prepare(p)
