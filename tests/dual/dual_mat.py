"""The game-independent mat layer and the feedback, on both interpreters: layouts, the gesture
interface (with a recording gesture module), numbers, refusals, station lights and buzzer."""
import padsim
from padsim import LAYOUT_DOC as DOC, micropython, token_uid
from shared_rules import games
from shared_rules.core import deck
from shared_rules.core import tokens
from shared_rules.core.engine import UNKNOWN_TAG, FOREIGN_TAG, NOT_NOW
from firmware import feedback as fb, sounds
from firmware.mat import Mat, pick_layout, gestures_for, READY, NOTHING, NO_ZONE, PROMPT_OVER


def uid(i):
    return bytes((4, 0x66, i, 1, 2, 3, 4))


DISC0 = uid(0)      # a Skull flower of seat 0
DISC3 = uid(3)      # a Skull skull of seat 3
SHERIFF = uid(9)    # a Sheriff apple


def pieces():
    return [{"uid": deck.uid_hex(DISC0), "game": "skull", "kind": "disc", "code": "flower", "seat": 0},
            {"uid": deck.uid_hex(DISC3), "game": "skull", "kind": "disc", "code": "skull", "seat": 3},
            {"uid": deck.uid_hex(SHERIFF), "game": "sheriff", "kind": "card", "code": "apple"}]


def registry():
    return padsim.registry("layer", pieces)


class Recorder:
    """A gesture module that records every call and answers what it is told to."""
    ZONES = ("pad", "dock", "middle", "command")
    PROMPTS = ("over", "something")

    def __init__(self, mat):
        self.mat = mat
        self.calls = []
        self.top = 0      # number_max
        self.answer = READY

    def arrive(self, zone, seat, tag):
        self.calls.append(["arrive", self.ZONES[zone], seat, tag.kind, tag.code, tag.seat])
        return self.answer

    def leave(self, zone, seat, tag):
        self.calls.append(["leave", self.ZONES[zone], seat, tag.code])
        return NOTHING

    def switch(self, seat, closed):
        self.calls.append(["switch", seat, closed])
        return NOTHING

    def cancel(self):
        self.calls.append(["cancel"])
        return NOTHING

    def number_max(self):
        return self.top

    def number(self, n):
        self.calls.append(["number", n])
        return READY

    def token(self, t):
        self.calls.append(["token", tokens.CODES[t]])
        return NOT_NOW

    def prompt(self):
        self.mat.wait_seats = 5
        self.mat.wait_zone = 2
        return 1


LAYOUT = {"seats": [3, 4], "station": "pad", "readers": 16, "switches": 6,
          "zones": {"pad": [0, 2, 4, 6], "dock": [[1, 0], [3, 1], [5, 2], [7, 3]], "middle": 12, "command": 15}}


def skull(n):
    return games.from_header({"game": "skull", "players": n})


def recording_mat(n=3, layout=LAYOUT):
    m = Mat(skull(n), layout, registry(), None, Recorder)
    return m, m.g


def test_pick_layout_covers_every_seat_count_once():
    out = {}
    for name, lo, hi in (("skull", 3, 12), ("deadmans", 2, 8), ("sheriff", 3, 6)):
        out[name] = []
        for n in range(lo, hi + 1):
            lay = pick_layout(DOC, name, n)
            assert lay["seats"][0] <= n <= lay["seats"][1] and lay["led_of_reader"] == DOC["led_of_reader"]
            out[name].append(lay["seats"][0])
    for name, n in (("skull", 2), ("skull", 13), ("chess", 4), ("deadmans", 9)):
        try:
            pick_layout(DOC, name, n)
        except ValueError as e:
            assert ("%d seats" % n) in str(e)
            continue
        raise AssertionError((name, n))
    return out


def test_skull_layouts_map_readers_to_zones_and_seats():
    out = []
    for n in (3, 6, 7, 12):
        m = Mat(skull(n), pick_layout(DOC, "skull", n), registry())
        used = [[r, m.g.ZONES[m.zone_of[r]], m.seat_of[r]] for r in range(16) if m.zone_of[r] != NO_ZONE]
        assert len(used) == n + 2 and m.zone_reader[m.command] == 15
        out.append(used)
    return out


