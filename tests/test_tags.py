"""Deck provisioning without a board: pieces, names, the tapping session, UID lists, merging,
and the signing tap loop against a stand-in for the board's reader script."""
from __future__ import annotations

from pathlib import Path

import pytest

from host.board import ndef
from host.cli.tags import parse_modules, tap_loop
from host.board.tags import (CODES, Piece, ProvisionError, Session, TagEvent, load_registry, merge,
                       parse_name, piece_of, pieces_for, read_uid_list, resolve, write_registry)
from shared_rules import catalogue
from shared_rules.core import deck
from shared_rules.core import tokens

A, B, C, D, E = ("04a10000000001", "04a10000000002", "04a10000000003", "04a10000000004",
                 "04a10000000005")


def test_piece_sets() -> None:
    skull = pieces_for("skull", [1, 3])
    assert len(skull) == 8 and [str(p) for p in skull[:4]] == [
        "skull disc flower of seat 1", "skull disc flower of seat 1", "skull disc flower of seat 1",
        "skull disc skull of seat 1"]
    assert len(pieces_for("deadmans", number=0)) == 60 + 17
    second = pieces_for("deadmans", number=1)
    assert len(second) == 60 and all(p.deck == 1 and p.kind == "card" for p in second)
    assert len(pieces_for("sheriff")) == sum(g[2] for g in catalogue.SHERIFF_GOODS) == 216
    assert len(pieces_for(None, token_copies=2)) == 2 * len(tokens.CODES)
    bm = pieces_for("sheriff", modules=["black_market"])[216:]
    assert [str(p) for p in bm[:2]] == ["sheriff module black_market_pepper_top",
                                        "sheriff module black_market_pepper_lower"] and len(bm) == 6
    deck.pack([p.record("04%012x" % i) for i, p in enumerate(bm)])
    with pytest.raises(deck.DeckError, match="one more sheriff module black_market_silk_top than the game has"):
        deck.pack([p.record("04%012x" % i) for i, p in enumerate(bm + bm[-2:-1])])
    for game in ("skull", "deadmans", "sheriff", None):  # every set fits one registry
        deck.pack([p.record("04%012x" % i) for i, p in enumerate(pieces_for(game, range(12)))])
    with pytest.raises(ProvisionError, match="unknown game 'chess'"):
        pieces_for("chess")
    assert parse_modules("black_market") == ["black_market"] and parse_modules("") == []
    with pytest.raises(ProvisionError, match="'deputies' has no tagged cards"):
        parse_modules("black_market,deputies")


def test_names_of_signed_records_round_trip() -> None:
    every = pieces_for("skull", range(12)) + pieces_for("deadmans") + pieces_for("deadmans", number=1) \
        + pieces_for("sheriff", modules=["black_market"]) + pieces_for(None)
    for p in set(every):
        assert parse_name(p.name) == p
        assert len(p.name) <= 32
    assert Piece("disc", "flower", "skull", 2).name == "flower/s2"
    assert Piece("card", "anchor2", "deadmans", None, 1).name == "anchor2/d1"
    assert len(CODES) == sum(len(deck.codes(g, k) or ()) for g in range(len(deck.GAMES))
                             for k in range(len(deck.KINDS)))
    with pytest.raises(ProvisionError, match="unknown code 'flowr'"):
        parse_name("flowr/s2")
    with pytest.raises(ProvisionError, match="'skull': a Skull disc needs its owner seat .0..11."):
        parse_name("skull")
    with pytest.raises(ProvisionError, match="only Skull discs"):
        resolve("apple", seat=2)
    with pytest.raises(ProvisionError, match="deck number 1 out of range"):
        parse_name("apple/d1")
    with pytest.raises(ProvisionError, match="unknown part 'x3'"):
        parse_name("pass/x3")


def test_session_taps_undo_and_refusals() -> None:
    s = Session(pieces_for("skull", [0]))
    assert s.expected == Piece("disc", "flower", "skull", 0) and s.progress() == (0, 4)
    assert s.tap(A) == Piece("disc", "flower", "skull", 0)
    with pytest.raises(ProvisionError, match=f"tag {A} was tapped already, as skull disc flower of seat 0"):
        s.tap(A.upper())
    s.tap(B)
    assert s.undo() == (B, Piece("disc", "flower", "skull", 0))
    assert s.progress() == (1, 4)
    for uid in (C, D):
        s.tap(uid)
    assert s.expected == Piece("disc", "skull", "skull", 0)
    s.tap(E)
    assert s.done and s.progress() == (4, 4)
    with pytest.raises(ProvisionError, match="every piece is registered"):
        s.tap("04a100000000ff")
    with pytest.raises(deck.DeckError, match="bad UID"):
        Session(pieces_for("skull", [0])).tap("04a1")
    assert sorted(piece_of(r).code for r in s.records()) == ["flower"] * 3 + ["skull"]
    assert {r["uid"] for r in s.records()} == {A, C, D, E}
    with pytest.raises(ProvisionError, match="nothing to undo"):
        Session([]).undo()


