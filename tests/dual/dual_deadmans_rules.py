"""Dead Man's Draw: one test per suit ability, per trait and per rejection of
docs/rules-deadmans.md, on both interpreters. At setup the discard pile holds the nine 2s and
mermaid4; any other card may be drawn (the referee does not know the draw pile's order)."""
import json

from kit import play, errors, last_error, act, accepted_headers

from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.deadmans import view as deadmans_view
from shared_rules.catalogue import DMD_CODES as CODES


def H(n=2, **opts):
    h = {"game": "deadmans", "players": n}
    if n > 4:
        h["decks"] = 2
    h.update(opts)
    return h


def draw(p, card):
    return act("draw", p, card=card)


def collect(p):
    return act("collect", p)


def hook(p, card):
    return act("hook", p, card=card)


def cannon(p, t, card):
    return act("cannon", p, target=t, card=card)


def sword(p, t, card):
    return act("sword", p, target=t, card=card)


def mapa(p, pick, reveal=None):
    return act("map", p, pick=pick) if reveal is None else act("map", p, pick=pick, reveal=reveal)


def oracle(p, peek):
    return act("oracle", p, peek=peek)


def bonus(p, cards, target=None):
    return act("bonus", p, cards=cards) if target is None else act("bonus", p, cards=cards, target=target)


def trait(p, name, target=None):
    return act("trait", p, trait=name) if target is None else act("trait", p, trait=name, target=target)


def turns(*plays):
    """(seat, [cards]) -> the seat draws the cards (no ability asks anything) and collects."""
    out = []
    for seat, cards in plays:
        out += [draw(seat, c) for c in cards] + [collect(seat)]
    return out


def at(r, loc):
    g = r.game
    return sorted(CODES[i % K.NCODES] for i in range(K.NCODES * g.s[K.R_DECKS]) if g.s[K.LOC + i] == loc)


def bank(r, seat):
    return at(r, K.BANK + seat)


def area(r):
    s = r.game.s
    return [CODES[s[K.R_PLAY + i]] for i in range(s[K.R_PLAY_N])]


def ok(r):
    assert not r.rejected, r.rejected


def feed(r, actions):
    for a in actions:
        r.feed(json.dumps(a).encode())


def only_left_to_draw(r, cards):
    """Test shortcut to the end of the game: every draw-pile card not listed goes to the discard
    pile (the state stays valid; the play goes on through the real accept path)."""
    g = r.game
    keep = list(cards)
    for i in range(K.NCODES * g.s[K.R_DECKS]):
        code = CODES[i % K.NCODES]
        if g.s[K.LOC + i] == K.DRAW:
            if code in keep:
                keep.remove(code)
            else:
                g.s[K.LOC + i] = K.DISCARD
                g.s[K.R_DRAW_N] -= 1
                g.s[K.R_DISCARD_N] += 1
    assert not keep and g.valid_state(g.s)


# -- setup and header ----------------------------------------------------------------------
def test_setup_piles_one_and_two_decks():
    one = play(H(2), [])
    two = play(H(6), [])
    assert [one.game.s[K.R_DRAW_N], one.game.s[K.R_DISCARD_N]] == [50, 10]
    assert [two.game.s[K.R_DRAW_N], two.game.s[K.R_DISCARD_N]] == [100, 20]
    assert at(one, K.DISCARD) == ["anchor2", "cannon2", "chest2", "hook2", "key2", "kraken2", "map2",
                                  "mermaid4", "oracle2", "sword2"]
    assert at(two, K.DISCARD) == sorted(at(one, K.DISCARD) * 2)
    assert K.STATE_SIZE <= 256
    return [K.STATE_SIZE, len(one.game.snapshot()), at(one, K.DISCARD)]


def test_header_players_decks_first_and_unknown_options():
    from shared_rules import games
    bad = accepted_headers((
        {"game": "deadmans", "players": 1}, {"game": "deadmans", "players": 9, "decks": 2},
        {"game": "deadmans", "players": 5}, {"game": "deadmans", "players": 3, "decks": 2},
        {"game": "deadmans", "players": 6, "decks": 1}, H(2, first=2), H(4, colour="red"),
        H(2, decks=3), {"game": "deadmans"}, H(3, traits=True)))
    assert not bad, bad
    good = [games.from_header(h) for h in (H(4, first=3), H(8), H(2, decks=1), H(5, first=4))]
    return [[g.seats(), g.s[K.R_DECKS], g.s[K.R_TURN]] for g in good]


def test_first_player_draws_first_and_starts_the_game():
    r = play(H(3, first=2), [draw(0, "key3"), collect(2), draw(2, "key3"), trait(1, "mystic")])
    assert errors(r) == [[2, "not_your_turn"], [3, "wrong_phase"], [5, "wrong_phase"]]
    assert r.game.s[K.R_PHASE] == K.PLAYING and area(r) == ["key3"]


# -- drawing, collecting, busting ----------------------------------------------------------
def test_draw_then_collect_banks_the_play_area_and_passes_the_turn():
    r = play(H(2), [draw(0, "mermaid5"), draw(0, "anchor3"), collect(0), draw(1, "key3"), collect(1)])
    ok(r)
    assert bank(r, 0) == ["anchor3", "mermaid5"] and bank(r, 1) == ["key3"] and r.game.s[K.R_TURN] == 0
    s = r.game.summary()
    assert s["scores"] == [8, 3] and s["bank_cards"] == [2, 1] and not s["over"] and s["winners"] == []
    return s