def test_events_reach_the_gesture_module_with_zone_seat_and_tag():
    m, g = recording_mat()
    codes = [m.on_arrive(2, DISC3), m.on_arrive(12, DISC0), m.on_arrive(3, DISC0),
             m.on_leave(2, DISC3), m.on_leave(12, DISC0),
             m.on_switch(2, True), m.on_switch(3, True), m.on_switch(5, False), m.on_switch(9, True)]
    # Seat 3's pad and dock are not in play with 3 seats: nothing reaches the module.
    codes += [m.on_arrive(6, DISC0), m.on_leave(6, DISC0), m.on_arrive(7, DISC0)]
    assert codes == [READY, READY, READY, NOTHING, NOTHING, NOTHING, NOTHING, NOTHING, NOTHING,
                     NOT_NOW, NOTHING, NOT_NOW], codes
    assert g.calls == [["arrive", "pad", 1, deck.DISC, 1, 3], ["arrive", "middle", 255, deck.DISC, 0, 0],
                       ["arrive", "dock", 1, deck.DISC, 0, 0], ["leave", "pad", 1, 1], ["leave", "middle", 255, 0],
                       ["switch", 2, True]], g.calls
    assert m.reader == 7
    return g.calls


def test_tags_the_mat_refuses_never_reach_the_gestures():
    m, g = recording_mat()
    codes = [m.on_arrive(0, uid(200)), m.on_arrive(0, SHERIFF), m.on_arrive(16, DISC0), m.on_arrive(-1, DISC0),
             m.on_leave(0, uid(200)), m.on_leave(0, SHERIFF), m.on_leave(99, DISC0)]
    assert codes == [UNKNOWN_TAG, FOREIGN_TAG, NOT_NOW, NOT_NOW, NOTHING, NOTHING, NOTHING], codes
    assert g.calls == []
    return codes


def test_tokens_on_the_command_pad():
    m, g = recording_mat()

    def tap(t):
        return m.on_arrive(15, token_uid(t))

    def digits(*ds):
        return [tap(tokens.DIGIT0 + d) for d in ds]

    codes = [tap(tokens.PASS), tap(tokens.SEAT0 + 2), tap(tokens.CONFIRM), tap(tokens.CANCEL)]
    codes += digits(4)                                 # numbers mean nothing now (top 0)
    g.top = 40
    codes += digits(4, 1)                              # 4 waits (40 possible); 41 > 40: complete
    codes += digits(3) + [tap(tokens.CONFIRM)]         # 3, confirmed
    codes += digits(2) + [tap(tokens.PASS)] + digits(5)  # a word drops the 2
    codes += digits(1) + [m.on_arrive(2, DISC3)] + digits(7)  # so does a disc
    g.top = 999                                        # more than a U8 field: capped at 254
    codes += digits(2, 5, 5) + digits(2, 5, 4)
    codes += [m.on_arrive(2, token_uid(tokens.PASS)), m.on_leave(15, token_uid(tokens.PASS))]
    codes += digits(2) + [tap(tokens.CANCEL)] + digits(6) + [tap(tokens.CONFIRM)]  # cancel drops the 2
    assert codes == [NOT_NOW, NOT_NOW, NOT_NOW, NOTHING, NOT_NOW, NOTHING, READY, NOTHING, READY,
                     NOTHING, NOT_NOW, READY, NOTHING, READY, READY, NOTHING, NOTHING, NOT_NOW,
                     NOTHING, NOTHING, READY, READY, NOTHING, NOTHING, NOTHING, NOTHING, READY], codes
    assert g.calls == [["token", "pass"], ["token", "seat2"], ["token", "confirm"], ["cancel"], ["number", 41],
                       ["number", 3], ["token", "pass"], ["number", 5], ["arrive", "pad", 1, deck.DISC, 1, 3],
                       ["number", 7], ["number", 254], ["arrive", "pad", 1, deck.TOKEN, tokens.PASS, 255],
                       ["number", 6]], g.calls
    return g.calls


def test_bad_layouts_are_refused_with_the_reason():
    cases = [
        ({"zones": {"pad": [0, 2, 4], "moon": 9, "command": 15}}, "zone 'moon' means nothing"),
        ({"zones": {"pad": [0, 2, 4], "middle": 2, "command": 15}}, "reader 2 serves two zones"),
        ({"zones": {"pad": [0, 2, 44], "command": 15}}, "names reader 44"),
        ({"zones": {"pad": [0, 2], "command": 15}}, "no pad for seat 2"),
        ({"zones": {"pad": [0, 2, 4]}}, "needs a command pad"),
        ({"zones": {"pad": [0, 2, 4], "dock": [[1, 0], [3, 7], [5, 2]], "command": 15}}, "names switch 7"),
    ]
    out = []
    for layout, words in cases:
        try:
            recording_mat(3, layout)
        except ValueError as e:
            assert words in str(e), (words, str(e))
            out.append(str(e))
            continue
        raise AssertionError(words)
    try:
        gestures_for("chess")
    except ValueError as e:
        out.append(str(e))
    return out


def test_prompt_reports_the_shared_pad():
    m, g = recording_mat()
    what = m.prompt()
    assert [what, m.wait_seats, m.wait_zone, m.wait_reader] == [1, 5, 2, 12]
    return [what, m.wait_reader]


