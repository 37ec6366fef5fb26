"""Champions who join units (special-troops.champions).

"Champions may join units and are treated as if mixed in with the front rank. While in the front
rank, up to 2 of their opponent's dice may be declared as targeting the champion."

Play (docs/rulings/into-the-dark.md, "Champions joining units"): a champion joins a friendly unit
as his action in the Movement phase (``join C U``) when the unit is within his remaining move and
he is not in melee; he leaves the table as a unit of his own and stays with the unit for the rest
of the battle (the text gives no way out). In each melee round he adds his own attack - 2 d6, 1 when
wounded, never doubled (ruling 26) - against the enemy in contact with the unit's front (the one
with the longest contact), with the unit's charging bonus; enemies fighting the unit's front may
declare up to 2 dice at him (``act_generals``). He takes no part in the unit's missile fire, its
morale tests or its casualties; he shares its fate: when the unit is destroyed, routs off or
leaves the table, he is lost with it. His attack and the dice declared at him are rolled in the
melee round (``front_rank``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder

from .clauses import cite
from .extra_orders import Join
from .model import Unit
from .moves import can_move, done, own_unit, remaining
from .spatial import gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def joined_to(st: IntoTheDarkState, host: Unit) -> list[Unit]:
    """The champions standing in ``host``'s front rank."""
    return [c for c in st.units.values() if c.joined == host.id and not c.destroyed]


def join_problem(st: IntoTheDarkState, c: Unit, host: Unit | None) -> str | None:
    if not c.champion:
        return "only champions join units"
    if host is None or not host.on_table or host.side != c.side:
        return "a champion joins a friendly unit on the table"
    if host.champion:
        return "a champion joins a unit of figures, not another champion"
    if host.routed:
        return f"{host.id} is routing"
    prob = can_move(st, c)
    if prob:
        return prob
    left = remaining(st, c)
    if gap(c.fp, host.fp) > left + 1e-9:
        return f'{host.id} is {gap(c.fp, host.fp):.1f}" away, beyond his {left:.1f}" of move'
    return None


def join_menu(st: IntoTheDarkState, c: Unit) -> list[Join]:
    if not c.champion:
        return []
    return [Join(c.id, h.id) for h in st.live(c.side) if h.id != c.id and join_problem(st, c, h) is None]


def join(st: IntoTheDarkState, order: Join) -> None:
    c = own_unit(st, order.unit)
    host = st.units.get(order.host)
    prob = join_problem(st, c, host)
    if prob:
        raise IllegalOrder(cite("special-troops.champions"), f"{c.id} cannot join {order.host}: {prob}")
    assert host is not None
    c.acted = True
    c.joined = host.id
    st.log("join", "special-troops.champions", side=c.side, unit=c.id, host=host.id)
    done(st, c)