def test_collect_needs_a_draw_first():
    r = play(H(2), [draw(0, "key3"), collect(0), collect(1), draw(1, "key4"), collect(1)])
    assert errors(r) == [[4, "must_draw"]]


def test_bust_discards_everything_and_the_busting_card_does_not_trigger():
    r = play(H(2), [draw(0, "chest3"), draw(0, "map3"),
                    mapa(0, "key2", reveal=["key2", "mermaid4", "oracle2"]), draw(0, "map4")])
    ok(r)
    g = r.game
    assert bank(r, 0) == [] and area(r) == [] and g.s[K.R_PENDING] == K.NO_CHOICE
    assert g.s[K.R_TURN] == 1 and g.s[K.R_DISCARD_N] == 13 and g.s[K.R_DRAW_N] == 47
    return at(r, K.DISCARD)


# -- suit abilities ------------------------------------------------------------------------
def test_anchor_rulebook_example():
    # Mermaid, Cannon (no opponent has cards: no effect), Anchor, then a Mermaid busts.
    r = play(H(2), [draw(0, "mermaid5"), draw(0, "cannon3"), draw(0, "anchor3"), draw(0, "mermaid6")])
    ok(r)
    assert bank(r, 0) == ["cannon3", "mermaid5"]
    assert "anchor3" in at(r, K.DISCARD) and "mermaid6" in at(r, K.DISCARD) and r.game.s[K.R_TURN] == 1
    return bank(r, 0)


def test_anchor_protects_only_cards_placed_before_it():
    r = play(H(2), [draw(0, "anchor3"), draw(0, "key3"), draw(0, "key4"),
                    draw(1, "chest3"), draw(1, "anchor4"), draw(1, "key5"), draw(1, "chest4")])
    ok(r)
    assert bank(r, 0) == [] and bank(r, 1) == ["chest3"]


def test_hook_places_a_top_bank_card_whose_ability_triggers():
    acts = turns((0, ["anchor3"]), (1, ["chest3"]), (0, ["anchor5", "key3"]), (1, ["chest4"])) + [
        draw(0, "hook3"), hook(0, "anchor3"), hook(0, "chest3"), hook(0, "anchor5"), draw(0, "hook4")]
    r = play(H(2), acts)
    # The hooked Anchor protects the Hook placed before it; the Anchor itself is discarded.
    assert errors(r) == [[12, "not_top_card"], [13, "not_in_bank"]]
    assert bank(r, 0) == ["anchor3", "hook3", "key3"] and "anchor5" in at(r, K.DISCARD)
    return bank(r, 0)


def test_hook_is_mandatory_even_when_it_busts():
    acts = turns((0, ["key3"]), (1, ["chest3"]), (0, ["key4"]), (1, ["chest4"])) + [
        draw(0, "key5"), draw(0, "hook3"), hook(0, "key4")]
    r = play(H(2), acts)
    ok(r)
    assert bank(r, 0) == ["key3"] and r.game.s[K.R_TURN] == 1
    assert "key4" in at(r, K.DISCARD) and "key5" in at(r, K.DISCARD)


def test_hook_with_an_empty_bank_has_no_effect():
    r = play(H(2), [draw(0, "hook3"), hook(0, "hook3"), draw(0, "key3"), collect(0)])
    assert errors(r) == [[3, "wrong_choice"]]
    assert bank(r, 0) == ["hook3", "key3"]


def test_cannon_discards_the_top_card_of_an_opponent_stack():
    acts = turns((0, ["anchor3"]), (1, ["chest3", "mermaid6"]), (0, ["anchor4"]), (1, ["chest5"])) + [
        draw(0, "cannon3"), cannon(0, 0, "anchor4"), cannon(0, 1, "mermaid5"), cannon(0, 1, "chest3"),
        collect(0), cannon(0, 1, "chest5"), collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[12, "bad_target"], [13, "not_in_bank"], [14, "not_top_card"],
                         [15, "choice_pending"]]
    assert bank(r, 1) == ["chest3", "mermaid6"] and "chest5" in at(r, K.DISCARD)
    assert bank(r, 0) == ["anchor3", "anchor4", "cannon3"]


def test_cannon_without_opponent_cards_has_no_effect():
    r = play(H(3), [draw(0, "key3"), collect(0), draw(1, "cannon3"), cannon(1, 0, "key3"), collect(1)])
    ok(r)
    r2 = play(H(2), [draw(0, "cannon3"), cannon(0, 1, "key3"), collect(0)])
    assert errors(r2) == [[3, "wrong_choice"]] and bank(r2, 0) == ["cannon3"]
    assert bank(r, 0) == [] and bank(r, 1) == ["cannon3"]


def test_key_and_chest_bonus_is_the_number_of_cards_collected():
    acts = [draw(0, "key3"), draw(0, "chest3"), draw(0, "mermaid5"), collect(0), draw(0, "anchor3"),
            bonus(0, ["anchor2", "kraken2"]), bonus(0, ["anchor2", "kraken2", "anchor3"]),
            bonus(0, ["anchor2", "anchor2", "kraken2"]), bonus(0, ["anchor2", "kraken2", "oracle2"]),
            draw(1, "kraken3")]
    r = play(H(2), acts)
    assert errors(r) == [[6, "choice_pending"], [7, "wrong_bonus_count"], [8, "not_in_discard"],
                         [9, "not_in_discard"]]
    # Bonus cards go straight to the bank and do not trigger (no Kraken demand, seat 1 plays on).
    assert bank(r, 0) == ["anchor2", "chest3", "key3", "kraken2", "mermaid5", "oracle2"]
    assert r.game.s[K.R_TURN] == 1 and r.game.s[K.R_DISCARD_N] == 7
    return bank(r, 0)


