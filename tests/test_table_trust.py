"""Seat pairing, the merchant's consent and the hub's store, without a board: who may take a
seat, who may agree to what, and what survives a restart of the hub."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from host.hub.mirror import Event
from host.hub.proposals import ProposalRefused, Proposals, needs_consent
from host.hub.store import Store, default_path
from host.hub.table import Table
from host.screen.wording import Outcome, Said
from host.web.pairing import Pairing, PairRefused


def test_a_seat_is_paired_only_through_the_host_and_only_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "hub.sqlite")
    pairing = Pairing(store, 4)
    claim = pairing.claims[2]
    with pytest.raises(PairRefused, match="no longer valid"):
        pairing.ask(2, "a guess")
    with pytest.raises(PairRefused, match="no longer valid"):
        pairing.ask(2, pairing.claims[1])          # another seat's code
    asked = pairing.ask(2, claim)
    assert len(asked.code) == 4 and asked.code.isdigit()
    assert pairing.collect(2, asked.ask) is None   # waiting for the host
    assert pairing.waiting() == {2: asked.code}
    with pytest.raises(PairRefused):
        pairing.confirm(2, "%04d" % ((int(asked.code) + 1) % 10000))   # the wrong code
    with pytest.raises(PairRefused):
        pairing.collect(2, "someone else's request")
    pairing.confirm(2, asked.code)
    token = pairing.collect(2, asked.ask)
    assert token and pairing.tokens[2] == token and pairing.paired(2)
    with pytest.raises(PairRefused, match="already has a phone"):
        pairing.ask(2, claim)                       # the same QR code, a second phone
    pairing.unpair(2)                               # the host re-pairs: old token and code are dead
    assert pairing.tokens[2] is None and pairing.claims[2] != claim
    with pytest.raises(PairRefused, match="no longer valid"):
        pairing.ask(2, claim)


def test_a_rejected_or_replaced_request_gets_no_token(tmp_path: Path) -> None:
    pairing = Pairing(Store(tmp_path / "hub.sqlite"), 4)
    first = pairing.ask(1, pairing.claims[1])
    second = pairing.ask(1, pairing.claims[1])      # the newest request is the one the TV shows
    assert pairing.waiting() == {1: second.code}
    with pytest.raises(PairRefused):
        pairing.collect(1, first.ask)
    pairing.reject(1)
    with pytest.raises(PairRefused):
        pairing.collect(1, second.ask)
    assert not pairing.paired(1)


def test_pairings_names_events_and_archive_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    store = Store(path)
    pairing = Pairing(store, 4)
    asked = pairing.ask(0, pairing.claims[0])
    pairing.confirm(0, asked.code)
    table = Table(store)
    table.name(0, "  Ann   Lê ")
    bribe = {"a": "pass", "p": 0, "target": 1, "bribe": {"gold": 3}}
    accepted = Event("accepted", "pass", 0, bribe, time.time(), outcome=Outcome((Said("{seat} pays {n} gold",
                                                                                       {"seat": 1}, n=3),)))
    store.add_event(accepted)
    table.close_game({"game": "sheriff", "players": 4}, [accepted], 4)
    store.add_event(Event("rejected", "flip", 2, {"a": "flip", "p": 2}, time.time() + 1, reason="not_your_turn"))
    store.close()

    again = Store(path)
    paired = Pairing(again, 4)
    assert paired.host == pairing.host and paired.tokens[0] == pairing.tokens[0] and paired.claims == pairing.claims
    restored = Table(again)
    assert restored.names[0] == "Ann Lê" and restored.since == table.since
    assert [a.number for a in restored.archive] == [1]
    assert '"bribe": {"gold": 3}' in restored.archive[0].log() and "# seat 0: Ann Lê" in restored.archive[0].log()
    events = again.events_since(0)
    assert [e.kind for e in events] == ["accepted", "rejected"]
    assert events[0].outcome == accepted.outcome and events[1].reason == "not_your_turn"
    assert [e.kind for e in again.events_since(restored.since)] == ["rejected"]   # the new game's


def test_a_damaged_store_file_is_named_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    path.write_bytes(b"this is no database" * 100)
    with pytest.raises(ValueError, match=str(path)):
        Store(path)
    assert default_path("/dev/ttyACM0").parent.name == "ttyACM0"
    assert default_path(str(tmp_path / "tty")) == tmp_path / "hub.sqlite"


def test_what_needs_the_merchants_consent() -> None:
    assert needs_consent({"a": "pass", "p": 0, "target": 1, "bribe": {"gold": 3}})
    assert needs_consent({"a": "inspect", "p": 0, "target": 1, "pay_with": ["apple"]})
    assert not needs_consent({"a": "pass", "p": 0, "target": 1})
    assert not needs_consent({"a": "inspect", "p": 0, "target": 1})
    assert not needs_consent({"a": "declare", "p": 1, "good": "apple", "count": 2})


def test_only_the_payer_agrees_and_either_side_withdraws() -> None:
    book = Proposals()
    made = book.propose({"a": "pass", "p": 0, "target": 2, "bribe": {"gold": 5}})
    with pytest.raises(ProposalRefused, match="only the merchant who pays"):
        book.answer(made.number, 0, True)           # the Sheriff cannot agree for the merchant
    with pytest.raises(ProposalRefused, match="not yours"):
        book.answer(made.number, 3, False)          # a bystander cannot withdraw it
    assert book.answer(made.number, 2, True).action["bribe"] == {"gold": 5}
    with pytest.raises(ProposalRefused, match="no longer waiting"):
        book.answer(made.number, 2, True)           # agreed once only
    again = book.propose({"a": "pass", "p": 0, "target": 2, "bribe": {"gold": 1}})
    newer = book.propose({"a": "pass", "p": 0, "target": 2, "bribe": {"gold": 2}})
    assert [p.number for p in book.listed()] == [newer.number]   # a new offer replaces the old
    assert book.answer(newer.number, 0, False).number == newer.number and again.number not in book.waiting
    with pytest.raises(ProposalRefused):
        book.propose({"a": "pass", "p": 0, "target": 0, "bribe": {"gold": 1}})   # to oneself
    for answer in ("1", None, 1.0, True):
        with pytest.raises(ProposalRefused):
            book.answer(answer, 2, True)


def test_a_refused_tap_says_which_card_to_take_back_from_where() -> None:
    from host.screen.scoreboard import event_text, pad_names
    from host.screen.wording import Voice

    voice = Voice("en", ("Ann", "Bob", "Cy", "Dee"))
    pads = pad_names("sheriff", 4, voice)
    stand = next(r for r, name in pads.items() if name == "Bob's stand pad")
    claim = {"a": "claim", "p": 1, "good": "silk"}
    tapped = event_text(Event("rejected", "", 1, claim, reason="not_now", reader=stand), pads, "sheriff", voice).plain
    assert tapped.startswith("✗ Bob claims a Black Market silk card refused at Bob's stand pad: ")
    assert tapped.endswith(" — take that card back off Bob's stand pad")
    entered = event_text(Event("rejected", "", 1, claim, reason="not_now"), pads, "sheriff", voice).plain
    assert "take" not in entered   # a host entry: nothing lies on the mat
    said = event_text(Event("rejected", "", 1, claim, reason="not_now", reader=stand), pads, "sheriff",
                      Voice("vi", voice.names)).plain
    assert "lấy lá bài đó lại khỏi" in said
