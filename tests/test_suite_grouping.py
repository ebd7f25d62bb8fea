"""The suite's own parallel layout (tests/conftest.py): under ``make test`` (pytest-xdist,
``--dist loadgroup``) every file but the SPREAD ones is one group, so a dual module runs once and a
module's virtual boards start once. pytest 9.2 keeps node ids where pytest-xdist 3.8 cannot add the
group, and a conftest hook that ran after xdist's added its marker too late: each spread every file
over all workers, unseen, running each dual module once per worker."""
from __future__ import annotations

import os

import pytest


def test_this_file_is_one_group_on_one_worker(request: pytest.FixtureRequest) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ or not request.config.getoption("loadgroup", False):
        pytest.skip("only under make test's pytest-xdist --dist loadgroup")
    assert request.node.nodeid.endswith("@tests/test_suite_grouping.py"), request.node.nodeid
