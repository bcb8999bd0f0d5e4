"""The engine: what a game of Ra is and how it moves, standard library only.

The rules of record are the project's rules document, docs/rules.md (R1-R74, options D1-D10,
worked examples and test vectors). Each rule's code is one jump away:

==================================  ============  ===========================================
rulebook section                    rules         module of `ra_core.engine`
==================================  ============  ===========================================
components: tiles, suns, track      R1-R8         `tiles`, `records`, `rules`
setup                               R9-R16        `setup` (`new_game`), `turns`
turn structure                      R17-R21       `turns` (the choices), `transitions`
drawing                             R22-R25       `transitions` (`reveal`), `turns` (odds)
god tiles                           R26-R34       `turns` (targets), `transitions`
auctions                            R35-R45       `auction` (order, legal bids), `transitions`
sun exchange                        R46-R49       `transitions` (`win`), `scoring` (suns face up, R49)
disasters                           R50-R56       `disasters`
end of an epoch                     R57-R62       `transitions` (`_end_epoch`)
scoring, every epoch and the last   R63-R72       `scoring`
winner                              R73           `scoring` (`winner`)
information                         R74           `state` (the position is all public)
options                             D1-D10        `rules` (`Rules`)
==================================  ============  ===========================================

Around the rules: `state` (the immutable position, `State`), `actions` (the notation),
`errors`, `serialize`, `safejson` and `invariants` (saved positions, read back with every
check), `textboard` (``str(state)``), `timer` (a bot's time limit) and `positions` (scenarios
in one call). Whole games (chance sampling, the game loop, game records and their auctions) are
the layer above, `ra_core.play`.
"""
