"""Bribes and payments in chosen goods the way the table does them: a proposal until the one
who pays agrees.

At a real table the Sheriff cannot take a merchant's gold by saying so: the merchant hands it
over. So an entry from the Sheriff's phone that moves another player's gold or goods (a bribe
accepted with ``pass``, a debt paid in chosen goods with ``inspect``) waits here until the
merchant concerned agrees on their own phone; either side may withdraw it before that. Only then
does it go to the board, where the referee rules on it as on any action. The proposal is public
(bargaining is done aloud), so the TV shows it while it waits.
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from host.i18n import N_

MAX_WAITING = 32   # proposals waiting at once (a stuck phone cannot grow the hub's memory)


class ProposalRefused(ValueError):
    """An answer that does not fit (the message is a msgid)."""


def needs_consent(action: dict[str, Any]) -> bool:
    """Whether ``action`` moves what another player owns by the proposer's word alone."""
    if action.get("a") == "pass":
        return bool(action.get("bribe"))
    if action.get("a") == "inspect":
        return bool(action.get("pay_with"))
    return False


@dataclass
class Proposal:
    number: int
    action: dict[str, Any]   # as it will go to the board (``p``: the proposer)
    made: float = field(default_factory=time.time)

    @property
    def by(self) -> int:
        return int(self.action["p"])

    @property
    def payer(self) -> int:
        """The merchant who must agree: the one the Sheriff's decision is about."""
        return int(self.action["target"])

    def public(self) -> dict[str, Any]:
        return {"number": self.number, "by": self.by, "payer": self.payer, "action": self.action}


class Proposals:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[int, Proposal] = {}
        self._numbers = itertools.count(1)

    def propose(self, action: dict[str, Any]) -> Proposal:
        """A new proposal; the proposer's earlier one about the same merchant is replaced."""
        target = action.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or target == action.get("p"):
            raise ProposalRefused(N_("choose the merchant it is about"))
        with self.lock:
            for n, p in list(self.waiting.items()):
                if p.by == action["p"] and p.payer == target:
                    del self.waiting[n]
            if len(self.waiting) >= MAX_WAITING:
                raise ProposalRefused(N_("too many proposals are waiting: answer or withdraw some first"))
            made = Proposal(next(self._numbers), dict(action))
            self.waiting[made.number] = made
            return made

    def answer(self, number: Any, seat: int, agree: bool) -> Proposal:
        """``seat`` agrees (the payer only) or withdraws (the payer or the proposer): the proposal
        leaves the list either way and is returned (to be sent to the board when agreed)."""
        with self.lock:
            found = self.waiting.get(number) if type(number) is int else None   # not True, not 1.0
            if found is None:
                raise ProposalRefused(N_("that proposal is no longer waiting"))
            if agree and seat != found.payer:
                raise ProposalRefused(N_("only the merchant who pays can agree"))
            if seat not in (found.payer, found.by):
                raise ProposalRefused(N_("that proposal is not yours to answer"))
            return self.waiting.pop(number)

    def forget(self) -> None:
        """A new game: nothing proposed in the last one still stands."""
        with self.lock:
            self.waiting.clear()

    def listed(self) -> list[Proposal]:
        with self.lock:
            return sorted(self.waiting.values(), key=lambda p: p.number)
