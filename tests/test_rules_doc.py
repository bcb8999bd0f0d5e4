"""The project's own rules document, docs/rules.md: complete, and every rule number cited exists.

Code, tests, notebooks and exercises cite rules by number (R1-R74, options D1-D10, questions
E1-E20, starts S2-S5, test vectors TV-...). A clone holds the document they cite: every number is
defined there exactly once (as a bold ``**R12.**`` heading after its anchor ``<a id="R12"></a>``),
none is missing, every number cited anywhere in the project is defined, and every link to the
document names the rule it means and lands on it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
ID = r"(?:R\d{1,2}|D\d{1,2}|E\d{1,2}|S[2-5]|TV-(?:A\d|\d\d))"
#: Each definition: its anchor (so that a link to ``docs/rules.md#R62`` lands on the rule), then its bold number.
DEFINITION = rf'^<a id="({ID})"></a>\*\*({ID})\.\*\*'
DEFINED = Counter(b for a, b in re.findall(DEFINITION, DOC.read_text(encoding="utf-8"), flags=re.MULTILINE) if a == b)
VECTORS = (
    [f"TV-A{i}" for i in range(1, 6)]
    + [f"TV-{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16, 17, 18, 19, 22, 23, 25, 26, 27, 28, 29)]
    + [f"TV-{n}" for n in (30, 31, 32, 35, 37, 38, 40, 42, 43, 44)]
)


def test_every_rule_option_question_start_and_vector_is_defined_once() -> None:
    expected = (
        [f"R{i}" for i in range(1, 75)]
        + [f"D{i}" for i in range(1, 11)]
        + [f"E{i}" for i in range(1, 21)]
        + ["S2", "S3", "S4", "S5"]
        + VECTORS
    )
    missing = [x for x in expected if x not in DEFINED]
    twice = [x for x, n in DEFINED.items() if n > 1]
    assert not missing and not twice, (missing, twice)
    assert set(DEFINED) == set(expected)


def test_every_number_cited_in_the_project_is_defined() -> None:
    sources = [
        *ROOT.glob("ra_core/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("notebooks/*.ipynb"),
        *ROOT.glob("exercises/source/*.ipynb"),
        *ROOT.glob("*.md"),
        *ROOT.glob("exercises/*.md"),
    ]
    cited: dict[str, Path] = {}
    for path in sources:
        for x in re.findall(rf"\b{ID}\b", _words(path)):
            cited.setdefault(x, path)
    unknown = {x: str(p.relative_to(ROOT)) for x, p in cited.items() if x not in DEFINED}
    assert not unknown, unknown


def _words(path: Path) -> str:
    """Return a file's text; of a notebook, without its saved PNGs (base64 text can spell a rule number)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return text
    notebook = json.loads(text)
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop("image/png", None)
    return json.dumps(notebook)


def test_the_readme_points_to_the_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "shared folder" not in readme.split("## Quick start")[0]


def test_every_link_to_the_document_lands_on_its_rule() -> None:
    """A link ``[R62](../docs/rules.md#R62)`` names the rule it shows, and the anchor exists; no link to the top."""
    sources = [*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("exercises/source/*.ipynb"), *ROOT.glob("*.md")]
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', DOC.read_text(encoding="utf-8")))
    links = 0
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for shown, target in re.findall(rf"\[({ID})\]\(([^)]*rules\.md[^)]*)\)", text):
            links += 1
            assert target.endswith(f"rules.md#{shown}"), (path.name, shown, target)
            assert shown in anchors, (path.name, shown)
    assert links >= 19
