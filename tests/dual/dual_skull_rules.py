"""Skull: one test per rule and per rejection of docs/rules-skull.md, on both interpreters."""
from kit import play, errors, last_error, act, accepted_headers

from shared_rules.skull import layout as K
from shared_rules.skull import view as skull_view
from host.sim.tables.skull import at, active


def H(n=3, **opts):
    h = {"game": "skull", "players": n}
    h.update(opts)
    return h


def place(p, disc="flower"):
    return act("place", p, disc=disc)


def bid(p, n):
    return act("bid", p, n=n)


def pas(p):
    return act("pass", p)


def flip(p, t, disc=None):
    return act("flip", p, target=t) if disc is None else act("flip", p, target=t, disc=disc)


def lose(p, disc):
    return act("lose", p, disc=disc)


def prep(n, skulls=()):
    """Everyone places one disc (skull for the seats listed)."""
    return [place(s, "skull" if s in skulls else "flower") for s in range(n)]


def seat(r, s):
    g = r.game
    return [at(g, s, i) for i in range(K.SEAT_BYTES)]


def test_setup_three_flowers_one_skull_each():
    r = play(H(5), [])
    g = r.game
    assert g.s[K.R_PHASE] == K.PREP
    hands = [[at(g, s, K.H_FLOWERS), at(g, s, K.H_SKULL), at(g, s, K.STACK)] for s in range(5)]
    assert hands == [[3, 1, 0]] * 5, hands
    return hands


def test_header_seat_counts_and_options():
    from shared_rules import games
    bad = accepted_headers((H(2), H(13), H(4, first=4), H(4, colour="red"), H(7, tribes_per_player=2),
                            H(1, tribes_per_player=2), H(3, tribes_per_player=3),
                            {"game": "chess", "players": 3}))
    assert not bad, bad
    return [games.from_header(H(n)).seats() for n in (3, 6, 7, 12)] + [
        games.from_header(H(p, tribes_per_player=2)).seats() for p in (2, 6)]


def test_preparation_any_order_one_disc_each():
    r = play(H(3), [place(2), place(0, "skull"), place(2), place(1)])
    assert errors(r) == [[4, "already_placed"]]
    assert r.game.s[K.R_PHASE] == K.ADD
    return r.game.s[K.R_TURN]


def test_no_bid_during_preparation():
    r = play(H(3), [place(0), bid(0, 1)])
    assert last_error(r) == "wrong_phase"


def test_adding_goes_clockwise_from_first_player():
    r = play(H(4, first=2), prep(4) + [place(2), place(3), place(0), place(1), place(1)])
    assert errors(r) == [[10, "not_your_turn"]]
    return [at(r.game, s, K.STACK) for s in range(4)]


def test_cannot_add_a_disc_not_in_hand():
    # Seat 0 placed its skull: a second skull is refused.
    r = play(H(3), [place(0, "skull"), place(1), place(2), place(0, "skull")])
    assert errors(r) == [[5, "no_such_disc"]]


def test_seat_with_empty_hand_must_bid():
    acts = prep(3)
    for disc in ("flower", "flower", "skull"):
        acts += [place(0, disc), place(1, disc), place(2, disc)]
    acts += [place(0, "flower"), place(0, "skull"), bid(0, 12)]
    r = play(H(3), acts)
    assert errors(r) == [[14, "no_such_disc"], [15, "no_such_disc"]]
    assert r.game.s[K.R_PHASE] == K.FLIP


def test_bid_must_be_between_one_and_discs_on_mats():
    r = play(H(3), prep(3) + [bid(0, 0), bid(0, 4), bid(0, 3)])
    assert errors(r) == [[5, "bid_out_of_range"], [6, "bid_out_of_range"]]
    assert r.game.s[K.R_PHASE] == K.FLIP  # a bid equal to the total ends bidding at once


def test_raise_must_be_higher():
    r = play(H(3), prep(3) + [place(0), bid(1, 2), bid(2, 2), bid(2, 3), bid(0, 3)])
    assert errors(r) == [[7, "bid_too_low"], [9, "bid_too_low"]]


