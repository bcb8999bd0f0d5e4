"""What a name looks like: the skeleton two names share when a reader cannot tell them apart.

Unicode's TR39 ("Security Mechanisms") calls two strings *confusable* when they have the same
skeleton: each character replaced by the one it is mistaken for. The standard library has no
TR39 table, and the full one (6,000 lines of ``confusables.txt``) is mostly scripts no class
types on a phone, so this module keeps a small one for what matters here:

* full-width and other compatibility forms (``ｂｏｔ``, ligatures, superscripts) by NFKC;
* letters of the Cyrillic and Greek alphabets drawn like Latin ones (``о`` U+043E, ``Α`` U+0391),
  upper and lower case, as TR39's table maps them to single Latin letters (a small capital such
  as Cyrillic ``н`` is told apart from ``h``, and stays);
* case, by ``casefold`` (``Ann`` and ``ANN`` are one student).

Names are compared by skeleton for the board's reserved words and for duplicates in a room;
the name shown is the one typed. Accents are kept (``José`` and ``Jose`` may both join), as TR39
keeps them.

>>> skeleton("bоt") == skeleton("ｂｏｔ") == skeleton("BOT") == "bot"   # a Cyrillic o, full-width letters
True
>>> skeleton("Аnn") == skeleton("Ann")                                   # a Cyrillic A
True
>>> skeleton("José") == skeleton("Jose")
False
"""

from __future__ import annotations

import unicodedata

__all__ = ["LOOKALIKES", "skeleton"]

#: Cyrillic and Greek letters and the Latin letter each is read as (TR39's confusables, these scripts only).
LOOKALIKES: dict[str, str] = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "l",
    # Cyrillic small letters
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "ѕ": "s", "і": "i", "ј": "j",
    "ӏ": "l", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Greek small letters
    "ο": "o", "ν": "v", "ι": "i", "ρ": "p", "υ": "u", "χ": "x", "α": "a", "ϲ": "c", "ϳ": "j",
}  # fmt: skip
_TABLE = str.maketrans(LOOKALIKES)


def skeleton(name: str) -> str:
    """Return the skeleton of `name`: compatibility forms folded (NFKC), lookalike letters mapped, case folded.

    >>> skeleton("  ＡＮＮ ")
    '  ann '
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).translate(_TABLE)).casefold()
