"""The ``tapete`` command as people use it: what it prints, read from its output."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tapete
from tapete._options import spec
from tapete.cli import main, summarize
from tapete.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors and --version
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def command(*argv: str, **kwargs) -> subprocess.Popen[str]:
    """The installed command in a new process (``python -m tapete.cli``: the same entry point)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        **kwargs,
    )


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.strip() == f"tapete {tapete.__version__} (format version {tapete.FORMAT_VERSION})"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--threads", "-1"], "threads"),
        (["--games", "-5"], "--games"),
        (["--games", "many"], "--games"),
        (["--seed", str(2**64)], "--seed"),
        (["--variant", "nonsense"], "nonsense"),
        (["--players", "9"], "players"),
        (["-o", "no_equals_sign"], "name=value"),
        (["-o", "bogus_option=1"], "bogus_option"),
    ],
)
def test_an_error_prints_the_subcommand_usage_in_two_lines_and_no_bar(capsys, argv, says):
    status, out, err = run(capsys, "simulate", "escoba", "--games", "10", *argv)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("usage: tapete simulate GAME")
    assert lines[1].startswith("tapete simulate: error: ") and says in lines[1]
    assert "simulating" not in err and "━" not in err  # no progress bar before the error


def test_an_unknown_game_names_the_games(capsys):
    status, _, err = run(capsys, "simulate", "chess")
    assert status == 2 and len(err.strip().splitlines()) == 2
    assert all(name in err for name in GAMES)


def test_no_empty_bar_in_a_terminal_either():
    # rich draws its bar only on a terminal: force one, and the error must still come alone
    proc = command("simulate", "escoba", "--threads", "-1", env={**os.environ, "TTY_INTERACTIVE": "1"})
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert len(err.strip().splitlines()) == 2 and "simulating" not in err


def test_escoba_title_says_which_rules_it_plays(capsys):
    status, out, _ = run(capsys, "simulate", "escoba", "--games", "50", "--quiet")
    assert status == 0
    assert "escoba (variant scopa): 50 random games" in out
    assert "escoba defaults to the Scopa rules (variant scopa)" in out
    status, out, _ = run(capsys, "simulate", "escoba", "--variant", "escoba", "--players", "4", "--games", "20")
    assert status == 0
    assert "escoba (variant escoba, players=4): 20 random games" in out
    assert "defaults to" not in out  # the user chose the rules


def test_the_table_explains_mean_return(capsys):
    _, out, _ = run(capsys, "simulate", "escoba", "--games", "50", "--quiet")
    assert "mean return: average of returns() per game (zero-sum: + win, − loss, 0 draw)" in out
    _, out, _ = run(capsys, "simulate", "mosca", "--games", "50", "--quiet")
    assert "mean net chips: average of returns()" in out


def test_musta_maija_reports_losers_beside_not_losing(capsys):
    status, out, _ = run(capsys, "simulate", "musta_maija", "--games", "1000", "--seed", "3", "--quiet")
    assert status == 0
    header = next(line for line in out.splitlines() if "seat" in line)
    assert header.index("not losing") < header.index("loser rate")
    assert "not losing: its 'win rate' (return > 0)" in out
    rows = [line for line in out.splitlines() if re.match(r"^│\s+\d+ │", line)]
    assert len(rows) == 4
    for row in rows:
        cells = [c.strip() for c in row.strip("│").split("│")]
        assert abs(float(cells[3]) + float(cells[5]) - 1) < 1e-9  # no draws: every seat lost or not
    # one loser per game: the loser rates add up to 1
    assert abs(sum(float([c.strip() for c in r.strip("│").split("│")][5]) for r in rows) - 1) < 1e-3


def test_burako_counts_the_games_that_ended_at_the_max_hands_cap(capsys):
    # random play never reaches 3000 points: every match runs to the cap (docs/rules/burako.md §8)
    status, out, _ = run(capsys, "simulate", "burako", "--players", "2", "--games", "6", "--quiet", "-o", "max_hands=3")
    assert status == 0
    assert "ended at the max_hands=3 cap 6" in out
    assert "unfinished (1,000,000-decision cap) 0" in out
    status, out, _ = run(capsys, "simulate", "burako", "--games", "6", "--json", "-o", "match=single_hand")
    summary = json.loads(out)
    assert summary["cap"] == {"option": "max_hands", "value": 50, "games_at_cap": 0}


def test_json_counts_the_cap_for_escoba_max_deals(capsys):
    status, out, _ = run(capsys, "simulate", "escoba", "--games", "300", "--json", "-o", "max_deals=1")
    assert status == 0
    summary = json.loads(out)
    # one deal rarely decides a match to 11: most games end at the cap, drawn
    assert summary["cap"]["option"] == "max_deals" and summary["cap"]["value"] == 1
    assert 0 < summary["cap"]["games_at_cap"] <= 300 and summary["draws"] <= summary["cap"]["games_at_cap"]


def readme_player_counts() -> dict[str, list[int]]:
    """What the README says of each game's player counts: '2 to 6 players', '2 or 4 players'."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    names = {"La Mosca": "mosca", "Musta Maija": "musta_maija", "Burako": "burako"}
    found = {}
    for title, game in names.items():
        m = re.search(r"\*\*" + title + r"\*\*[^\n]*?(\d) (to|or) (\d) players", text)
        assert m, f"the README gives no player count for {title}"
        low, word, high = int(m[1]), m[2], int(m[3])
        found[game] = list(range(low, high + 1)) if word == "to" else [low, high]
    return found


def test_the_readme_and_the_command_agree_on_player_counts(capsys):
    for game, counts in readme_player_counts().items():
        assert sorted(spec(game).players_of(None)) == counts, game
        for players in range(1, 9):
            status, _, err = run(capsys, "simulate", game, "--players", str(players), "--games", "1", "--quiet")
            assert (status == 0) == (players in counts), (game, players, err)


def test_the_summary_does_not_depend_on_the_chunks(capsys):
    # game i is dealt with seed + i: the command's chunks sum to what one batch gives
    game = tapete.Escoba(variant="scopa_15")
    whole = summarize(game, tapete.simulate(game, games=2500, seed=9))
    status, out, _ = run(
        capsys, "simulate", "escoba", "--variant", "scopa_15", "--games", "2500", "--seed", "9", "--json"
    )
    assert status == 0
    summary = json.loads(out)
    summary.pop("throughput")
    assert summary.pop("bots") == ["random", "random"]
    assert summary == whole


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_prints_the_partial_table_and_exits_130():
    from test_interrupt import default_sigint

    proc = command("simulate", "escoba", "--games", str(10**9), "--quiet", preexec_fn=default_sigint)
    time.sleep(3)  # past the start and the first chunks
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "panicked" not in err and "Traceback" not in err
    assert re.search(r"escoba \(variant scopa\): [\d,]+ random games, seed 0 \(partial\)", out)
    assert re.search(r"interrupted: the table counts the [\d,]+ games finished, not all 1,000,000,000", out)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_with_json_says_partial():
    from test_interrupt import default_sigint

    proc = command("simulate", "mosca", "--games", str(10**9), "--json", preexec_fn=default_sigint)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    summary = json.loads(out)
    assert summary["partial"] is True and summary["games_asked"] == 10**9
    assert 0 < summary["games"] < 10**9