def test_passed_seat_is_out_of_the_bidding():
    r = play(H(4), prep(4) + [bid(0, 1), pas(1), bid(2, 2), pas(3), bid(0, 3), pas(1)])
    assert errors(r) == [[11, "not_your_turn"]]
    return r.game.s[K.R_TURN]


def test_bidding_ends_when_all_others_passed():
    r = play(H(4), prep(4) + [bid(0, 1), bid(1, 2), pas(2), pas(3), pas(0)])
    g = r.game
    assert not r.rejected
    assert g.s[K.R_PHASE] == K.FLIP and g.s[K.R_CHALLENGER] == 1 and g.s[K.R_BID] == 2


def test_only_the_challenger_flips():
    r = play(H(3), prep(3) + [bid(0, 2), pas(1), pas(2), flip(1, 1)])
    assert last_error(r) == "not_your_turn"


def test_own_stack_first():
    r = play(H(3), prep(3) + [place(0), bid(1, 3), pas(2), pas(0), flip(1, 0), flip(1, 1), flip(1, 0)])
    assert errors(r) == [[9, "own_stack_first"]]
    assert r.game.s[K.R_FLOWERS] == 2


def test_own_stack_is_flipped_top_down():
    # Skull at the bottom of seat 0's own stack: the flower on top comes first.
    r = play(H(3), [place(0, "skull"), place(1), place(2), place(0), bid(1, 3), pas(2), pas(0),
                    flip(1, 1), flip(1, 0, "skull"), flip(1, 0, "flower"), flip(1, 0, "skull")])
    assert errors(r) == [[10, "disc_mismatch"]]
    assert r.game.s[K.R_PHASE] == K.LOSE


def test_flip_target_must_have_a_face_down_disc():
    r = play(H(3), prep(3) + [bid(0, 3), flip(0, 0), flip(0, 0), flip(0, 5)])
    assert errors(r) == [[7, "nothing_to_flip"], [8, "bad_target"]]


def test_success_turns_the_mat_and_leads_next_round():
    r = play(H(3, first=1), prep(3) + [bid(1, 2), pas(2), pas(0), flip(1, 1), flip(1, 2)])
    g = r.game
    assert not r.rejected
    assert at(g, 1, K.SCORE) == 1 and g.s[K.R_PHASE] == K.PREP and g.s[K.R_LEAD] == 1
    return [at(g, s, K.H_FLOWERS) for s in range(3)]


def test_second_success_wins():
    win = [bid(1, 2), pas(2), pas(0), flip(1, 1), flip(1, 2)]
    r = play(H(3, first=1), prep(3) + win + prep(3) + win + [place(0)])
    s = r.game.summary()
    assert s["over"] and s["winners"] == [1] and s["scores"] == [0, 2, 0]
    assert errors(r) == [[18, "game_over"]]


def test_failure_returns_discs_and_challenger_loses_one():
    r = play(H(3), prep(3, skulls=(2,)) + [bid(0, 2), pas(1), pas(2), flip(0, 0), flip(0, 2)])
    g = r.game
    assert g.s[K.R_PHASE] == K.LOSE and g.s[K.R_SKULL_OWNER] == 2
    assert [at(g, s, K.STACK) for s in range(3)] == [0, 0, 0]
    r2 = play(H(3), prep(3, skulls=(2,)) + [bid(0, 2), pas(1), pas(2), flip(0, 0), flip(0, 2),
                                             lose(1, "flower"), lose(0, "skull")])
    g = r2.game
    assert errors(r2) == [[10, "not_your_turn"]]
    assert at(g, 0, K.H_SKULL) == 0 and at(g, 0, K.H_FLOWERS) == 3
    assert g.s[K.R_PHASE] == K.PREP and g.s[K.R_LEAD] == 0  # challenger still in: leads


def test_lost_disc_must_be_owned():
    fail = [bid(0, 2), pas(1), pas(2), flip(0, 0), flip(0, 2)]
    r = play(H(3), prep(3, skulls=(2,)) + fail + [lose(0, "skull")] + prep(3, skulls=(2,)) + fail + [
        lose(0, "skull"), lose(0, "flower")])
    assert errors(r) == [[19, "no_such_disc"]]


