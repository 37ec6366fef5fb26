"""Choices made after deployment in one-hour-dark-ages: what Viking Veterans fight as ("Ideas for
Unit Types": "Viking Veterans. After deployment choose to fight as Infantry OR Warriors.").

The owner chooses once per battle, after both sides have deployed and before the first turn (ruling
R47), for each of its Viking Veterans; the choice holds for the whole battle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_common import _own, bad
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import unit_profiles

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

CLAUSE = "ideas-for-unit-types.viking-veterans"


def choice_word(type_key: str) -> str:
    """The word a player uses for one of a unit's choices: ``viking-veterans-warriors`` -> ``warriors``."""
    return type_key.rsplit("-", 1)[-1]


def pending(st: OneHourState, side: str) -> list[Unit]:
    """The side's units that still have to choose what they fight as."""
    return [u for u in st.live(side) if u.profile.fight_as]


def choice_orders(st: OneHourState) -> list[O.Order]:
    return [O.FightAs(u.id, choice_word(k)) for u in pending(st, st.side) for k in u.profile.fight_as]


def fight_as(st: OneHourState, order: O.FightAs) -> None:
    """ "Viking Veterans. After deployment choose to fight as Infantry OR Warriors." """
    u = _own(st, order.unit)
    if not u.profile.fight_as:
        raise bad(CLAUSE, f"{u.id} ({u.profile.name}) has no choice of type to make")
    options = {choice_word(k): k for k in u.profile.fight_as}
    key = options.get(order.choice)
    if key is None:
        raise bad(CLAUSE, f"{u.id} fights as {' OR '.join(options)}, not {order.choice!r}")
    was = u.profile.name
    u.type = key
    u.profile = unit_profiles()[key]
    st.log("fight-as", CLAUSE, unit=u.id, choice=order.choice, type=key, was=was, name=u.profile.name)
    st.after_choice()
