"""What device a page runs on, in a few words from its browser's User-Agent: "Android phone, Chrome".

The teacher's panel shows it beside each device asking for a seat and each move of a seat, so
that the teacher can tell Ana's phone from the laptop that asks for her seat. A User-Agent is
whatever the client sends: it describes, it proves nothing (the device token does the proving).

>>> describe("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
...          "Chrome/126.0 Mobile Safari/537.36")
'Android phone, Chrome'
>>> describe("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
...          "Version/17.5 Mobile/15E148 Safari/604.1")
'iPhone, Safari'
>>> describe("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0")
'Windows computer, Firefox'
>>> describe(None), describe("python-websockets/13"), describe("<script>")
('unknown device', 'unknown device, python-websockets', 'unknown device')
"""

from __future__ import annotations

import re

__all__ = ["describe"]

#: (pattern in the User-Agent, the device it names), first match wins: the phones before the systems they run on.
_DEVICES = (
    ("iPad", "iPad"),
    ("iPhone", "iPhone"),
    ("Android.*Mobile", "Android phone"),
    ("Android", "Android tablet"),
    ("CrOS", "Chromebook"),
    ("Windows", "Windows computer"),
    ("Macintosh|Mac OS X", "Mac"),
    ("Linux", "Linux computer"),
)
#: (pattern, the browser it names), first match wins: Chrome's User-Agent says Safari too, Edge's says Chrome.
_BROWSERS = (
    ("Edg/|Edge/", "Edge"),
    ("OPR/|Opera", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/|FxiOS", "Firefox"),
    ("Chrome/|CriOS|Chromium", "Chrome"),
    ("Safari/", "Safari"),
)


def describe(agent: str | None) -> str:
    """Return the device and browser a User-Agent names, in a few words (at most 60 characters)."""
    text = (agent or "")[:512]
    device = next((name for pattern, name in _DEVICES if re.search(pattern, text)), "unknown device")
    browser = next((name for pattern, name in _BROWSERS if re.search(pattern, text)), None)
    if browser is None and (tool := re.match(r"([A-Za-z][\w.-]{1,30})/", text)):  # a program: its own name
        browser = tool.group(1)
    return f"{device}, {browser}"[:60] if browser else device
