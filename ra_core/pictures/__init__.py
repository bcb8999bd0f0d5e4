"""Pictures and words: positions as text, SVG and plots, and actions told in plain words.

* `words`: tile and player names, the facts of a board, scores as text;
* `theme`, `icons`, `pieces`, `svg`: the board picture (standard library only, byte-stable);
* `narrate`: one sentence per action;
* `raster`: a PNG of a picture, so that it shows in an untrusted notebook (with ``resvg-py``);
* `plotstyle`, `plots`: plots for the notebooks (the only modules here that need matplotlib).

`State._repr_mimebundle_` imports `svg` on the first display of a position.
"""
