"""Secrets: a student's seat token, the teacher's secret, room codes and seeds.

A seat token is given to a student once, when he joins; the database keeps only its SHA-256,
so a copy of the database does not let anyone take a seat. Secrets are compared in constant
time.

>>> token_hash("abc")[:12]
'ba7816bf8f01'
>>> same_secret("s3cret", "s3cret"), same_secret("s3cret", "guess")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["CODE_LETTERS", "new_code", "new_secret", "normal_code", "same_secret", "token_hash"]

#: Room codes use letters and digits that cannot be mistaken for one another (no O/0, I/1/L).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


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


def normal_code(text: str) -> str:
    """Return a room code as typed (any case, spaces or dashes) in its stored form, upper case."""
    return "".join(c for c in text.upper() if c.isalnum())[:12]
