"""Pictures and words: positions as text, SVG and plots, and actions told in plain words.

* `words`: tile and player names, the facts of a board, scores as text;
* `theme`, `icons`, `pieces`, `svg`: the board picture (standard library only, byte-stable);
* `narrate`: one sentence per action;
* `raster`: a PNG of a picture, so that it shows in an untrusted notebook (with ``resvg-py``);
* `plots`: plots for the notebooks, prepared once and drawn by `plotfigures` with matplotlib
  (`plotstyle`: its style) or, where matplotlib cannot be imported, by `plotcharts` with the
  standard library's SVG charts (`charts`, `chartmarks`); `palette` holds the choices both share.

`State._repr_mimebundle_` imports `svg` on the first display of a position.
"""
