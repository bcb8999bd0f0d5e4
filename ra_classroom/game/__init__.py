"""A Ra table of the classroom, on `ra_core`: the only floor that knows the game.

`bridge` imports every piece of `ra_core` the classroom uses beyond its front door, so that a
move inside `ra_core` is one edit here; `table` holds a table's game, replayed from its moves,
and draws each seat's board.
"""
