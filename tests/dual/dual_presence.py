"""Presence debouncing on both interpreters: arrive at the first read, leave after M misses,
flicker and failed scans never cause a leave, five tags in a bag, no allocation."""
from firmware.presence import Presence
from host.board.presence_layout import ARRIVE, LEAVE, NONE

try:
    import micropython
except ImportError:
    micropython = None

NAMES = {ARRIVE: "arrive", LEAVE: "leave"}


def tag(i):
    return bytes((4, 0x20, i, 0x33, 0x44, 0x55, i ^ 0x5A))


def scan(*tags):
    """A driver scan result: (count, UIDs in 7-byte slots)."""
    buf = bytearray(5 * 7)
    for i in range(len(tags)):
        buf[7 * i:7 * i + 7] = tags[i]
    return len(tags), buf


def feed(p, reader, *tags, complete=True):
    n, buf = scan(*tags)
    p.feed(reader, n, buf, complete)
    return drain(p)


def drain(p):
    out = []
    while True:
        kind = p.pop()
        if kind == NONE:
            return out
        out.append([NAMES[kind], p.reader, p.uid[2]])


def test_arrives_on_first_read_and_leaves_after_three_misses():
    p = Presence()
    trace = [feed(p, 4, tag(1))]
    for _ in range(4):
        trace.append(feed(p, 4))
    assert trace == [[["arrive", 4, 1]], [], [], [["leave", 4, 1]], []]
    return trace


def test_flicker_is_not_a_leave():
    p = Presence()
    events = feed(p, 2, tag(7))
    # Missed twice, seen, missed twice, seen: never three misses in a row.
    for seen in (0, 0, 1, 0, 0, 1, 0, 0, 1):
        events += feed(p, 2, tag(7)) if seen else feed(p, 2)
    assert events == [["arrive", 2, 7]]
    assert p.count(2) == 1
    return events


def test_failed_scans_count_no_misses():
    p = Presence(misses=2)
    events = feed(p, 0, tag(1), tag(2))
    for _ in range(10):
        events += feed(p, 0, tag(2), complete=False)  # an error ended the scan early
    assert events == [["arrive", 0, 1], ["arrive", 0, 2]]
    events += feed(p, 0, tag(3), complete=False)      # but what it read still arrives
    events += feed(p, 0)
    events += feed(p, 0)
    assert events[2:] == [["arrive", 0, 3], ["leave", 0, 1], ["leave", 0, 2], ["leave", 0, 3]]
    return events


def test_misses_are_configurable():
    out = []
    for m in (1, 2, 5):
        p = Presence(misses=m)
        feed(p, 1, tag(9))
        n = 0
        while not feed(p, 1):
            n += 1
        out.append(n + 1)
    assert out == [1, 2, 5]
    return out


def test_a_bag_of_five():
    p = Presence()
    bag = [tag(i) for i in range(5)]
    events = feed(p, 9, *bag)
    assert [e[2] for e in events] == [0, 1, 2, 3, 4] and p.count(9) == 5
    # The same five in another order: nothing new. One card taken out: it leaves, alone.
    assert feed(p, 9, *reversed(bag)) == []
    for _ in range(3):
        events += feed(p, 9, bag[0], bag[1], bag[3], bag[4])
    assert events[5:] == [["leave", 9, 2]] and p.count(9) == 4
    # A sixth tag cannot be tracked while five are present: counted, not crashed.
    events += feed(p, 9, bag[0], bag[1], bag[3], bag[4], tag(2))
    more = Presence(slots=5)
    feed(more, 0, *bag)
    n, buf = scan(*bag)
    big = bytearray(buf) + bytearray(tag(8))
    more.feed(0, 6, big)
    assert more.crowded == 1 and more.count(0) == 5
    return events


def test_readers_are_independent_and_find_reports_the_other_reader():
    p = Presence()
    events = feed(p, 3, tag(1)) + feed(p, 8, tag(1))
    assert events == [["arrive", 3, 1], ["arrive", 8, 1]]
    uid = tag(1)
    assert p.find(uid, 3) == 8 and p.find(uid, 8) == 3 and p.find(uid, 3, True) == 8
    feed(p, 8)  # one miss on reader 8: still present there, but not seen in its last scan
    assert p.find(uid, 3) == 8 and p.find(uid, 3, True) == -1
    assert p.find(tag(2), 0) == -1
    out = bytearray(7)
    slots = [s for s in range(p.slots) if p.copy_uid(3, s, out)]
    assert len(slots) == 1 and bytes(out) == uid
    return events


def test_bad_input_is_ignored():
    p = Presence(readers=4)
    n, buf = scan(tag(1))
    p.feed(4, n, buf)
    p.feed(-1, n, buf)
    p.feed(0, 2, buf[0:7])   # count larger than the buffer
    p.feed(0, -1, buf)
    assert drain(p) == [] and p.count(0) == 0
    try:
        Presence(misses=0)
    except ValueError:
        return "refused"
    raise AssertionError("misses=0 accepted")


def test_full_ring_drops_and_counts():
    p = Presence(size=3)
    n, buf = scan(*[tag(i) for i in range(5)])
    p.feed(0, n, buf)
    assert p.dropped == 2
    got = drain(p)
    assert [e[2] for e in got] == [0, 1, 2]
    return got


def test_clear_forgets_everything():
    p = Presence()
    p.feed(0, *scan(tag(1)))
    p.clear()
    assert p.pop() == NONE and p.count(0) == 0
    return feed(p, 0, tag(1))


def test_feed_and_pop_allocate_nothing():
    p = Presence()
    bags = [scan(*[tag(i) for i in range(k)]) for k in range(6)]
    arrivals = 0
    leaves = 0
    if micropython:
        micropython.heap_lock()
    try:
        for rnd in range(40):
            for reader in range(16):
                n, buf = bags[(rnd // 4 + reader) % 6]
                p.feed(reader, n, buf)
                while True:
                    kind = p.pop()
                    if kind == NONE:
                        break
                    if kind == ARRIVE:
                        arrivals += 1
                    else:
                        leaves += 1
                p.find(p.uid, reader, True)
    finally:
        if micropython:
            micropython.heap_unlock()
    assert arrivals > 0 and leaves > 0 and p.dropped == 0
    return [arrivals, leaves]
