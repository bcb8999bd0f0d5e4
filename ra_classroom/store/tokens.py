"""Secrets: a student's seat token and rejoin code, the teacher's secret, room codes and seeds.

A seat token is given to a student once, when he joins; the database keeps only its SHA-256,
so a copy of the database does not let anyone take a seat. Secrets are compared in constant
time. A rejoin code is short, for a student to copy down and type on another device: it
opens his seat only together with his name in his room, and the database keeps only the
SHA-256 of his id and the code.

>>> token_hash("abc")[:12]
'ba7816bf8f01'
>>> same_secret("s3cret", "s3cret"), same_secret("s3cret", "guess")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import unicodedata

__all__ = [
    "CODE_LETTERS",
    "ROOM_ALPHABET",
    "new_code",
    "new_rejoin_code",
    "new_secret",
    "normal_code",
    "rejoin_hash",
    "same_secret",
    "token_hash",
]

#: Room codes use letters and digits that cannot be mistaken for one another (no O/0, I/1/L).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: A room code the teacher chooses is of ASCII capitals and digits (new codes take `CODE_LETTERS` of them):
#: what every keyboard types and every projector's link carries.
ROOM_ALPHABET = string.ascii_uppercase + string.digits
CODE_LENGTH = 5
REJOIN_LENGTH = 6  # 31**6: about 890 million codes, against one name in one room


def new_secret() -> str:
    """Return a new unguessable secret (a seat token or a teacher's secret): 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """Return the SHA-256 of a token, as kept in the database."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    """Return whether `given` is `expected`, in a time that does not depend on where they differ."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def new_code() -> str:
    """Return a new room code such as ``'K7RWP'``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def new_rejoin_code() -> str:
    """Return a new rejoin code such as ``'K7RWP3'`` (letters and digits that cannot be mistaken)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(REJOIN_LENGTH))


def rejoin_hash(student: int, code: str) -> str:
    """Return what the database keeps of student `student`'s rejoin code `code` (as `normal_code` gives it)."""
    return token_hash(f"rejoin:{student}:{code}")


def normal_code(text: str) -> str:
    """Return a code as typed (any case, spaces or dashes, full-width forms) in its stored form, upper case.

    Nothing is cut: a code too long, or with letters outside `ROOM_ALPHABET`, stays so, for the
    caller to refuse in a sentence (`ra_classroom.store.rooms.room_code`).

    >>> normal_code(" k7r-wp "), normal_code("ＫＴ７"), normal_code("ABCDEFGHJKMNPQ")
    ('K7RWP', 'KT7', 'ABCDEFGHJKMNPQ')
    """
    folded = unicodedata.normalize("NFKC", text)
    kept = "".join(c for c in folded if not (c.isspace() or c in "-_."))
    return kept.upper() if kept.isascii() else kept  # "ß".upper() is "SS": only ASCII is upper-cased
