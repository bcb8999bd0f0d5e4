"""The messages a student's page sends, read strictly: JSON objects of known kinds and fields.

Page to server (``t`` is the kind; ``id``, optional, is echoed in the answer):

==========  ======================================  =========================================
``t``       fields                                  answer
==========  ======================================  =========================================
``join``    ``room``, ``name``, ``code``            ``welcome`` with the seat ``token`` and the rejoin
                                                    ``code``, then a ``view``; with his rejoin ``code``
                                                    a student takes his seat back on a new device
                                                    (``asking`` if a page of the seat is connected)
``ask``     ``room``, ``name``                      ``asking`` with a seat ``token`` that opens the
                                                    seat once the teacher lets the device in
``hello``   ``token``                               ``welcome``, then a ``view`` (a page back after a
                                                    reload), or ``pending`` (the teacher has not let it in)
``confirm`` ``request``, ``yes``                    ``ack`` with ``confirmed``: the seat's page agrees (or
                                                    not) that the device that typed its rejoin code takes it
``bid``     ``round``, ``amount``                   ``ack`` with ``bids_in`` (of his group)
``act``     ``round``, ``data``                     ``ack`` with ``bids_in``: an action of the round's
                                                    kind's own (``data`` read by the kind), not a bid
``press``   ``round``, ``tick``                     ``ack`` with the ``tick``, its ``price`` and how many
                                                    of his group are still ``in`` (a clock round: he
                                                    drops out, or stops the clock, at the tick his page showed)
``move``    ``table``, ``action``, ``version``      ``ack`` with ``ply`` (the board's new version)
``ui``      ``table``, ``ui``, ``version``, ``sel``  a ``view`` of his table with the choice in progress
==========  ======================================  =========================================

Server to page: ``view`` (the whole page: see `ra_classroom.store.pages`), ``tick`` (a clock round's
``round``, ``tick``, ``price``, the group's count still ``in``, whether its clock has ``stopped``,
and ``at``, when the tick was stored), ``welcome``, ``ack``, ``refused`` (with ``why``, one
sentence), ``asking`` and ``pending``, ``confirm`` (with ``request`` and ``device``: another device
typed this seat's rejoin code; may it take the seat?), and ``bye`` (with ``why``, and ``removed``
when the teacher removed the student, else his seat is open on another device now; the page is
closed after it). Anything else is refused and changes nothing.

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
from ..store.schema import MAX_ID
from .limits import MAX_MESSAGE

__all__ = ["FIELDS", "MAX_ID", "parse", "read_id", "strict_json"]

#: The fields each kind of message may carry (``t`` and ``id`` aside).
FIELDS: dict[str, frozenset[str]] = {
    "join": frozenset({"room", "name", "code"}),
    "ask": frozenset({"room", "name"}),
    "hello": frozenset({"token"}),
    "confirm": frozenset({"request", "yes"}),
    "bid": frozenset({"round", "amount"}),
    "act": frozenset({"round", "data"}),
    "press": frozenset({"round", "tick"}),
    "move": frozenset({"table", "action", "version"}),
    "ui": frozenset({"table", "ui", "version", "sel"}),
}


#: The fields that name a round, a table or a board's version: whole numbers of at most 31 bits (a database's INTEGER).
NUMBERED = ("round", "table", "version", "request", "tick")
MAX_DIGITS = 15  #: a whole number with more digits is no bid, id or setting here (and no float holds it exactly)


def _no_constant(name: str) -> Any:
    raise Refusal(f"That message is not JSON: {name} is not a number here.")


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise Refusal(f"That message has a number of {len(digits.lstrip('-'))} digits: at most {MAX_DIGITS} here.")
    return int(digits)


def strict_json(text: str) -> Any:
    """Return the JSON value in `text`; raise Refusal for text that is not JSON, NaN, Infinity or a huge number.

    >>> strict_json('{"amount": 12.5}')
    {'amount': 12.5}
    >>> strict_json('{"round": ' + "1" * 40 + '}')
    Traceback (most recent call last):
    ...
    ra_classroom.store.refusal.Refusal: That message has a number of 40 digits: at most 15 here.
    """
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_whole)
    except (ValueError, RecursionError) as e:
        if isinstance(e, Refusal):
            raise
        raise Refusal("That message is not JSON.") from None


def parse(text: Any) -> dict[str, Any]:
    """Return the message in `text`; raise Refusal saying what is wrong with it."""
    if not isinstance(text, str):
        raise Refusal("Messages are text (JSON), not binary.")
    if len(text) > MAX_MESSAGE:
        raise Refusal(f"That message is too long ({len(text)} characters; at most {MAX_MESSAGE}).")
    msg = strict_json(text)
    if not isinstance(msg, dict):
        raise Refusal("A message is a JSON object with a kind 't'.")
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Refusal(f"Unknown kind of message {kind!r:.30}; known: {', '.join(FIELDS)}.")
    extra = set(msg) - FIELDS[kind] - {"t", "id"}
    if extra:
        raise Refusal(f"A {kind} message has no field {sorted(extra)[0]!r:.30}.")
    if msg.get("id") is not None and not _good_id(msg["id"]):
        raise Refusal("A message's id is a number or a short text.")
    for field in NUMBERED:
        n = msg.get(field)
        if isinstance(n, int) and not isinstance(n, bool) and abs(n) > MAX_ID:
            raise Refusal(f"There is no {field} {n}.")
    return msg


def _good_id(ident: Any) -> bool:
    return isinstance(ident, int | str) and not isinstance(ident, bool) and len(str(ident)) <= 40


def read_id(text: Any) -> int | str | None:
    """Return the id of a message `parse` refused, if it can be read (a JSON object with a good id), else None.

    So that even a refused message's answer names the message it answers when it can.

    >>> read_id('{"t": "sell", "id": 7}'), read_id('{"t": "bid", "id": 8, "amount": NaN}'), read_id("{bid")
    (7, 8, None)
    """
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ident = msg.get("id") if isinstance(msg, dict) else None
    return ident if _good_id(ident) else None
