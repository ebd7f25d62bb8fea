"""Deck registry: host records -> deck.bin -> board lookup, on both interpreters.

Covers hits and misses (first, last, between, outside), 1 and 1000 records, every refused
host record and every damaged file, and a lookup that allocates nothing."""
import sys

from shared_rules import catalogue, games
from shared_rules.core import deck
from shared_rules.core import tokens
from shared_rules.core.deck import DeckError
from shared_rules.core.rng import Rng
from firmware.registry import Registry
import scratch

try:
    import micropython
except ImportError:
    micropython = None

TMP = scratch.TMP + "/tapmat_dual_registry_%s.bin" % sys.implementation.name


def uid(*b):
    return bytes(b)


def hexs(u):
    return deck.uid_hex(u)


def random_records(n, seed):
    """n records with distinct random UIDs: Skull discs, both Dead Man's Draw decks, Sheriff goods
    (each within the copies the game has), and tokens for the rest."""
    rng = Rng(seed)
    seen = {}
    out = []
    dmd = 0
    sheriff = [0] * len(catalogue.SHERIFF_CODES)
    discs = [0] * 12
    while len(out) < n:
        u = bytes([4] + [rng.below(256) for _ in range(6)])
        if u in seen:
            continue
        seen[u] = 1
        i = len(out)
        r = {"uid": hexs(u), "kind": "token", "code": tokens.CODES[i % len(tokens.CODES)]}
        if i % 4 == 1 and dmd < 120:
            r = {"uid": hexs(u), "game": "deadmans", "kind": "card", "deck": dmd // 60,
                 "code": catalogue.DMD_CODES[dmd % 60]}
            dmd += 1
        elif i % 4 == 2:
            g = (i // 4) % len(sheriff)
            if sheriff[g] < catalogue.SHERIFF_GOODS[g][2]:
                sheriff[g] += 1
                r = {"uid": hexs(u), "game": "sheriff", "kind": "card", "code": catalogue.SHERIFF_CODES[g]}
        elif i % 4 == 3:
            seat = (i // 4) % 12
            if discs[seat] < 4:
                r = {"uid": hexs(u), "game": "skull", "kind": "disc", "seat": seat,
                     "code": "skull" if discs[seat] == 0 else "flower"}
                discs[seat] += 1
        out.append(r)
    return out


def open_registry(records):
    deck.write(TMP, records)
    return Registry(TMP)


def expected_fields(r):
    game = deck.game_id(r["game"]) if "game" in r else 0
    kind = deck.KINDS.index(r["kind"])
    code = deck.codes(game, kind).index(r["code"])
    return [game, kind, code, r.get("seat", 255), r.get("deck", 0)]


def fields(reg):
    return [reg.game, reg.kind, reg.code, reg.seat, reg.deck]


def refused(fn, *args):
    try:
        fn(*args)
    except DeckError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def test_thousand_records_every_hit_and_miss():
    records = random_records(1000, 7)
    reg = open_registry(records)
    assert reg.count == 1000
    ordered = sorted(deck.parse_uid(r["uid"]) for r in records)
    by_uid = {}
    for r in records:
        by_uid[deck.parse_uid(r["uid"])] = r
    for i in range(len(ordered)):
        u = ordered[i]
        assert reg.lookup(u), hexs(u)
        assert reg.index == i
        assert fields(reg) == expected_fields(by_uid[u]), (hexs(u), fields(reg))
    misses = 0
    for u in ordered:
        # The neighbour of every UID (last byte + 1) is a miss unless it is registered too.
        v = bytearray(u)
        v[6] = (v[6] + 1) & 255
        if bytes(v) not in by_uid:
            assert not reg.lookup(v)
            misses += 1
    assert not reg.lookup(bytes(7))
    assert not reg.lookup(b"\xff" * 7)
    assert not reg.lookup(b"\x04\x00")  # too short: a miss, not a crash
    reg.close()
    return [reg.count, misses > 990, hexs(ordered[0]), hexs(ordered[-1])]


def test_one_record_and_neighbours():
    reg = open_registry([{"uid": "04:11:22:33:44:55:66", "game": "skull", "kind": "disc",
                          "code": "skull", "seat": 11}])
    assert reg.count == 1
    assert reg.lookup(uid(4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66))
    got = fields(reg) + [reg.index]
    assert got == [1, deck.DISC, 1, 11, 0, 0]
    assert not reg.lookup(uid(4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x65))
    assert not reg.lookup(uid(4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x67))
    assert not reg.lookup(uid(5, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66))
    reg.close()
    return got


def test_first_and_last_record_of_a_small_deck():
    records = [{"uid": "04000000000000", "kind": "token", "code": "digit0"},
               {"uid": "0400000000007f", "kind": "token", "code": "confirm"},
               {"uid": "04ffffffffffff", "game": "deadmans", "kind": "trait", "code": "mystic", "deck": 1}]
    reg = open_registry(list(reversed(records)))  # any input order
    assert reg.lookup(deck.parse_uid("04000000000000")) and reg.index == 0 and reg.code == 0
    assert reg.lookup(deck.parse_uid("04ffffffffffff")) and reg.index == 2
    last = fields(reg)
    assert last == [2, deck.TRAIT, catalogue.DMD_TRAITS.index("mystic"), 255, 1]
    assert reg.lookup(deck.parse_uid("0400000000007f")) and reg.code == tokens.CONFIRM
    reg.close()
    return last


def test_empty_registry_finds_nothing():
    reg = open_registry([])
    assert reg.count == 0 and not reg.lookup(bytes(7))
    reg.close()
    return deck.unpack(deck.pack([]))


def test_unpack_returns_canonical_records_in_uid_order():
    records = random_records(40, 3)
    blob = deck.pack(records)
    assert len(blob) == deck.HEADER_SIZE + 40 * deck.RECORD_SIZE + deck.CRC_SIZE
    back = deck.unpack(blob)
    assert [r["uid"] for r in back] == sorted(r["uid"] for r in records)
    assert deck.pack(back) == blob  # canonical form packs to the same bytes
    assert deck.read(TMP if deck.write(TMP, records) else None) == back
    return back[0:3]


def test_refused_host_records_name_the_tag_and_the_code():
    ok = {"uid": "04a1b2c3d4e5f6", "game": "skull", "kind": "disc", "code": "flower", "seat": 0}

    def with_(**kw):
        r = dict(ok)
        r.update(kw)
        return [r]

    cases = [
        ([ok, dict(ok, code="skull")], "duplicate UID 04a1b2c3d4e5f6"),
        (with_(code="rose"), "unknown disc code 'rose' in skull"),
        (with_(game="chess"), "unknown game 'chess'"),
        (with_(kind="meeple"), "unknown kind 'meeple'"),
        (with_(kind="card"), "skull has no card pieces"),
        (with_(seat=12), "owner 'seat'"),
        (with_(seat=None), "owner 'seat'"),
        (with_(deck=1), "deck number 1 out of range 0..0 for skull"),
        (with_(uid="04a1b2"), "bad UID '04a1b2'"),
        (with_(uid="04a1b2c3d4e5zz"), "bad UID"),
        (with_(colour="red"), "unknown field 'colour'"),
        ([{"uid": "04a1b2c3d4e5f6", "kind": "token", "code": "pass", "game": "skull"}], "belongs to no game"),
        ([{"uid": "04a1b2c3d4e5f6", "kind": "token", "code": "undo"}], "unknown token code 'undo'"),
        ([{"uid": "04a1b2c3d4e5f6", "game": "deadmans", "kind": "card", "code": "anchor1"}],
         "unknown card code 'anchor1' in deadmans"),
        ([{"uid": "04a1b2c3d4e5f6", "game": "sheriff", "kind": "card", "code": "apple", "seat": 1}],
         "only Skull discs"),
        (["04a1b2c3d4e5f6"], "must be an object"),
    ]
    # Two skulls for one seat, a second anchor2 in deck 0: more copies than the game has.
    cases.append(([dict(ok, code="skull"), dict(ok, uid="04a1b2c3d4e5f7", code="skull")],
                  "tag 04a1b2c3d4e5f7: one more skull disc skull of seat 0 than the game has (1)"))
    cases.append(([{"uid": "0400000000000%d" % i, "game": "deadmans", "kind": "card", "code": "anchor2",
                    "deck": i // 2} for i in range(3)], "tag 04000000000001: one more deadmans card anchor2 than"))
    out = []
    for records, words in cases:
        msg = refused(deck.pack, records)
        assert words in msg, (words, msg)
        out.append(msg)
    # Two anchor2 from different decks are fine, as are many copies of a token.
    deck.pack([{"uid": "0400000000000%d" % i, "game": "deadmans", "kind": "card", "code": "anchor2",
                "deck": i} for i in range(2)])
    deck.pack([{"uid": "0400000000000%d" % i, "kind": "token", "code": "pass"} for i in range(9)])
    return out


def good_blob():
    return bytearray(deck.pack(random_records(20, 11)))


def with_crc(blob):
    """Re-seal a deliberately altered file so only the alteration is wrong."""
    import binascii
    end = len(blob) - 4
    blob[end:] = (binascii.crc32(bytes(blob[0:end])) & 0xFFFFFFFF).to_bytes(4, "little")
    return blob


def open_bytes(blob):
    with open(TMP, "wb") as f:
        f.write(blob)
    return Registry(TMP)


def test_damaged_files_are_refused_at_open():
    cases = []
    cases.append((b"", "too short"))
    b = good_blob()
    b[0:4] = b"TMDX"
    cases.append((b, "not a deck registry"))
    b = good_blob()
    b[4] = 2
    cases.append((b, "version 2"))
    b = good_blob()
    b[5] = 16
    cases.append((b, "record size 16"))
    b = good_blob()
    cases.append((b[0:len(b) - 5], "20 records announced"))
    b = good_blob()
    b[8 + 12 * 7 + 3] ^= 0x10
    cases.append((b, "CRC mismatch"))
    b = good_blob()
    b[len(b) - 1] ^= 1
    cases.append((b, "CRC mismatch"))
    b = good_blob()
    b[8:20], b[20:32] = b[20:32], b[8:20]
    cases.append((with_crc(b), "record 1: UIDs not in ascending order"))
    b = good_blob()
    b[8 + 12 * 5 + deck.R_CODE] = 200
    cases.append((with_crc(b), "record 5: no piece 200"))
    b = good_blob()
    b[8 + 12 * 19 + deck.R_GAME] = 9
    cases.append((with_crc(b), "record 19: unknown game 9"))
    out = []
    for blob, words in cases:
        msg = refused(open_bytes, blob)
        assert msg.startswith("deck registry " + TMP + ": ") and words in msg, (words, msg)
        assert words in refused(deck.unpack, bytes(blob)), words
        out.append(msg[len("deck registry " + TMP + ": "):])
    msg = refused(Registry, "/tmp/no/such/deck.bin")
    assert msg.startswith("deck registry /tmp/no/such/deck.bin: cannot open")
    msg = refused(deck.read, "/tmp/no/such/deck.bin")
    assert "cannot read" in msg
    return out


def test_registry_reads_an_open_stream():
    import io
    blob = deck.pack(random_records(30, 5))
    reg = Registry(io.BytesIO(blob))
    u = deck.parse_uid(deck.unpack(blob)[17]["uid"])
    assert reg.lookup(u) and reg.index == 17
    assert refused(Registry, io.BytesIO(blob[0:40])).startswith("deck registry <stream>: ")
    # A file that fails after opening gives misses, counted, not exceptions.
    reg.close()
    assert not reg.lookup(u) and reg.read_errors == 1
    assert "must be a list" in refused(deck.pack, None)
    return reg.count


def test_lookup_allocates_nothing():
    records = random_records(500, 9)
    reg = open_registry(records)
    probes = [bytearray(deck.parse_uid(r["uid"])) for r in records[0:50]]
    probes.append(bytearray(7))
    found = 0
    if micropython:
        micropython.heap_lock()
    try:
        for p in probes:
            if reg.lookup(p):
                found += 1
    finally:
        if micropython:
            micropython.heap_unlock()
    reg.close()
    assert found == 50
    return found


def test_game_numbers_are_the_rules_game_ids():
    for name in games.names():
        assert deck.game_id(name) == games.game_class(name).GAME_ID, name
    assert deck.game_id("chess") == -1
    return [deck.game_id(n) for n in games.names()]


def test_token_table():
    codes = tokens.CODES
    cards = list(catalogue.SKULL_CODES) + list(catalogue.DMD_CODES) + list(catalogue.DMD_TRAITS) + \
        list(catalogue.SHERIFF_CODES)
    for i in range(len(codes)):
        assert codes.index(codes[i]) == i, "duplicate token " + codes[i]
        assert codes[i] not in cards, "token code is also a card code: " + codes[i]
        assert tokens.index(codes[i]) == i
    assert tokens.index("undo") == -1
    assert [tokens.digit(tokens.index("digit%d" % d)) for d in range(10)] == list(range(10))
    assert [tokens.seat(tokens.index("seat%d" % s)) for s in range(12)] == list(range(12))
    assert tokens.digit(tokens.SEAT0) == -1 and tokens.seat(tokens.PASS) == -1
    for g in range(tokens.DECLARABLE):
        t = tokens.DECLARE0 + g
        assert codes[t] == "declare_" + catalogue.SHERIFF_CODES[g]
        assert tokens.declared(t) == g
        assert catalogue.SHERIFF_GOODS[g][1] == catalogue.LEGAL
    assert tokens.declared(tokens.PASS) == -1
    names = [codes[t] for t in (tokens.CONFIRM, tokens.CANCEL, tokens.PASS, tokens.COLLECT, tokens.INSPECT)]
    assert names == ["confirm", "cancel", "pass", "collect", "inspect"]
    return len(codes)


def test_twinned_names_exactly_the_cl1s_two_registered_tags_share():
    """``twinned`` (the roll call's twin table, built at open): true for a UID whose UID0..2 two
    or more registered UIDs share (registered or not itself), false for every other; heap-locked."""
    records = random_records(300, 11)
    uids = [deck.parse_uid(r["uid"]) for r in records]
    for k in range(0, 40, 4):  # batch-like pairs and triples: the second (third) copies UID0..2
        for j in (1, 2) if k % 8 else (1,):
            u = bytearray(uids[k + j])
            u[0:3] = uids[k][0:3]
            records[k + j]["uid"] = deck.uid_hex(bytes(u))
            uids[k + j] = bytes(u)
    reg = open_registry(records)
    counts = {}
    for u in uids:
        counts[bytes(u[:3])] = counts.get(bytes(u[:3]), 0) + 1
    probes = [bytearray(u) for u in uids] + [bytearray(7), bytearray(b"\x04\x00\x00\x01\x02\x03\x04")]
    probes[-1][0:3] = uids[0][0:3]  # unregistered, twinning a registered batch CL1
    want = [counts.get(bytes(p[:3]), 0) >= 2 for p in probes]
    got = [False] * len(probes)
    if micropython:
        micropython.heap_lock()
    try:
        for i in range(len(probes)):
            got[i] = reg.twinned(probes[i], 0)
    finally:
        if micropython:
            micropython.heap_unlock()
    reg.close()
    assert got == want and got[-1] and sum(want) >= 20, (sum(got), sum(want))
    return [sum(want), len(probes)]
