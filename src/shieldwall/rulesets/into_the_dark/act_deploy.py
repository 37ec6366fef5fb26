"""Deployment in play (``options.deployment = "alternate"``) and Concealed Deployment.

"Each side alternates setting up units, one at a time, first all the foot troops, then all the
mounted. To begin, each side rolls a die. The side with the lower score starts by placing one foot
unit, then the other side does, and they alternate until all the foot units are placed. If one player
has more foot units than his opponent, he places the leftover units now. Next place the mounted
units, using the same procedure as for the foot." (setup.deployment)

With ``options.concealed_deployment`` units go down as face-down cards (concealed-deployment.playing-cards)
with the side's dummy cards (concealed-deployment.dummies); "Once both armies are deployed, flip over
the cards". Until then the opponent sees a card where a unit stands: the unit is ``hidden_from`` the
other side in the view, and the event naming it is ``hidden_from`` that side too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.events import Event
from shieldwall.core.geometry import CONTACT_TOL, Footprint, heading_vector
from shieldwall.core.polygons import convex_penetration

from .clauses import cite
from .extra_orders import Deploy
from .model import SIDES, other
from .movement import on_table, terrain_effect
from .scenario import zone_problem

if TYPE_CHECKING:
    from .state import IntoTheDarkState

FACING = {"south": 0.0, "north": 180.0, "west": 90.0, "east": -90.0}


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


def concealed(st: IntoTheDarkState) -> bool:
    return bool(st.params["concealed_deployment"])


def dummy_ids(st: IntoTheDarkState, side: str) -> list[str]:
    n = getattr(st.game.spec, side).dummies if concealed(st) else 0
    return [f"{side}-dummy-{i + 1}" for i in range(n)]


def to_place(st: IntoTheDarkState, side: str, cls: str) -> list[str]:
    """Units (and, with the foot, dummy cards: docs/rulings) of ``side`` still to be placed."""
    out = [
        u.id
        for u in st.units.values()
        if u.side == side and not u.deployed and not u.gone and u.mounted == (cls == "mounted")
    ]
    if cls == "foot":
        placed = {c["dummy"] for c in st.cards.values() if c.get("dummy")}
        out += [d for d in dummy_ids(st, side) if d not in placed]
    return out


def roll_off(st: IntoTheDarkState, cls: str) -> None:
    """Task: "each side rolls a die. The side with the lower score starts" (ties rolled again)."""
    st.phase = "deployment"
    while True:
        faces = st.roll_d6(2)
        roll = {s: faces[i] for i, s in enumerate(SIDES)}
        low = None if faces[0] == faces[1] else min(SIDES, key=lambda s: roll[s])
        st.log("deploy-roll", "setup.deployment", die="d6", faces=roll, troops=cls, first=low)
        if low is not None:
            break
    st.deploy = {"cls": cls, "next": low}
    st.push(("deploy-next",))


def deploy_next(st: IntoTheDarkState) -> None:
    """Task: whose turn it is to place a unit, or the next stage."""
    assert st.deploy is not None
    cls, nxt = st.deploy["cls"], st.deploy["next"]
    left = {s: to_place(st, s, cls) for s in SIDES}
    if not left["red"] and not left["blue"]:
        if cls == "foot":
            st.push(("deploy-roll", "mounted"))
        else:
            reveal(st)
        return
    side = nxt if left[nxt] else other(nxt)
    st.ask("deploy", side, None, troops=cls)


def footprint_of(st: IntoTheDarkState, uid: str, x: float, y: float, heading: float) -> Footprint:
    fx, fy = heading_vector(heading)
    if uid in st.units:
        u = st.units[uid]
        w, d = u.frontage, u.depth
    else:
        sd = getattr(st.game.spec, uid.split("-")[0])
        w, d = float(sd.card_width), float(sd.card_depth)
    return Footprint(x - fx * d / 2.0, y - fy * d / 2.0, heading, w, d)


def deploy_problem(st: IntoTheDarkState, side: str, uid: str, fp: Footprint) -> str | None:
    """Why ``uid`` may not be placed on ``fp`` now (setup.deployment). In concealed deployment the
    card takes the room it is shown, its side's card envelope (ruling 70): on the table, in the
    zone and clear of every card, the side's own included, so that no two cards the other side sees
    overlap or stand off the table (which would tell that one holds something smaller)."""
    assert st.deploy is not None
    if uid not in to_place(st, side, st.deploy["cls"]):
        return f"{uid} is not one of {side}'s {st.deploy['cls']} units waiting to be placed"
    room = shown_room(st, side, fp) if concealed(st) else fp
    if not on_table(room, st.terrain):
        return "it would not stand on the table"
    prob = zone_problem(st.terrain, st.game.home_edge[side], room.corners(), str(st.params["scale"]))
    if prob:
        return prob.replace("is deployed", "would stand")
    if uid in st.units:
        factor, dis, _ = terrain_effect(st.units[uid], fp, st.terrain, swim=False)
        if factor is None:
            return f"it may not stand in that terrain ({cite(dis[0])})"
    for o in placed_seen_by(st, side):
        if convex_penetration(room.corners(), o.corners()) > CONTACT_TOL:
            return "it would overlap a unit or card already placed"
    return None


def shown_room(st: IntoTheDarkState, side: str, fp: Footprint) -> Footprint:
    """The rectangle a face-down card of ``side`` standing on ``fp`` is shown as: the side's card
    envelope, front edge where ``fp``'s is (concealed-deployment.dummies, ruling 70)."""
    w, d = card_envelope(st, side)
    fx, fy = heading_vector(fp.heading)
    return Footprint(fp.x + fx * (fp.depth - d) / 2.0, fp.y + fy * (fp.depth - d) / 2.0, fp.heading, w, d)


