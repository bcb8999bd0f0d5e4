"""Sealed-bid auctions in class, without a database or a server: the floor every other one stands on.

The laws values are drawn from (`laws`), what theory predicts (`theory`), who plays with whom
and who gets which value (`matching`), and one group's outcome (`settle`). The kinds of round
built on them are in `ra_classroom.kinds`. Standard library only, and plain functions of
their inputs, so the tests check them against hand-computed cases.
"""