def test_key_and_chest_with_a_short_or_empty_discard_pile():
    # Ten cards in play (a Kraken's demand met by a Sword with no target and an Oracle), and
    # only nine left in the discard pile: the bonus is those nine.
    acts = [draw(0, "key3"), draw(0, "chest3"), draw(0, "anchor3"), draw(0, "mermaid5"), draw(0, "hook3"),
            draw(0, "kraken3"), draw(0, "sword3"), draw(0, "oracle3"), oracle(0, "map3"), draw(0, "map3"),
            mapa(0, "cannon2", reveal=["cannon2", "hook2", "sword2"]), collect(0)]
    r = play(H(2), acts)
    ok(r)
    assert len(area(r)) == 0 and r.game.s[K.R_BONUS] == 10 and r.game.s[K.R_DISCARD_N] == 9
    rest = ["anchor2", "chest2", "hook2", "key2", "kraken2", "map2", "mermaid4", "oracle2", "sword2"]
    feed(r, [bonus(0, rest + ["cannon2"]), bonus(0, rest)])
    assert errors(r) == [[14, "wrong_bonus_count"]]
    assert r.game.s[K.R_DISCARD_N] == 0 and len(bank(r, 0)) == 19
    # Discard pile empty: Key & Chest gives nothing and a Map has no effect.
    feed(r, [draw(1, "key4"), draw(1, "chest4"), draw(1, "map4"), collect(1), draw(0, "key5")])
    assert len(r.rejected) == 1 and bank(r, 1) == ["chest4", "key4", "map4"] and r.game.s[K.R_TURN] == 0
    return bank(r, 0)


def test_map_reveals_three_and_the_pick_triggers():
    acts = [draw(0, "map3"), mapa(0, "anchor2"), mapa(0, "anchor2", reveal=["anchor2", "chest2"]),
            mapa(0, "anchor2", reveal=["anchor2", "chest2", "anchor3"]),
            mapa(0, "hook2", reveal=["oracle2", "chest2", "key2"]),
            mapa(0, "oracle2", reveal=["oracle2", "chest2", "key2"]), collect(0), oracle(0, "key3")]
    r = play(H(2), acts)
    assert errors(r) == [[3, "reveal_missing"], [4, "wrong_reveal_count"], [5, "not_in_discard"],
                         [6, "pick_not_revealed"], [8, "choice_pending"]]
    assert area(r) == ["map3", "oracle2"] and r.game.s[K.R_DISCARD_N] == 9
    assert r.game.s[K.R_PEEK_N] == 1


def test_map_pick_that_busts_and_a_short_discard_pile():
    r = play(H(2), [draw(0, "anchor3"), draw(0, "map3"),
                    mapa(0, "anchor2", reveal=["anchor2", "key2", "chest2"])])
    ok(r)
    assert bank(r, 0) == [] and r.game.s[K.R_DISCARD_N] == 12 and r.game.s[K.R_TURN] == 1
    # Two cards left in the discard pile: the Map reveals exactly those two.
    r = play(H(2), [draw(0, "key3"), draw(0, "chest3"), draw(0, "anchor3"), draw(0, "mermaid5"),
                    draw(0, "kraken3"), draw(0, "hook3"), draw(0, "sword3"), draw(0, "oracle3"),
                    oracle(0, "map3"), collect(0)])
    rest = at(r, K.DISCARD)
    feed(r, [bonus(0, rest[:8]), draw(1, "map3"),
             mapa(1, rest[8], reveal=rest[8:] + ["anchor3"]), mapa(1, rest[8], reveal=rest[8:])])
    assert errors(r) == [[14, "wrong_reveal_count"]]
    assert area(r) == ["map3", rest[8]] and r.game.s[K.R_DISCARD_N] == 1
    return rest[8:]


def test_oracle_peeks_and_the_next_draw_must_be_that_card():
    acts = [draw(0, "oracle3"), oracle(0, "anchor2"), oracle(0, ["anchor3", "key3"]), oracle(0, "kraken5"),
            draw(0, "anchor3"), collect(0), draw(1, "anchor3"), draw(1, "kraken5")]
    r = play(H(2), acts)
    assert errors(r) == [[3, "not_in_draw_pile"], [4, "wrong_peek_count"], [6, "not_peeked_card"],
                         [8, "not_peeked_card"]]
    assert area(r) == ["kraken5"] and r.game.s[K.R_PEEK_N] == 0 and bank(r, 0) == ["oracle3"]


def test_oracle_as_the_last_card_has_no_effect():
    r = play(H(2), [draw(0, "key3"), collect(0)])
    only_left_to_draw(r, ["oracle3"])
    feed(r, [draw(1, "oracle3"), oracle(1, "key4"), collect(1)])
    assert errors(r) == [[5, "wrong_choice"]]
    assert r.game.over() and bank(r, 1) == ["oracle3"]


def test_sword_steals_a_top_card_into_play():
    acts = turns((0, ["anchor3"]), (1, ["chest3", "mermaid5", "anchor5"]), (0, ["key3"]), (1, ["chest4"])) + [
        draw(0, "sword3"), sword(0, 0, "anchor3"), sword(0, 1, "key3"), sword(0, 1, "anchor5"),
        sword(0, 1, "chest3"), sword(0, 1, "chest4"), collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[13, "bad_target"], [14, "not_in_bank"], [15, "suit_in_own_bank"], [16, "not_top_card"]]
    assert bank(r, 0) == ["anchor3", "chest4", "key3", "sword3"] and bank(r, 1) == ["anchor5", "chest3", "mermaid5"]