def placed_seen_by(st: IntoTheDarkState, side: str) -> list[Footprint]:
    """What stands on the table as ``side`` sees it while it places a unit or a dummy card: the
    units it sees and every face-down card, its own too, as the other side is shown it (all of one
    size, ``shown_room``), never the unit or dummy under it. Measured by
    their true size they would answer a probing order with what the card hides (docs/rulings 70,
    concealed-deployment.dummies)."""
    under = {c["unit"] for c in st.cards.values()}
    out = [u.fp for u in st.live() if u.id not in under]
    for card in st.cards.values():  # every card as it is shown (its own side sees it true, but
        # it takes the room the other side sees: ruling 70)
        out.append(shown_room(st, card["side"], Footprint(*card["fp"])))
    return out


def deploy(st: IntoTheDarkState, order: Deploy) -> None:
    assert st.pending is not None and st.deploy is not None
    side = st.pending["side"]
    if order.unit not in to_place(st, side, st.deploy["cls"]):
        # the same words whether the id names nothing, a unit or one of the other side's dummy
        # cards: the answer must not tell how many dummies the other side has
        raise bad(
            "setup.deployment",
            f"deploy {order.unit}: {order.unit} is not one of {side}'s {st.deploy['cls']} units waiting "
            "to be placed",
        )
    fp = footprint_of(st, order.unit, order.x, order.y, order.heading)
    prob = deploy_problem(st, side, order.unit, fp)
    if prob:
        raise bad("setup.deployment", f"deploy {order.unit}: {prob}")
    st.deploy["next"] = other(side)
    pos = [round(order.x, 3), round(order.y, 3), round(order.heading, 3)]
    if order.unit in st.units:
        u = st.units[order.unit]
        u.x, u.y, u.heading = order.x, order.y, order.heading
        u.deployed = True
    if not concealed(st):
        st.log("deploy", "setup.deployment", side=side, unit=order.unit, at=pos, troops=st.deploy["cls"])
        st.push(("deploy-next",))
        return
    card = f"{side}-card-{sum(1 for c in st.cards.values() if c['side'] == side) + 1}"
    is_dummy = order.unit not in st.units
    st.cards[card] = {
        "side": side,
        "unit": None if is_dummy else order.unit,
        "dummy": order.unit if is_dummy else None,
        "fp": (fp.x, fp.y, fp.heading, fp.frontage, fp.depth),
    }
    st.log(
        "card-placed",
        "concealed-deployment.playing-cards",
        side=side,
        card=card,
        at=pos,
        width=round(fp.frontage, 3),
        depth=round(fp.depth, 3),
    )
    st.log(
        "deploy",
        "concealed-deployment.dummies" if is_dummy else "concealed-deployment.playing-cards",
        side=side,
        unit=order.unit,
        card=card,
        at=pos,
        dummy=is_dummy,
        hidden_from=[other(side)],
    )
    st.push(("deploy-next",))


def reveal(st: IntoTheDarkState) -> None:
    """ "Once both armies are deployed, flip over the cards so your opponent can see them, and
    replace them with the corresponding units" (concealed-deployment.playing-cards); dummy cards
    are taken away (concealed-deployment.dummies)."""
    st.deploy = None
    if st.cards:
        st.log(
            "reveal",
            "concealed-deployment.playing-cards",
            cards={k: (c["unit"] or "dummy") for k, c in st.cards.items()},
            dummies=sorted(k for k, c in st.cards.items() if c["dummy"]),
        )
        st.cards = {}
    st.log(
        "deployment",
        "setup.deployment",
        positions={
            u.id: [round(u.x, 3), round(u.y, 3), round(u.heading, 3)] for u in st.units.values() if u.deployed
        },
        reason="placed in turn, foot then mounted",
    )


def is_hidden(st: IntoTheDarkState, uid: str) -> bool:
    """A unit still under its face-down card."""
    return any(c["unit"] == uid for c in st.cards.values())


