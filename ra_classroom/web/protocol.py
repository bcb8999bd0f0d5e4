"""The messages a student's page sends, read strictly: JSON objects of known kinds and fields.

Page to server (``t`` is the kind; ``id``, optional, is echoed in the answer):

==========  ======================================  =========================================
``t``       fields                                  answer
==========  ======================================  =========================================
``join``    ``room``, ``name``                      ``welcome`` with the seat ``token``, then a ``view``
``hello``   ``token``                               ``welcome``, then a ``view`` (a page back after a reload)
``bid``     ``round``, ``amount``                   ``ack`` with ``bids_in`` (of his group)
``move``    ``table``, ``action``, ``version``      ``ack`` with ``ply`` (the board's new version)
``ui``      ``table``, ``ui``, ``version``, ``sel``  a ``view`` of his table with the choice in progress
==========  ======================================  =========================================

Server to page: ``view`` (the whole page: see `ra_classroom.store.pages`), ``welcome``, ``ack`` and
``refused`` (with ``why``, one sentence). Anything else is refused and changes nothing.

>>> parse('{"t": "bid", "round": 3, "amount": 41.5}')
{'t': 'bid', 'round': 3, 'amount': 41.5}
>>> parse('{"t": "bid", "round": 3, "amount": NaN}')
Traceback (most recent call last):
...
ra_classroom.store.refusal.Refusal: That message is not JSON: NaN is not a number here.
"""

from __future__ import annotations

import json
from typing import Any

from ..store.refusal import Refusal
from .limits import MAX_MESSAGE

__all__ = ["FIELDS", "parse"]

#: The fields each kind of message may carry (``t`` and ``id`` aside).
FIELDS: dict[str, frozenset[str]] = {
    "join": frozenset({"room", "name"}),
    "hello": frozenset({"token"}),
    "bid": frozenset({"round", "amount"}),
    "move": frozenset({"table", "action", "version"}),
    "ui": frozenset({"table", "ui", "version", "sel"}),
}


def _no_constant(name: str) -> Any:
    raise Refusal(f"That message is not JSON: {name} is not a number here.")


def parse(text: Any) -> dict[str, Any]:
    """Return the message in `text`; raise Refusal saying what is wrong with it."""
    if not isinstance(text, str):
        raise Refusal("Messages are text (JSON), not binary.")
    if len(text) > MAX_MESSAGE:
        raise Refusal(f"That message is too long ({len(text)} characters; at most {MAX_MESSAGE}).")
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        if isinstance(e, Refusal):
            raise
        raise Refusal("That message is not JSON.") from None
    if not isinstance(msg, dict):
        raise Refusal("A message is a JSON object with a kind 't'.")
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Refusal(f"Unknown kind of message {kind!r:.30}; known: {', '.join(FIELDS)}.")
    extra = set(msg) - FIELDS[kind] - {"t", "id"}
    if extra:
        raise Refusal(f"A {kind} message has no field {sorted(extra)[0]!r:.30}.")
    ident = msg.get("id")
    if ident is not None and not (
        isinstance(ident, int | str) and not isinstance(ident, bool) and len(str(ident)) <= 40
    ):
        raise Refusal("A message's id is a number or a short text.")
    return msg
