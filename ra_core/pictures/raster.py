"""Pictures that show in an untrusted notebook: a PNG made from the board's SVG, and the output that carries both.

JupyterLab never draws an SVG output of a notebook it does not trust, and it cleans the SVG
out of HTML outputs (a student who opens the course's notebooks with a plain ``jupyter lab``
sees a jumble of words). A PNG is safe: it shows trusted or not. So a saved picture is an
output with the SVG (drawn when trusted, compared by nbval), a PNG of it (drawn when not;
nbval leaves PNGs out), and its text.

The PNG is drawn by resvg (the ``resvg-py`` package: a small Rust renderer with wheels for
every platform and no system library), in the board's light colours (the theme's ``<style>``
is for pages that define JupyterLab's variables), with matplotlib's DejaVu Sans when
matplotlib is there, so that the same SVG gives the same PNG on every machine. Without
``resvg-py`` (in JupyterLite, say) there is no PNG and the output carries the SVG and the text.
"""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path
from typing import Any

from .theme import STYLE

__all__ = ["picture_bundle", "png"]


def _fonts() -> list[str]:
    """Return the folders of the fonts to draw with: matplotlib's own, if it is installed, else none (the system's)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    return [str(folder)] if (folder / "DejaVuSans.ttf").exists() else []


def png(svg: str) -> bytes | None:
    """Return the SVG picture `svg` as PNG bytes at its own size, or None if ``resvg-py`` is not installed."""
    try:
        import resvg_py  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return None
    fonts = _fonts()
    options: dict[str, Any] = {"sans_serif_family": "DejaVu Sans"}
    if fonts:
        options.update(skip_system_fonts=True, font_dirs=fonts)
    return bytes(resvg_py.svg_to_bytes(svg_string=svg.replace(STYLE, ""), **options))


def picture_bundle(svg: str, text: str) -> dict[str, str]:
    """Return a notebook output of a picture: its SVG, a PNG of it (when one can be drawn) and its text.

    The PNG is base64 text, as a notebook stores it.
    """
    data = {"image/svg+xml": svg, "text/plain": text}
    drawn = png(svg)
    if drawn is not None:
        data["image/png"] = base64.b64encode(drawn).decode("ascii")
    return data