def _eliminate(victim, by, n, seats=None, lead=0):
    """Actions by which ``victim`` fails on ``by``'s skull four times and is out (the skull is
    lost first, so the last failure flips the victim's own flower, then ``by``'s skull)."""
    seats = seats if seats is not None else list(range(n))
    acts = []
    for i in range(4):
        acts += [place(s, "skull" if s == by else "flower") for s in seats]
        at = seats.index(lead)
        order = seats[at:] + seats[:at]
        many = len(seats) > 2  # with two discs out, a bid of 2 ends the bidding at once
        if order[0] == victim:
            acts.append(bid(victim, 2))
            acts += [pas(s) for s in order[1:] if many]
        else:
            acts.append(bid(order[0], 1))
            acts += [bid(victim, 2) if s == victim else pas(s) for s in order[1:]]
            acts += [pas(order[0])] if many else []
        acts += [flip(victim, victim), flip(victim, by), lose(victim, "skull" if i == 0 else "flower")]
        lead = victim if i < 3 else by
    return acts


def test_seat_without_discs_is_eliminated_and_skull_owner_leads():
    r = play(H(4), _eliminate(1, 3, 4))
    g = r.game
    assert not r.rejected, r.rejected
    assert not active(g, 1) and g.s[K.R_LEAD] == 3 and g.s[K.R_PHASE] == K.PREP
    return r.game.summary()


def test_eliminated_seat_never_acts_and_is_skipped():
    acts = _eliminate(1, 3, 4) + [place(1), place(0), place(2), place(3), place(3), bid(0, 3)]
    r = play(H(4), acts)
    n = len(acts) + 1
    assert errors(r) == [[n - 5, "eliminated_seat"]]
    assert r.game.s[K.R_TURN] == 2 and r.game.s[K.R_BID] == 3  # seat 0 bid, seat 1 skipped


def test_own_skull_elimination_lets_challenger_choose():
    # Seat 0 keeps failing on its own skull: flowers lost first, then the skull.
    fail = [place(0, "skull"), place(1), place(2), bid(0, 1), pas(1), pas(2), flip(0, 0)]
    acts = (fail + [lose(0, "flower")]) * 3 + fail + [
        lose(0, "skull"), act("first", 1, target=2), act("first", 0, target=0),
        act("first", 0, target=2), act("first", 0, target=1)]
    r = play(H(3), acts)
    n = len(acts) + 1
    assert errors(r) == [[n - 3, "not_your_turn"], [n - 2, "bad_target"], [n, "wrong_phase"]]
    assert r.game.s[K.R_LEAD] == 2 and r.game.s[K.R_PHASE] == K.PREP
    return r.game.summary()


def test_last_seat_standing_wins():
    acts = _eliminate(1, 2, 3) + _eliminate(0, 2, 3, seats=[0, 2], lead=2)
    r = play(H(3), acts)
    s = r.game.summary()
    assert not r.rejected, r.rejected
    assert s["over"] and s["winners"] == [2] and s["eliminated"] == [0, 1]
    return s


def test_two_tribes_player_wins_with_either_tribe():
    # 2 players, 4 seats: seat 3 belongs to player 1.
    win = [bid(3, 2), pas(0), pas(1), pas(2), flip(3, 3), flip(3, 0)]
    r = play(H(2, tribes_per_player=2), prep(4) + [place(0), place(1), place(2)] + win
             + prep(4) + [bid(3, 4), flip(3, 3), flip(3, 0), flip(3, 1), flip(3, 2)])
    s = r.game.summary()
    assert not r.rejected, r.rejected
    assert s["over"] and s["winners"] == [1] and s["players"] == 2 and s["scores"] == [0, 0, 0, 2]
    return s


def test_two_tribes_player_out_only_when_both_tribes_out():
    r = play(H(2, tribes_per_player=2), _eliminate(1, 0, 4))
    s = r.game.summary()
    assert not r.rejected, r.rejected
    assert not s["over"] and s["eliminated"] == [1]  # seat 3 still plays for player 1
    return s


def test_twelve_seat_variant():
    r = play(H(12, first=11), prep(12) + [bid(11, 12)] + [flip(11, 11)] + [flip(11, s) for s in range(11)])
    s = r.game.summary()
    assert not r.rejected, r.rejected
    assert s["scores"][11] == 1 and r.game.s[K.R_LEAD] == 11
    return s


