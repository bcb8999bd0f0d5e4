"""Browser tests: remember each test's outcome, so a failing one can save a screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """Store the report of each phase on the item as ``rep_setup``, ``rep_call``, ``rep_teardown``."""
    outcome: Any = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
