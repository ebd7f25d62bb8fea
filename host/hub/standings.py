"""Where each Sheriff merchant's final score comes from: goods by kind, King and Queen bonuses
per legal good, gold, Black Market cards and special orders (the standings' breakdown).

Everything is asked of the rules' own scoring (``shared_rules.sheriff.score``) on the referee's
state: a legal good's bonus is ``score.bonuses`` on a view of the stands that shows only that
good's kinds, so no scoring rule is written twice. The parts add up to the score the rules give
(``tests/test_standings.py``).
"""
from __future__ import annotations

from typing import Any

from shared_rules.sheriff import score
from shared_rules.sheriff.rules import CODES


class _OneGood:
    """The game as ``score.bonuses`` sees it, with only the goods counting for one legal good."""

    def __init__(self, game: Any, good: int) -> None:
        self.game = game
        self.good = good

    def seats(self) -> int:
        return int(self.game.seats())

    def stand(self, seat: int, g: int) -> int:
        return int(self.game.stand(seat, g)) if score._COLUMNS[score._AS_GOOD + g] == self.good else 0


def black_market_value(game: Any, seat: int) -> int:
    """The Black Market cards a seat holds (0 without the module)."""
    from shared_rules.sheriff.modules.expansion import SheriffMM
    return int(SheriffMM.extra_value(game, seat)) if isinstance(game, SheriffMM) else 0


def sheriff_breakdown(game: Any) -> list[dict[str, Any]]:
    """Per seat: ``goods`` {code: [count, value]}, ``bonuses`` {legal good: gold}, ``gold``,
    ``black_market``, ``orders`` and ``total`` (the rules' score)."""
    totals = score.scores(game)
    per_good = {CODES[good]: score.bonuses(_OneGood(game, good)) for good in range(score._LEGAL_KINDS)}
    extra = getattr(game, "extra_value", None)
    out = []
    for seat in range(game.seats()):
        goods = {}
        for g in range(score._KINDS):
            n = game.stand(seat, g)
            if n:
                goods[CODES[g]] = [n, n * score._COLUMNS[score._VALUE + g]]
        market = black_market_value(game, seat)
        out.append({
            "goods": goods,
            "bonuses": {good: paid[seat] for good, paid in per_good.items() if paid[seat]},
            "gold": game.gold(seat),
            "black_market": market,
            "orders": (extra(seat) if extra else 0) - market,
            "total": totals[seat],
        })
    return out
