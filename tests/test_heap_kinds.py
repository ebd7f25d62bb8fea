"""The heap breakdown tool's own arithmetic (bench/heap_kinds.py): code objects counted as
MicroPython makes them, qstr pool blocks taken out of the "other" heads."""
from bench.heap_kinds import code_objects, kinds


def test_code_objects_counts_bodies_functions_classes_and_comprehensions_not_typing_blocks():
    source = (
        "_TYPING = const(0)\n"
        "if _TYPING:\n"
        "    def hint(): pass\n"
        "else:\n"
        "    def plain(): pass\n"
        "class A:\n"
        "    def m(self):\n"
        "        return [i for i in range(3)]\n"
        "f = lambda x: x\n"
    )
    # module, plain, class A body, m, the list comprehension, the lambda; not ``hint``
    assert code_objects(source) == 6


def test_kinds_moves_the_qstr_pool_bytes_from_other_to_their_own_kind():
    dump = ("qstr pool: n_pool=1, n_qstr=3, n_str_data_bytes=20, n_total_bytes=84\n"
            "GC: total: 1024, used: 160, free: 864\n"
            "00000000: hh===h=TD=S.." + "." * 51 + "\n")
    count, size, qstrs = kinds(dump)
    assert size == 16 and qstrs == 3
    # heads: h(1) h(4 blocks) h(2) T(1) D(2) S(1); the pool is 64 bytes = 4 blocks of "other"
    assert count["Q"] == 4 and count["h"] == 3 and count["T"] == 1 and count["D"] == 2 and count["S"] == 1
