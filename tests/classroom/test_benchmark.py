"""The load benchmarks themselves run, small: 20 students with the server killed halfway; 80 behind one address.

What is checked is behaviour (every student served, nothing lost across the kill); how fast is the
benchmark's own figure: `python benchmarks/classroom.py --students 200 --seconds 60` (README).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_twenty_students_with_a_kill_lose_nothing() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "classroom.py"), "--students", "20", "--seconds", "8", "--kill"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = dict(re.findall(r"^(\w+): (\S+)", run.stdout, re.MULTILINE))
    assert figures["students"] == "20" and figures["kills"] == "1"
    acknowledged = int(figures["acknowledged"])
    assert acknowledged >= 30, run.stdout  # every student bid, and the tables moved
    assert figures["lost"] == "0", run.stdout


def test_a_class_behind_one_address_gets_in_beside_a_hostile_client() -> None:
    """`--joins-behind-one-address`, small: every student in, the hostile client's burst shown and removed."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "classroom.py"), "--joins-behind-one-address", "80", "--hostile"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    figures = dict(re.findall(r"^(\w+): (.+)$", run.stdout, re.MULTILINE))
    assert figures["every_student_got_in"] == "yes" and figures["joined"].startswith("80 of 80"), run.stdout
    assert float(figures["joins_per_second"]) > 0 and int(figures["wrong_codes_sent"].split()[0]) > 0
    assert figures["burst_seats"].startswith("50 ") and figures["burst_removed"].startswith("50 ")
    assert figures["panel_shows"].startswith("this machine: 50 ") and figures["a_student_still_got_in"] == "yes"


def test_the_clock_benchmark_runs_an_english_and_a_dutch_clock_to_their_end() -> None:
    """Twelve students, two clocks: every tick reaches the pages, every press is acknowledged and stored."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "classroom.py"), "--clock", "--students", "12"]
        + ["--tick", "0.3", "--step", "10"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = dict(re.findall(r"^(\w+): (\S+)", run.stdout, re.MULTILINE))
    assert figures["students"] == "12" and int(figures["ticks"]) >= 5, run.stdout
    assert re.search(r"^round \d+: english, ", run.stdout, re.MULTILINE) and "dutch" in run.stdout
    acknowledged = int(re.search(r"^presses: (\d+) acknowledged", run.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert acknowledged >= 12, run.stdout  # English: three of each group of four drop out; Dutch: one stops it
    assert figures["lost"] == "0" and figures["unseen"] == "0", run.stdout