def test_two_decks_hold_two_copies_of_each_code():
    acts = [draw(0, "map3"), mapa(0, "anchor2", reveal=["anchor2", "anchor2", "anchor2"]),
            mapa(0, "anchor2", reveal=["anchor2", "anchor2", "key2"]), collect(0),
            draw(1, "anchor7"), collect(1), draw(2, "anchor7"), collect(2), draw(3, "anchor7"),
            draw(3, "sword3"), sword(3, 1, "anchor7"), collect(3)]
    r = play(H(5), acts)
    assert errors(r) == [[3, "not_in_discard"], [10, "not_in_draw_pile"]]
    assert bank(r, 0) == ["anchor2", "map3"] and bank(r, 1) == [] and bank(r, 3) == ["anchor7", "sword3"]
    assert at(r, K.DISCARD).count("anchor2") == 1 and r.game.s[K.R_DRAW_N] == 96
    return r.game.summary()


def test_sword_is_mandatory_even_when_it_busts_and_the_stolen_card_triggers():
    acts = turns((0, ["anchor3"]), (1, ["chest3"])) + [
        draw(1, "map3"), mapa(1, "key2", reveal=["key2", "chest2", "hook2"]), collect(1)]
    acts[4:4] = turns((0, ["anchor4"]))
    r = play(H(2), acts + [draw(0, "sword3"), sword(0, 1, "map3"),
                           mapa(0, "chest2", reveal=["chest2", "hook2", "oracle2"]), collect(0),
                           draw(1, "anchor5"), draw(1, "sword4"), sword(1, 0, "anchor4")])
    ok(r)
    assert bank(r, 0) == ["anchor3", "chest2", "map3", "sword3"] and "anchor4" in at(r, K.DISCARD)
    assert bank(r, 1) == ["chest3", "key2"] and r.game.s[K.R_TURN] == 0
    return at(r, K.DISCARD)


def test_sword_without_a_legal_target_has_no_effect():
    acts = turns((0, ["anchor3", "chest3"]), (1, ["anchor4"])) + [draw(0, "sword3"), sword(0, 1, "anchor4"),
                                                                   collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[8, "wrong_choice"]] and bank(r, 0) == ["anchor3", "chest3", "sword3"]


def test_kraken_demands_two_more_cards():
    r = play(H(2), [draw(0, "kraken3"), collect(0), draw(0, "key3"), collect(0), draw(0, "chest3"), collect(0)])
    assert errors(r) == [[3, "kraken_demands"], [5, "kraken_demands"]]
    assert bank(r, 0) == ["chest3", "key3", "kraken3"]


def test_kraken_hook_sword_or_map_first_brings_the_second_card():
    acts = turns((0, ["anchor3"]), (1, ["chest3"])) + [
        draw(0, "kraken3"), draw(0, "hook3"), hook(0, "anchor3"), collect(0),
        draw(1, "kraken4"), draw(1, "map3"), mapa(1, "key2", reveal=["key2", "hook2", "oracle2"]), collect(1),
        draw(0, "kraken5"), draw(0, "sword3"), sword(0, 1, "chest3"), collect(0)]
    r = play(H(2), acts)
    ok(r)
    assert bank(r, 0) == ["anchor3", "chest3", "hook3", "kraken3", "kraken5", "sword3"]
    assert bank(r, 1) == ["key2", "kraken4", "map3"]


def test_kraken_oracle_counts_but_brings_nothing_and_a_void_ability_draws_on():
    r = play(H(2), [draw(0, "kraken3"), draw(0, "oracle3"), oracle(0, "key3"), collect(0), draw(0, "key3"),
                    collect(0), draw(1, "kraken4"), draw(1, "cannon3"), cannon(1, 0, "key3"), collect(1),
                    draw(1, "chest3"), collect(1)])
    # Seat 1's Cannon hits seat 0 (banked cards): that is its effect, not a second card.
    assert errors(r) == [[5, "kraken_demands"], [11, "kraken_demands"]]
    assert bank(r, 1) == ["cannon3", "chest3", "kraken4"]
    r2 = play(H(2), [draw(0, "kraken3"), draw(0, "cannon3"), collect(0), draw(0, "map3"),
                     mapa(0, "key2", reveal=["key2", "hook2", "oracle2"]), collect(0)])
    assert errors(r2) == [[4, "kraken_demands"]]


def test_kraken_demand_ends_with_the_draw_pile():
    r = play(H(2), [draw(0, "key3"), collect(0)])
    only_left_to_draw(r, ["kraken3", "chest3"])
    feed(r, [draw(1, "kraken3"), collect(1), draw(1, "chest3"), collect(1), draw(0, "key4")])
    assert errors(r) == [[5, "kraken_demands"], [8, "game_over"]]
    assert r.game.over() and bank(r, 1) == ["chest3", "kraken3"]


def test_mermaid_values_and_scoring_by_stack_tops():
    acts = turns((0, ["mermaid9", "anchor3"]), (1, ["key7"]), (0, ["anchor5", "mermaid4"]))
    acts[-3:-1] = [draw(0, "anchor5"), draw(0, "mermaid6")]
    r = play(H(2), acts)
    ok(r)
    assert r.game.summary()["scores"] == [14, 7]
    return r.game.summary()


