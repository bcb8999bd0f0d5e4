"""Round kinds: each kind of round one object, and the one registry of them.

A kind holds what a kind of round is (`base.Kind`): the settings it adds and their checks,
what students are told and what each student's page shows, what a student's message does, how
a group's round settles, what theory predicts, and what the export and the analysis compute
from its rows. `registry` lists the kinds; everything else asks it, never a kind's name.
`spec.RoundSpec` is a round's settings, checked by its kind.
"""