def menu(st: IntoTheDarkState) -> list[Deploy]:
    """A few places for each unit (or dummy) waiting: the scenario's suggested position, and spots
    along the middle of the deployment zone facing the enemy."""
    assert st.pending is not None and st.deploy is not None
    side = st.pending["side"]
    t = st.terrain
    edge = st.game.home_edge[side]
    h = FACING[edge]
    sug = {d.id: d for d in getattr(st.game.spec, side).deploy}
    out: list[Deploy] = []
    for uid in to_place(st, side, st.deploy["cls"]):
        spots: list[tuple[float, float, float]] = []
        if uid in sug:
            spots.append((sug[uid].x, sug[uid].y, sug[uid].heading))
        gap = 12.0 * (0.5 if st.params["scale"] == "15mm" else 1.0)
        lat = [0.5, 0.3, 0.7, 0.1, 0.9, 0.4, 0.6, 0.2, 0.8, 0.0, 1.0]
        for k in (1.0, 0.7, 0.4):
            for f in lat:
                if edge in ("south", "north"):
                    quarter = t.depth / 4.0
                    y = quarter * k if edge == "south" else t.depth - quarter * k
                    spots.append((gap + (t.width - 2 * gap) * f, y, h))
                else:
                    quarter = t.width / 4.0
                    x = quarter * k if edge == "west" else t.width - quarter * k
                    spots.append((x, gap + (t.depth - 2 * gap) * f, h))
        n = 0
        for x, y, hh in spots:
            fp = footprint_of(st, uid, x, y, hh)
            if deploy_problem(st, side, uid, fp) is None:
                out.append(Deploy(uid, round(x, 2), round(y, 2), hh))
                n += 1
                if n >= 3:
                    break
        if n == 0:  # the usual spots are taken: look over the whole table, finer and finer
            out += _any_room(st, side, uid, h)
    return out


def _any_room(st: IntoTheDarkState, side: str, uid: str, heading: float) -> list[Deploy]:
    """Up to three places for ``uid`` on a grid over the table (1", then 1/2", then 1/4"), for a
    zone so full that none of the menu's usual spots is free: a place the rules allow must not go
    missing from the menu (a bot, or a player choosing from it, would have nothing to give)."""
    t = st.terrain
    for step in (1.0, 0.5, 0.25):
        found: list[Deploy] = []
        for i in range(int(t.width / step) + 1):
            for j in range(int(t.depth / step) + 1):
                x, y = i * step, j * step
                if deploy_problem(st, side, uid, footprint_of(st, uid, x, y, heading)) is None:
                    found.append(Deploy(uid, round(x, 2), round(y, 2), heading))
                    if len(found) >= 3:
                        return found
        if found:
            return found
    return []


def view_cards(st: IntoTheDarkState) -> list[dict[str, Any]]:
    return [
        {
            "id": k,
            "side": c["side"],
            "x": round(c["fp"][0], 4),
            "y": round(c["fp"][1], 4),
            "heading": round(c["fp"][2], 4),
            "frontage": round(c["fp"][3], 4),
            "depth": round(c["fp"][4], 4),
        }
        for k, c in st.cards.items()
    ]


def card_envelope(st: IntoTheDarkState, side: str) -> tuple[float, float]:
    """The size the other side sees of every face-down card of ``side``: the largest frontage and
    the largest depth of the side's units and of its dummy cards. A card's true size is its unit's
    (or the dummy card's), so shown as it is it would tell a dummy (and a unit's type) by its size;
    the envelope holds each card's true rectangle (same front edge, same heading)."""
    sd = getattr(st.game.spec, side)
    ws = [u.frontage for u in st.units.values() if u.side == side]
    ds = [u.depth for u in st.units.values() if u.side == side]
    if sd.card_width is not None and sd.card_depth is not None:
        ws.append(float(sd.card_width))
        ds.append(float(sd.card_depth))
    return round(max(ws, default=0.0), 3), round(max(ds, default=0.0), 3)


def cards_seen_by(st: IntoTheDarkState, viewer: str) -> list[dict[str, Any]]:
    """The face-down cards as ``viewer`` sees them: its own as they are, the other side's all of
    one size (``card_envelope``), each with its front edge where the card's is."""
    out = view_cards(st)
    for c, card in zip(out, st.cards.values(), strict=True):
        if c["side"] == viewer:
            continue
        x, y, heading, _, depth = card["fp"]
        w, d = card_envelope(st, c["side"])
        fx, fy = heading_vector(heading)
        c["x"] = round(x + fx * (depth - d) / 2.0, 4)
        c["y"] = round(y + fy * (depth - d) / 2.0, 4)
        c["frontage"], c["depth"] = w, d
    return out


def event_seen_by(st: IntoTheDarkState, ev: Event, viewer: str) -> Event:
    """``ev`` as ``viewer`` may read it: another side's ``card-placed`` gives the card's size as
    every card of that side is shown (``card_envelope``), not the size of what lies under it."""
    side = ev.side
    if ev.kind != "card-placed" or side is None or side == viewer:
        return ev
    w, d = card_envelope(st, side)
    return Event(ev.turn, ev.phase, ev.side, ev.kind, ev.rule, {**ev.data, "width": w, "depth": d})
