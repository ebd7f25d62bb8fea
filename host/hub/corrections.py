"""Corrections: the last entry typed at the hub (a move the mat has no sensor for, a name, a
phone paired or re-paired) can be taken back until the next move on the mat.

The board referees the moves: a move is taken back by an UNDO frame, and the board alone decides
(it refuses once a move on the mat came after it, docs/protocol.md). Names and pairings are the
hub's own (``host/hub/store.py``): an entry carries what puts the old value back. One entry is
kept, the newest: an undo takes back that one only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from host.i18n import N_
from host.screen.wording import Voice, sentence


class UndoRefused(ValueError):
    """Nothing may be undone now; the message is a reason name (host/screen/table_words.py)."""


@dataclass
class Entry:
    """The newest entry typed at the hub."""

    kind: str                     # "action", "name", "paired" (a phone confirmed), "repaired"
    seat: int
    hellos: int                   # the board's HELLO count when it was made: a new game ends it
    action: dict[str, Any] | None = None   # a move, as the board recorded it (public fields)
    sent: dict[str, Any] | None = None     # ... and as the hub sent it (UNDO names it so)
    was: str = ""                 # a name entry: the name before, and the new one
    now: str = ""
    restore: Callable[[], object] | None = None   # the hub's own entries: puts the old value back

    def words(self, game: str, v: Voice) -> str:
        """What an undo takes back, in plain words (the TV's button says it)."""
        if self.kind == "action":
            return sentence(game, self.action, v)
        if self.kind == "name":
            if self.was:
                return v.tr("the name {now} for seat {n} (back to {was})", now=self.now, n=self.seat, was=self.was)
            return v.tr("the name {now} for seat {n} (back to no name)", now=self.now, n=self.seat)
        if self.kind == "paired":
            return v.tr("the phone paired with {who}", who=v.who(self.seat))
        return v.tr("the re-pairing of {who} (the old phone works again)", who=v.who(self.seat))

    def public(self, game: str, v: Voice) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "text": v.tr(UNDO_LABEL, what=self.words(game, v))}


UNDO_LABEL = N_("Undo: {what}")
