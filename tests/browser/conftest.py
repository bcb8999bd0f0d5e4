"""Browser tests: one chromium per test module, students' devices as contexts of it, a screenshot on failure.

Launching chromium takes a second or two of a busy machine's time, so a module's tests share one
(`chromium`); each test's pages are still each in a browser context of its own (`devices`), with
its own storage and cookies, as a student's own device would be, closed when the test ends. A
test that fails leaves a screenshot of each of its pages next to its file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

#: Makes `count` pages, each in a new browser context of its own: ``devices(3, width=900, height=1400)``;
#: other keywords are the context's (``ignore_https_errors=True``, ``has_touch=True``, ...).
Devices = Callable[..., list[Any]]


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """Store the report of each phase on the item as ``rep_setup``, ``rep_call``, ``rep_teardown``."""
    outcome: Any = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium, launched once for the module's tests (skipped, or failed under CI, without it)."""
    from test_play_in_browser import CHROMIUM, FLAGS, _need_browser  # type: ignore[import-not-found]

    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def devices(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Devices]:
    """A maker of pages, each in a browser context of its own (a student's device), with a 20 s timeout.

    When the test fails, each page's screenshot is saved next to the test's file as
    ``failure-<test>-<i>.png``; every context is closed when the test ends.
    """
    opened: list[Any] = []
    contexts: list[Any] = []

    def make(count: int, *, width: int, height: int, **options: Any) -> list[Any]:
        made = []
        for _ in range(count):
            context = chromium.new_context(viewport={"width": width, "height": height}, **options)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(20_000)
            made.append(page)
        opened.extend(made)
        return made

    try:
        yield make
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            for i, page in enumerate(opened):
                page.screenshot(path=str(request.path.parent / f"failure-{request.node.name}-{i}.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