# -- feedback ------------------------------------------------------------------------------
class FakeLeds:
    def __init__(self, n):
        self.px = [0] * (3 * n)
        self.sets = 0
        self.shows = 0

    def set(self, i, r, g, b):
        self.px[3 * i] = r
        self.px[3 * i + 1] = g
        self.px[3 * i + 2] = b
        self.sets += 1

    def show(self):
        self.shows += 1


class FakeBuzzer:
    def __init__(self):
        self.played = [0] * 16
        self.n = 0

    def play(self, pattern):
        self.played[self.n % 16] = pattern
        self.n += 1


class FakeBoard:
    def __init__(self):
        self.leds = FakeLeds(16)
        self.buzzer = FakeBuzzer()


def colours(board):
    """The colour name of every lit LED: {led: name}."""
    names = ("off", "green", "red", "blue", "amber", "gold")
    out = {}
    for i in range(16):
        px = board.leds.px[3 * i:3 * i + 3]
        for c in range(1, len(names)):
            if list(fb.COLOURS[3 * c:3 * c + 3]) == px:
                out[str(i)] = names[c]
    return out


def skull_feedback(n=6):
    board = FakeBoard()
    return board, fb.Feedback(board, pick_layout(DOC, "skull", n), n, 500)


def test_flashes_show_where_the_gesture_was_and_end_after_hold():
    board, f = skull_feedback()
    trace = []
    f.accepted(4, 1000)                 # seat 2's pad
    trace.append(colours(board))
    f.rejected(15, 1100)
    trace.append(colours(board))
    f.tick(1499)
    trace.append(colours(board))
    f.tick(1500)
    trace.append(colours(board))
    f.tick(1600)
    trace.append(colours(board))
    f.rejected(99, 1700)                # no such pad: ignored
    assert trace == [{"4": "green"}, {"4": "green", "15": "red"}, {"4": "green", "15": "red"},
                     {"15": "red"}, {}], trace
    assert board.buzzer.played[0:3] == [sounds.OK, sounds.REJECT, sounds.REJECT]
    return trace


def test_ticks_wrap_does_not_freeze_a_flash():
    board, f = skull_feedback()
    f.accepted(0, (1 << 30) - 100)
    f.tick(300)  # 400 ms later, across the wrap
    assert colours(board) == {"0": "green"}
    f.tick(400)
    assert colours(board) == {}


def test_turn_lights_the_stations_and_buzzes_when_the_seats_change():
    board, f = skull_feedback(6)
    trace = []
    f.prompt(1, 0b000101, NO_ZONE, 0)           # seats 0 and 2: pads 0 and 4
    trace.append(colours(board))
    f.prompt(1, 0b000101, NO_ZONE, 10)          # same seats: no new buzz
    f.prompt(2, 0b100000, 15, 20, 15)           # seat 5 at the command pad, a number half tapped
    trace.append(colours(board))
    f.accepted(10, 30)                          # a flash over a steady colour, then back
    f.tick(600)
    trace.append(colours(board))
    f.prompt(PROMPT_OVER, 0b000010, NO_ZONE, 700)  # seat 1 won
    f.prompt(1, 0b000001, NO_ZONE, 800)         # nothing changes after the end
    trace.append(colours(board))
    assert trace == [{"0": "blue", "4": "blue"}, {"10": "blue", "15": "amber"}, {"10": "blue", "15": "amber"},
                     {"2": "gold"}], trace
    assert board.buzzer.played[0:board.buzzer.n] == [sounds.TURN, sounds.TURN, sounds.OK,
                                                     sounds.END]
    return trace


def test_show_reads_the_mat():
    board = FakeBoard()
    m, g = recording_mat()
    f = fb.Feedback(board, LAYOUT, 3)
    f.show(m, 0)   # the recorder waits for seats 0 and 2 at zone "middle" (reader 12)
    return colours(board)


def test_only_changed_leds_are_written_and_nothing_allocates():
    board, f = skull_feedback()
    f.prompt(1, 1, NO_ZONE, 0)
    sets = board.leds.sets
    shows = board.leds.shows
    f.tick(10)
    assert board.leds.sets == sets and board.leds.shows == shows  # nothing changed, nothing sent
    if micropython:
        micropython.heap_lock()
    try:
        for i in range(20):
            f.accepted(i % 16, 100 * i)
            f.rejected((i + 3) % 16, 100 * i + 50)
            f.prompt(1, 1 << (i % 6), 15, 100 * i + 60)
            f.tick(100 * i + 90)
    finally:
        if micropython:
            micropython.heap_unlock()
    return [board.leds.sets - sets, board.leds.shows - shows]