# -- the end of the game ------------------------------------------------------------------
def test_game_ends_after_the_turn_that_drew_the_last_card():
    r = play(H(2), [])
    only_left_to_draw(r, ["mermaid7", "chest3", "anchor4"])
    feed(r, [draw(0, "mermaid7"), collect(0), draw(1, "chest3"), draw(1, "anchor4")])
    assert not r.game.over()  # the last card is drawn: the turn is finished normally
    feed(r, [draw(1, "anchor3"), collect(1), collect(1), draw(0, "key5"), trait(0, "mystic")])
    s = r.game.summary()
    assert errors(r) == [[6, "draw_pile_empty"], [8, "game_over"], [9, "game_over"], [10, "game_over"]]
    # 7 points each: the bigger bank wins.
    assert s["over"] and s["scores"] == [7, 7] and s["bank_cards"] == [1, 2] and s["winners"] == [1]
    return s


def test_a_tie_on_points_and_cards_is_a_shared_win():
    r = play(H(3), [])
    only_left_to_draw(r, ["mermaid7", "key7", "chest3", "chest4"])
    feed(r, [draw(0, "mermaid7"), collect(0), draw(1, "key7"), collect(1), draw(2, "chest3"),
             draw(2, "chest4")])
    s = r.game.summary()
    ok(r)
    assert s["over"] and s["winners"] == [0, 1] and s["scores"] == [7, 7, 0]
    return s


def test_the_last_turn_may_end_with_a_key_and_chest_bonus():
    r = play(H(2), [])
    only_left_to_draw(r, ["key3", "chest3"])
    feed(r, [draw(0, "key3"), draw(0, "chest3"), collect(0)])
    assert not r.game.over() and r.game.s[K.R_PENDING] == K.A_BONUS
    feed(r, [bonus(0, at(r, K.DISCARD)[:2])])
    ok(r)
    assert r.game.over() and r.game.summary()["bank_cards"] == [4, 0]


# -- rejections that change nothing -----------------------------------------------------------
def test_drawn_card_must_be_in_the_draw_pile():
    r = play(H(2), [draw(0, "anchor2"), draw(0, "anchor3"), collect(0), draw(1, "anchor3"),
                    draw(1, "anchor9"), draw(1, "key3")])
    assert errors(r) == [[2, "not_in_draw_pile"], [5, "not_in_draw_pile"], [6, "unknown_code"]]
    r2 = play(H(5), [draw(0, "anchor3"), collect(0), draw(1, "anchor3"), collect(1), draw(2, "anchor3")])
    assert errors(r2) == [[6, "not_in_draw_pile"]]  # two decks: two of each code


def test_actions_out_of_turn_and_choices_out_of_place():
    r = play(H(3), [draw(0, "key3"), draw(1, "key4"), collect(2), hook(0, "key3"), bonus(0, []),
                    draw(0, "cannon3"), collect(0)])
    assert errors(r) == [[3, "not_your_turn"], [4, "not_your_turn"], [5, "wrong_choice"],
                         [6, "wrong_choice"]]
    assert bank(r, 0) == ["cannon3", "key3"]


def test_malformed_lines_are_rejected():
    r = play(H(2), ["{not json", '{"a": "draw", "p": 0}', '{"a": "dance", "p": 0}',
                    '{"a": "draw", "p": 0, "card": "joker"}', '{"a": "draw", "p": 2, "card": "key3"}',
                    '{"a": "draw", "p": 0, "card": "key3", "x": 1}', '{"a": "map", "p": 0, "pick": "key2", '
                    '"reveal": ["key2", "chest2", "hook2", "map2"]}', '{"a": "draw", "p": 0, "card": "key3"}'])
    assert area(r) == ["key3"]
    return errors(r)


def test_rejected_actions_leave_the_state_identical():
    acts = turns((0, ["anchor3"]), (1, ["chest3"])) + [draw(0, "kraken3"), draw(0, "sword3")]
    r = play(H(2, first=0), acts)
    ok(r)
    before = bytes(r.game.s)
    for a in (collect(0), draw(0, "key3"), sword(0, 1, "anchor3"), sword(1, 0, "anchor3"), hook(0, "anchor3"),
              cannon(0, 1, "chest3"), mapa(0, "key2", reveal=["key2"]), oracle(0, "key4"), bonus(0, ["key2"]),
              trait(0, "parry"), sword(0, 0, "anchor3"), sword(0, 1, "chest4")):
        r.feed(json.dumps(a).encode())
        assert bytes(r.game.s) == before, a
    return errors(r)


# -- traits ------------------------------------------------------------------------------
def test_traits_are_chosen_before_the_first_draw():
    r = play(H(3), [trait(1, "parry"), trait(1, "mystic"), trait(2, "parry"), trait(0, "davy_jones"),
                    trait(0, "davy_jones", 0), trait(0, "davy_jones", 3), trait(0, "mystic", 1),
                    trait(0, "davy_jones", 2), draw(0, "key3"), trait(2, "miser")])
    assert errors(r) == [[3, "trait_chosen"], [4, "trait_taken"], [5, "target_required"], [6, "bad_target"],
                         [7, "bad_target"], [8, "bad_target"], [11, "wrong_phase"]]
    d2 = play(H(2), [trait(0, "davy_jones"), trait(1, "davy_jones")])
    assert errors(d2) == [[3, "trait_taken"]] and d2.game.s[K.R_DJ] == 1
    five = play(H(5), [trait(0, "parry"), trait(3, "parry"), trait(4, "parry")])
    assert errors(five) == [[4, "trait_taken"]]  # two decks: each trait twice
    return deadmans_view.describe(_view(r))["seats"]


