"""Where a heap figure runs out (bench/heap.py ``why_failed``): a failed run's traceback in a few
words, and the firmware's restarts told apart."""
import subprocess

from bench.heap import why_failed

TRACEBACK = ('Traceback (most recent call last):\n'
             '  File "<stdin>", line 5, in <module>\n'
             '  File "firmware.mat_sheriff", line 564, in prompt\n'
             'MemoryError: memory allocation failed, allocating 206 bytes\n')


def run(status: int, stderr: str = "", stdout: str = "") -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess([], status, stdout, stderr)


def test_a_traceback_is_told_by_its_innermost_frame_and_its_error():
    assert why_failed(run(1, TRACEBACK)) == (
        "firmware.mat_sheriff prompt: MemoryError: memory allocation failed, allocating 206 bytes")


def test_a_restart_says_so_and_what_it_restarted_on_when_the_board_printed_it():
    assert why_failed(run(80)) == "restarted (board.soft_reset): no room for a game beside what was loaded"
    assert why_failed(run(80, TRACEBACK)).endswith(", firmware.mat_sheriff prompt: MemoryError: "
                                                   "memory allocation failed, allocating 206 bytes")


def test_a_run_without_traceback_gives_its_last_line_its_status_or_a_wrong_result():
    assert why_failed(run(1, "MemoryError: memory allocation failed\n")) == "MemoryError: memory allocation failed"
    assert why_failed(run(2)) == "exit status 2"
    assert why_failed(run(0, stdout="{}")) == "a wrong result"