def test_session_resumes_and_refuses_tags_of_other_pieces() -> None:
    existing = [Piece("disc", "flower", "skull", 0).record(A), Piece("token", "pass").record(B)]
    s = Session(pieces_for("skull", [0]), existing)
    assert s.already == 1 and s.progress() == (1, 4)
    with pytest.raises(ProvisionError, match=f"tag {B} is already registered as token pass; "
                                             "lift it and tap skull disc flower of seat 0"):
        s.tap(B)
    assert s.taps == []
    s.tap(C)
    assert s.records()[:2] == existing


def test_uid_lists_csv_and_json(tmp_path: Path) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text(f"# vendor list\n{A},flower,2\n{B},anchor2,1\n\n{C},pass\n")
    assert read_uid_list(plain) == [Piece("disc", "flower", "skull", 2).record(A),
                                    Piece("card", "anchor2", "deadmans", None, 1).record(B),
                                    Piece("token", "pass").record(C)]
    headed = tmp_path / "headed.csv"
    headed.write_text(f"UID,Code,Deck\n04:A1:00:00:00:00:01,anchor2,1\n")
    assert read_uid_list(headed) == [Piece("card", "anchor2", "deadmans", None, 1).record(A)]
    js = tmp_path / "uids.json"
    js.write_text(f'[{{"uid": "{A}", "code": "skull", "seat": 4}}, {{"uid": "{B}", "code": "apple"}}]')
    assert read_uid_list(js) == [Piece("disc", "skull", "skull", 4).record(A),
                                 Piece("card", "apple", "sheriff").record(B)]


@pytest.mark.parametrize("text,message", [
    (f"{A},flower,2\n{B},flowr,2\n", "line 2: unknown code 'flowr'"),
    (f"{A},flower,2\n{B},pass\n{A},skull,1\n", f"line 3: duplicate UID {A} .already line 1: skull disc flower"),
    (f"{A},flower\n", "line 1: code 'flower': a Skull disc needs its owner seat"),
    (f"04a1,flower,1\n", "line 1: bad UID '04a1'"),
    ("".join(f"04a1000000001{i},flower,0\n" for i in range(4)), "one more skull disc flower of seat 0"),
    (f'[{{"uid": "{A}", "code": "pass", "colour": "red"}}]', "entry 0: unknown field.s. colour"),
    ('{"uid": 1}', "expected a JSON list"),
])
def test_uid_list_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "list.csv"
    path.write_text(text)
    with pytest.raises(ProvisionError, match=message):
        merge([], read_uid_list(path))


def test_merge_and_registry_file(tmp_path: Path) -> None:
    out = tmp_path / "deck.bin"
    assert load_registry(out) == []
    first = [Piece("token", "pass").record(A)]
    write_registry(out, first)
    again = merge(load_registry(out), first + [Piece("token", "confirm").record(B)], str(out))
    assert [piece_of(r).code for r in again] == ["pass", "confirm"]
    with pytest.raises(ProvisionError, match=f"tag {A} is already registered as token pass in .*deck.bin, "
                                             "not token cancel"):
        merge(again, [Piece("token", "cancel").record(A)], str(out))
    out.write_bytes(b"TMDK junk")
    with pytest.raises(ProvisionError, match="deck registry .*deck.bin"):
        load_registry(out)


class ScriptedReader:
    """Stands in for BoardReader: the arrivals of a test, and what the board answers to a
    write (the bytes read back, or the ProvisionError the board's status turned into)."""

    def __init__(self, uids: list[str], answers: list[bytes | Exception | None]) -> None:
        self.events = [TagEvent("arrive", u) for u in uids]
        self.answers = answers
        self.written: list[tuple[str, bytes]] = []

    def next(self, timeout: float) -> TagEvent | None:
        return self.events.pop(0) if self.events else None

    def write(self, uid: str, data: bytes) -> bytes:
        self.written.append((uid, data))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return data if answer is None else answer


def test_signing_counts_a_tap_only_when_the_record_read_back_verifies(tmp_path: Path) -> None:
    key = ndef.DeckKey(0x0A0B0C0D, bytes(range(32)))
    other = ndef.DeckKey(0x0A0B0C0D, bytes(32))
    out = tmp_path / "deck.bin"
    lifted = ProvisionError(f"tag {A}: writing the record failed at page 9: it is not on the reader")
    forged = ndef.encode(bytes.fromhex(A), "digit0", other)  # right deck id, another key
    reader = ScriptedReader([A, A, A, B], [lifted, forged, None, None])
    said: list[str] = []
    typed = iter([None] * 8 + ["q"])
    assert not tap_loop(Session(pieces_for(None)), reader, out, lambda: next(typed), said.append, key)
    assert [line.split(":")[0] for line in said] == [
        "[0/31] tap", "refused", "[0/31] tap", "refused", "[0/31] tap", "ok", "[1/31] tap", "ok",
        "[2/31] tap", "stopped; run the same command again to go on"]
    assert said[1].endswith("it is not on the reader") and "wrong MAC" in said[3]
    assert said[5] == f"ok: tag {A} = token digit0 (signed, read back)"
    assert [u for u, _ in reader.written] == [A, A, A, B]
    assert reader.written[2][1] == ndef.encode(bytes.fromhex(A), "digit0", key)
    assert reader.written[3][1] == ndef.encode(bytes.fromhex(B), "digit1", key)
    assert {r["uid"]: r["code"] for r in load_registry(out)} == {A: "digit0", B: "digit1"}