def test_rulebook_four_player_example():
    # Seat 0 first; seats 0-2 add a disc; seat 3 bids 3; seat 0 raises to 5; 1, 2, 3 pass;
    # seat 0 flips its own two flowers, then one flower of each other seat: success.
    acts = prep(4) + [place(0), place(1), place(2), bid(3, 3), bid(0, 5), pas(1), pas(2), pas(3),
                      flip(0, 0, "flower"), flip(0, 0, "flower"), flip(0, 1, "flower"),
                      flip(0, 2, "flower"), flip(0, 3, "flower")]
    r = play(H(4), acts)
    g = r.game
    assert not r.rejected, r.rejected
    assert at(g, 0, K.SCORE) == 1 and g.s[K.R_LEAD] == 0 and g.s[K.R_PHASE] == K.PREP
    return g.summary()


def test_malformed_lines_are_rejected_and_change_nothing():
    r = play(H(3), ["{not json", '{"a": "place", "p": 0}', '{"a": "dance", "p": 0}',
                    '{"a": "place", "p": 0, "disc": "rose"}', '{"a": "bid", "p": 0, "n": true}',
                    '{"a": "place", "p": 9, "disc": "flower"}', '[1, 2]',
                    '{"a": "place", "p": 0, "disc": "flower", "extra": 1}', "", "# comment",
                    '{"a": "place", "p": 0, "disc": "flower"}'])
    assert r.game.s[K.R_PHASE] == K.PREP and at(r.game, 0, K.STACK) == 1
    return errors(r)


def test_rejected_action_leaves_state_identical():
    r = play(H(4), prep(4) + [bid(0, 2)])
    before = bytes(r.game.s)
    for a in (place(1), bid(1, 1), bid(1, 9), flip(0, 0), lose(0, "flower"), act("first", 0, target=1),
              pas(2), bid(0, 3)):
        r.feed(__import__("json").dumps(a).encode())
        assert bytes(r.game.s) == before, a
    return errors(r)


def test_snapshot_round_trip_and_corruption():
    from shared_rules.skull.rules import Skull
    r = play(H(5), prep(5) + [place(0), bid(1, 3)])
    blob = r.game.snapshot()
    g = Skull()  # a blank game to restore into
    assert g.restore(blob) == 0 and g.digest() == r.game.digest()
    bad = bytearray(blob)
    bad[10] ^= 1
    h = Skull.from_header(H(3))
    before = h.digest()
    assert h.restore(bytes(bad)) == 7 and h.digest() == before
    assert h.restore(blob[:-1]) == 7
    return [len(blob), r.game.digest()]


def test_public_view_hides_discs():
    r = play(H(3), [place(0, "skull"), place(1), place(2)])
    view = bytearray(r.game.PUBLIC_SIZE)
    r.game.public(view)
    d = skull_view.describe(view)
    r2 = play(H(3), [place(0, "flower"), place(1), place(2)])
    view2 = bytearray(r2.game.PUBLIC_SIZE)
    r2.game.public(view2)
    assert view == view2  # skull or flower: the mirror cannot tell
    rec = bytearray(128)
    r.game.VOCAB.encode(place(0, "skull"), rec)
    assert r.game.VOCAB.decode(rec, public=True) == {"a": "place", "p": 0}
    return d["seats"]


def test_a_replayed_file_gives_the_collectors_setting_back():
    """``replay_file`` collects often while it loads the game (MicroPython's ``gc.threshold``), then
    sets the collector back as the caller had it: refusals and all, the same result."""
    import gc
    import json
    import sys
    import scratch
    from shared_rules import replay
    path = scratch.TMP + "/tapmat_replay_gc_%s.jsonl" % sys.implementation.name
    with open(path, "w") as f:
        f.write(json.dumps(H(3)) + "\n" + json.dumps(place(0)) + "\n" + json.dumps(bid(0, 1)) + "\n")
    threshold = getattr(gc, "threshold", None)
    if threshold:
        threshold(49152)
    out = replay.replay_file(path)
    assert not threshold or threshold() == 49152
    if threshold:
        threshold(-1)
    return [out["rejected_count"], [r["error"] for r in out["rejected"]]]