def test_beastmaster_opponent_kraken_demands_four():
    r = play(H(2), [trait(1, "beastmaster"), draw(0, "kraken3"), draw(0, "key3"), draw(0, "anchor3"),
                    draw(0, "mermaid5"), collect(0), draw(0, "hook3"), collect(0),
                    draw(1, "kraken4"), draw(1, "key4"), draw(1, "mermaid6"), collect(1)])
    assert errors(r) == [[7, "kraken_demands"]]
    assert len(bank(r, 0)) == 5 and len(bank(r, 1)) == 3


def test_captains_hook_plays_two_cards_one_after_the_other():
    acts = [trait(0, "captains_hook"), draw(0, "map3"), mapa(0, "key2", reveal=["key2", "chest2", "hook2"]),
            collect(0)] + turns((1, ["anchor3"]), (0, ["anchor4"]), (1, ["chest3"])) + [
        draw(0, "hook3"), hook(0, "map3"), hook(0, "key2"),
        mapa(0, "chest2", reveal=["chest2", "hook2", "oracle2"]), hook(0, "anchor4"), collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[14, "wrong_choice"]]
    assert area(r) == [] and bank(r, 0) == ["anchor4", "chest2", "hook3", "key2", "map3"]


def test_captains_hook_second_card_only_while_the_bank_has_one():
    r = play(H(2), [trait(0, "captains_hook")] + turns((0, ["key3"]), (1, ["chest3"])) + [
        draw(0, "hook3"), hook(0, "key3"), collect(0)])
    ok(r)
    assert bank(r, 0) == ["hook3", "key3"]


def test_casanova_mermaids_go_straight_to_the_bank():
    r = play(H(2), [trait(0, "casanova"), draw(0, "kraken3"), draw(0, "mermaid5"), collect(0),
                    draw(0, "mermaid6"), collect(0), draw(0, "key3"), draw(0, "chest3"), collect(0)])
    assert errors(r) == [[5, "kraken_demands"], [7, "kraken_demands"]]
    assert bank(r, 0) == ["chest3", "key3", "kraken3", "mermaid5", "mermaid6"]


def test_davy_jones_banks_the_opponents_busts():
    r = play(H(2), [trait(1, "davy_jones"), draw(0, "key3"), draw(0, "anchor3"), draw(0, "chest3"),
                    draw(0, "key4"), draw(1, "mermaid5"), draw(1, "mermaid6")])
    ok(r)
    assert bank(r, 0) == ["key3"] and bank(r, 1) == ["anchor3", "chest3", "key4"]
    assert "mermaid5" in at(r, K.DISCARD)  # its owner's own bust is discarded


def test_davy_jones_with_three_players_watches_one_opponent():
    r = play(H(3), [trait(0, "davy_jones", 2), draw(0, "key3"), collect(0), draw(1, "chest3"),
                    draw(1, "chest4"), draw(2, "anchor3"), draw(2, "anchor4")])
    ok(r)
    assert bank(r, 0) == ["anchor3", "anchor4", "key3"] and "chest4" in at(r, K.DISCARD)


def test_fisherman_krakens_go_to_the_bank_and_demand_nothing():
    r = play(H(2), [trait(0, "fisherman"), draw(0, "kraken3"), collect(0), draw(1, "kraken4"), collect(1)])
    assert errors(r) == [[6, "kraken_demands"]]
    assert bank(r, 0) == ["kraken3"] and area(r) == ["kraken4"]


def test_golden_scales_adds_five_to_the_scoring_mermaid():
    r = play(H(2), [trait(0, "golden_scales"), trait(1, "mystic"), draw(0, "mermaid5"), draw(0, "mermaid9")])
    r2 = play(H(2), [trait(0, "golden_scales")] + turns((0, ["mermaid5", "key3"]), (1, ["mermaid6"])))
    assert r.game.summary()["scores"] == [0, 0]
    assert r2.game.summary()["scores"] == [13, 6]


def test_miser_protects_the_hook_and_its_card():
    # The seed's example: a Cannon in play, a Hook brings a Mermaid, a second Cannon busts.
    acts = [trait(0, "miser")] + turns((0, ["mermaid5"]), (1, ["anchor3"])) + [
        draw(0, "cannon3"), cannon(0, 1, "anchor3"), draw(0, "hook3"), hook(0, "mermaid5"), draw(0, "cannon4")]
    r = play(H(2), acts)
    ok(r)
    assert bank(r, 0) == ["hook3", "mermaid5"] and "cannon3" in at(r, K.DISCARD)


def test_navigator_picks_any_discard_card():
    r = play(H(2), [trait(0, "navigator"), draw(0, "map3"), mapa(0, "key2", reveal=["key2", "hook2", "oracle2"]),
                    mapa(0, "key3"), mapa(0, "sword2"), collect(0)])
    assert errors(r) == [[4, "reveal_not_wanted"], [5, "not_in_discard"]]
    assert bank(r, 0) == ["map3", "sword2"]


def test_master_gunner_discards_a_whole_stack():
    acts = [trait(0, "master_gunner")] + turns((0, ["key3"]), (1, ["chest3", "anchor3"]), (0, ["key4"]),
                                               (1, ["chest5"])) + [
        draw(0, "cannon3"), cannon(0, 1, "chest3"), cannon(0, 1, "chest5"), collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[13, "not_top_card"]]
    assert bank(r, 1) == ["anchor3"] and "chest3" in at(r, K.DISCARD) and "chest5" in at(r, K.DISCARD)


