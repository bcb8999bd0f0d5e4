"""The rules the explorers print beside their results, with the rulebook's own words.

They restate rules of docs/rules.md for a student at the scoring calculator and the disaster
explorer, with the words of a translated rulebook.
"""

from __future__ import annotations

__all__ = ["DISASTER_RULES", "SCORING_RULES"]

#: The scoring rules, as the rules of record state them, with the rulebook's words ([HU], translated).
SCORING_RULES: dict[str, str] = {
    "god": "R63 Gods: +2 per god tile. Rulebook: \u201cevery god: 2 points\u201d.",
    "pharaoh": "R64 Pharaohs: all tied for the most pharaohs get +5, all tied for the fewest get \u22122; if all "
    "have the same number, nobody scores. Rulebook: \u201cwhoever has the most pharaohs gets 5 points; whoever has "
    "the fewest loses 2 points\u201d.",
    "river": "R65 Nile and floods: with at least one flood, +1 per Nile and +1 per flood; with no flood, 0. "
    "Rulebook: \u201cevery Nile and flood: 1 point, if there is at least one flood!\u201d",
    "civilization": "R66 Civilizations: none at all \u22125; 1 or 2 kinds 0; 3 kinds +5, 4 kinds +10, 5 kinds +15. "
    "Rulebook: \u201ca player who has no civilization at the end of the epoch loses 5 points\u201d.",
    "gold": "R67 Gold: +3 per gold tile.",
    "monument": "R68, R70 Monuments, after epoch 3 only: 1\u20136 kinds score 1\u20136, 7 kinds 10, 8 kinds 15; plus "
    "5/10/15 for each kind with 3/4/5 copies. Rulebook: \u201c1-6/7/8 different monuments: 1-6/10/15 points; 3/4/5 "
    "identical monuments: 5/10/15 points\u201d.",
    "sun": "R71 Suns, after epoch 3 only: each player adds up all his suns, face up and down; the highest total "
    "gets +5, the lowest \u22125; if all are equal, nobody scores.",
    "fame": "R69 The epoch's points are added to the fame; a total below 0 becomes 0. Pharaohs, Niles and "
    "monuments are kept from epoch to epoch; gods, gold, floods and civilizations are discarded (R60).",
}

#: The disaster rules of record (R50-R53), with the rulebook's words ([HU], translated).
DISASTER_RULES: tuple[str, ...] = (
    "R50 For each disaster won, the player must discard two tiles of its category; with only one he discards "
    "it, with none nothing happens. Rulebook: \u201cif he can lose two, he must lose two\u201d.",
    "R51 Funeral takes pharaohs; drought floods and Niles; unrest civilizations; earthquake monuments.",
    "R52 Drought takes floods first, and Niles only to make up the two.",
    "R53 With more than two matching tiles the player chooses which two to lose. Rulebook: \u201che may decide "
    "which two to discard. There is one exception: the drought\u201d.",
)