def test_misfire_turns_an_opponent_cannon_on_their_own_bank():
    acts = [trait(1, "misfire")] + turns((0, ["key3", "anchor3"]), (1, ["chest3"])) + [
        draw(0, "cannon3"), cannon(0, 1, "chest3"), cannon(0, 0, "key3"), collect(0),
        draw(1, "cannon4"), cannon(1, 0, "anchor3"), collect(1)]
    r = play(H(2), acts)
    assert errors(r) == [[9, "misfire_own_bank"]]
    assert bank(r, 0) == ["cannon3"] and bank(r, 1) == ["cannon4", "chest3"]
    r2 = play(H(2), [trait(1, "misfire"), draw(0, "cannon3"), collect(0)])  # own bank empty
    ok(r2)


def test_mystic_sees_three_and_they_are_drawn_in_that_order():
    # Seat 1's own Oracle (one card) then sees what the Mystic already saw.
    acts = [trait(0, "mystic"), draw(0, "oracle3"), oracle(0, "key3"), oracle(0, ["key3", "oracle4", "key3"]),
            oracle(0, ["key3", "oracle4", "anchor4"]), draw(0, "oracle4"), draw(0, "key3"), collect(0),
            draw(1, "anchor4"), draw(1, "oracle4"), oracle(1, "anchor5"), oracle(1, "anchor4"),
            draw(1, "anchor4"), collect(1)]
    r = play(H(2), acts)
    assert errors(r) == [[4, "wrong_peek_count"], [5, "not_in_draw_pile"], [7, "not_peeked_card"],
                         [10, "not_peeked_card"], [12, "not_peeked_card"]]
    assert r.game.s[K.R_PEEK_N] == 0 and bank(r, 1) == ["anchor4", "oracle4"]
    return bank(r, 0)


def test_parry_forces_a_kraken_or_discards_the_sword():
    acts = [trait(1, "parry"), draw(0, "key3"), collect(0), draw(1, "kraken3"), draw(1, "chest3"),
            draw(1, "anchor3"), collect(1), draw(0, "sword3"), sword(0, 1, "chest3"), sword(0, 1, "kraken3"),
            collect(0)]
    r = play(H(2), acts)
    assert errors(r) == [[10, "parry_forces_kraken"], [12, "kraken_demands"]]
    assert area(r) == ["sword3", "kraken3"] and bank(r, 1) == ["anchor3", "chest3"]
    # Seat 0 now banks a Kraken (collected below): Parry has no effect on its next Sword.
    feed(r, [draw(0, "mermaid5"), draw(0, "map3"), mapa(0, "key2", reveal=["key2", "hook2", "oracle2"]),
             collect(0), draw(1, "mermaid6"), collect(1), draw(0, "sword4"), sword(0, 1, "chest3"),
             collect(0)])
    ok_after = errors(r)
    assert ok_after == [[10, "parry_forces_kraken"], [12, "kraken_demands"]]
    assert "chest3" in bank(r, 0)
    r2 = play(H(2), [trait(1, "parry"), draw(0, "key3"), collect(0), draw(1, "chest3"), collect(1),
                     draw(0, "sword3"), sword(0, 1, "chest3"), collect(0)])
    # No Kraken in the Parry bank: the Sword is discarded with no effect.
    assert errors(r2) == [[8, "wrong_choice"]]
    assert bank(r2, 0) == ["key3"] and "sword3" in at(r2, K.DISCARD)


def test_plunderer_takes_top_cards_from_one_opponent():
    acts = [trait(0, "plunderer")] + turns((0, ["mermaid5"]), (1, ["anchor3", "chest3"]), (0, ["mermaid6"]),
                                           (1, ["anchor5"])) + [
        draw(0, "key3"), draw(0, "chest4"), collect(0), bonus(0, ["anchor2", "chest2"]),
        bonus(0, ["anchor5", "anchor3"], 0), bonus(0, ["anchor3", "anchor5"], 1),
        bonus(0, ["anchor5", "chest4"], 1), bonus(0, ["anchor5"], 1), bonus(0, ["anchor5", "anchor3"], 1)]
    r = play(H(2), acts)
    assert errors(r) == [[15, "target_required"], [16, "bad_target"], [17, "not_top_card"], [18, "not_in_bank"],
                         [19, "wrong_bonus_count"]]
    assert bank(r, 1) == ["chest3"] and "anchor5" in bank(r, 0)
    # An empty bank cannot be named; a bank holding fewer cards than due gives them all.
    r3 = play(H(3), [trait(0, "plunderer")] + turns((0, ["mermaid5"]), (1, ["anchor3"])) + [
        draw(2, "key3"), draw(2, "key4"), draw(0, "key5"), draw(0, "chest3"), collect(0),
        bonus(0, [], 2), bonus(0, ["anchor3", "anchor3"], 1), bonus(0, ["anchor3"], 1)])
    assert errors(r3) == [[12, "empty_bank"], [13, "wrong_bonus_count"]]
    assert bank(r3, 0) == ["anchor3", "chest3", "key5", "mermaid5"] and bank(r3, 1) == []
    return bank(r, 0)


def test_safe_harbor_protects_the_anchor_and_the_next_two():
    r = play(H(2), [trait(0, "safe_harbor"), draw(0, "chest3"), draw(0, "anchor3"), draw(0, "key3"),
                    draw(0, "mermaid5"), draw(0, "kraken3"), draw(0, "chest4")])
    ok(r)
    assert bank(r, 0) == ["anchor3", "chest3", "key3", "mermaid5"] and "kraken3" in at(r, K.DISCARD)


def test_scavenger_banks_what_its_cannon_removes():
    acts = [trait(0, "scavenger")] + turns((0, ["key3"]), (1, ["chest3"])) + [
        draw(0, "cannon3"), cannon(0, 1, "chest3"), collect(0)]
    r = play(H(2), acts)
    ok(r)
    assert bank(r, 0) == ["cannon3", "chest3", "key3"] and bank(r, 1) == []


def test_swordsman_may_steal_a_suit_already_banked():
    acts = [trait(0, "swordsman")] + turns((0, ["anchor3"]), (1, ["anchor5"])) + [
        draw(0, "sword3"), sword(0, 1, "anchor5"), collect(0)]
    r = play(H(2), acts)
    ok(r)
    assert bank(r, 0) == ["anchor3", "anchor5", "sword3"] and r.game.summary()["scores"][0] == 8


def test_treasure_hunter_triples_the_bonus():
    r = play(H(2), [trait(0, "treasure_hunter"), draw(0, "key3"), draw(0, "chest3"), collect(0),
                    bonus(0, ["anchor2", "chest2"]),
                    bonus(0, ["anchor2", "chest2", "hook2", "key2", "kraken2", "map2"])])
    assert errors(r) == [[6, "wrong_bonus_count"]]
    assert len(bank(r, 0)) == 8 and r.game.s[K.R_DISCARD_N] == 4


# -- views, vocabulary and snapshots ---------------------------------------------------------
def _view(r):
    view = bytearray(r.game.PUBLIC_SIZE)
    r.game.public(view)
    return view


def test_public_view_hides_the_peek_and_the_face_down_piles():
    a = play(H(2), [draw(0, "oracle3"), oracle(0, "key3")])
    b = play(H(2), [draw(0, "oracle3"), oracle(0, "chest5")])
    assert _view(a) == _view(b) and bytes(a.game.s) != bytes(b.game.s)
    # key2 (discard pile) and key4 (draw pile) swapped: which face-down pile holds a card is not shown.
    e = play(H(2), [draw(0, "oracle3"), oracle(0, "key3")])
    e.game.s[K.LOC + 24], e.game.s[K.LOC + 26] = e.game.s[K.LOC + 26], e.game.s[K.LOC + 24]
    assert e.game.valid_state(e.game.s) and bytes(e.game.s) != bytes(a.game.s) and _view(a) == _view(e)
    rec = bytearray(128)
    assert d.GAME.VOCAB.encode(oracle(0, "key3"), rec) == 0
    assert d.GAME.VOCAB.decode(rec, public=True) == {"a": "oracle", "p": 0}
    assert d.GAME.VOCAB.decode(rec) == oracle(0, "key3")
    assert d.GAME.VOCAB.encode(oracle(0, ["key3", "key4", "key5"]), rec) == 0
    assert d.GAME.VOCAB.decode(rec)["peek"] == ["key3", "key4", "key5"]
    v = deadmans_view.describe(_view(a))
    assert v["pending"] is None and v["play"] == ["oracle3"] and v["draw_pile"] == 49
    return v


def test_describe_shows_banks_scores_and_the_pending_choice():
    r = play(H(2), [trait(0, "golden_scales")] + turns((0, ["mermaid5", "anchor3"])) + [draw(1, "cannon3")])
    v = deadmans_view.describe(_view(r))
    assert v["pending"] == "cannon" and v["seats"][0]["bank"] == ["anchor3", "mermaid5"]
    assert v["seats"][0]["score"] == 13
    return v


def test_snapshot_round_trip_and_corruption():
    r = play(H(6), [trait(2, "mystic"), draw(0, "kraken3"), draw(0, "oracle3"), oracle(0, "key3")])
    ok(r)
    blob = r.game.snapshot()
    g = d.DeadMans()  # a blank game to restore into
    assert g.restore(blob) == 0 and g.digest() == r.game.digest()
    bad = bytearray(blob)
    bad[12] ^= 1
    h = d.DeadMans.from_header(H(3))
    before = h.digest()
    assert h.restore(bytes(bad)) == 7 and h.digest() == before
    assert h.restore(blob[:-1]) == 7
    return [len(blob), r.game.digest()]


def test_restore_refuses_inconsistent_states():
    """A snapshot with a valid CRC but impossible contents is refused (apply could misbehave)."""
    from shared_rules.core.engine import crc32
    r = play(H(2), [draw(0, "key3"), draw(0, "chest3")])
    refused = 0
    for at_, value in ((K.R_DRAW_N, 40), (K.R_PLAY_N, 1), (K.R_PLAY + 1, 14), (K.LOC + 30, 14),
                       (K.R_PENDING, 1), (K.R_TRAIT, 40), (K.LOC + 70, 8), (K.R_PEEK_N, 1),
                       (K.R_PENDING, K.A_HOOK)):  # a Hook pending with no hook left: apply failed
        s = bytearray(r.game.s)
        s[at_] = value
        body = b"TM" + bytes((1, d.DeadMans.GAME_ID)) + bytes(s)
        c = crc32(body)
        blob = body + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24))
        g = d.DeadMans.from_header(H(2))
        if g.restore(blob) == 7:
            refused += 1
    assert refused == 9, refused
