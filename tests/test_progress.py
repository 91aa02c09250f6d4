"""Progress of verbose work: the throttled bar and status line, and a long fit's
iterations and optimality gap as the engine reports them."""

import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest
from conftest import svmx_child_env

from svmx import SVC, SVR, NuSVC, _progress
from svmx._progress import FitStatus, ProgressBar
from svmx._specs import KernelSpec, Problem, SolveSpec
from svmx._training import solve_problem

STATUS = re.compile(r"\[svmx\] (\w+): (?:pair (\d+)/(\d+): )?([\d,]+) iterations, "
                    r"gap (\S+) \(tol (\S+)\)")


def _slow_problem(n=1500, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=n) > 0).astype(int)
    return X, y


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_bar_into_a_file_writes_plain_throttled_lines():
    clock, stream = _Clock(), io.StringIO()
    with ProgressBar(10, "grid", stream=stream, width=4, clock=clock) as bar:
        for step in range(10):
            clock.now = step * 0.9  # one line per two seconds at most
            bar.update()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines == ["grid [#...] 4/10", "grid [##..] 7/10", "grid [####] 10/10"]


def test_status_line_on_a_terminal_redraws_in_place_and_clears():
    clock, stream = _Clock(), io.StringIO()
    status = FitStatus("[svmx] SVC: ", stream, terminal=True, clock=clock)
    status.update("", 1000, 0.5, 1e-3)
    assert stream.getvalue() == ""  # within the first quarter second
    for step in range(1, 5):
        clock.now = step * 0.1
        status.update("", 1000 * step, 0.5 / step, 1e-3)
    drawn = stream.getvalue()
    assert drawn == ("\r[svmx] SVC: 3,000 iterations, gap 1.7e-01 (tol 0.001)\x1b[K")
    status.clear()
    status.clear()  # erased once
    assert stream.getvalue() == drawn + "\r\x1b[K"


def test_status_line_into_a_file_writes_a_line_every_two_seconds():
    clock, stream = _Clock(), io.StringIO()
    status = FitStatus("", stream, terminal=False, clock=clock)
    for step in range(1, 11):
        clock.now = step * 0.5
        status.update("pair 2/3", 1000 * step, 1.0 / step, 1e-3)
    status.clear()  # nothing to erase in a file
    assert stream.getvalue().splitlines() == [
        "pair 2/3: 4,000 iterations, gap 2.5e-01 (tol 0.001)",
        "pair 2/3: 8,000 iterations, gap 1.2e-01 (tol 0.001)",
    ]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_libsvm_markers_wait_for_its_next_line_on_a_shared_terminal():
    clock, screen = _Clock(), _Terminal()
    status = FitStatus("", screen, clock=clock)  # a terminal, as its stream says
    status.write_output(screen, ".")
    clock.now = 1.0
    status.update("", 1000, 0.5, 1e-3)
    status.write_output(screen, "*")
    status.write_output(screen, ".")
    status.write_output(screen, "\noptimization finished, #iter = 2000\n")
    assert screen.getvalue() == ("\r1,000 iterations, gap 5.0e-01 (tol 0.001)\x1b[K"
                                 "\r\x1b[K.*.\noptimization finished, #iter = 2000\n")
    into_file = io.StringIO()  # another stream (a file): written at once
    status.write_output(into_file, ".")
    assert into_file.getvalue() == "."


def _status_lines(err):
    return [STATUS.fullmatch(line) for line in err.splitlines() if "iterations, gap" in line]


@pytest.mark.parametrize("solver", ["smo", "block"])
def test_verbose_fit_reports_iterations_and_gap_down_to_tol(solver, monkeypatch, capfd):
    monkeypatch.setattr(_progress, "FILE_INTERVAL", 0.0)  # every report becomes a line
    X, y = _slow_problem()
    model = SVC(C=50.0, tol=1e-3, verbose=True, solver=solver).fit(X, y)
    out, err = capfd.readouterr()
    lines = _status_lines(err)
    assert len(lines) >= 2 and all(lines)
    iterations = [int(line[4].replace(",", "")) for line in lines]
    assert iterations == sorted(iterations)
    assert float(lines[0][5]) > 1e-3  # far from optimal at the start ...
    assert float(lines[-1][5]) < 1e-3  # ... below tol at the end
    assert iterations[-1] == model.n_iter_[0]
    assert "\r" not in err
    assert "obj = " in out and "iterations, gap" not in out


def test_pairs_on_threads_label_their_progress(monkeypatch, capfd):
    monkeypatch.setattr(_progress, "FILE_INTERVAL", 0.0)
    X, y = _slow_problem(900)
    y = y + 2 * (np.arange(y.size) % 2)  # four classes: six pairs
    NuSVC(nu=0.3, verbose=True, solver="smo", n_jobs=2).fit(X, y)
    lines = _status_lines(capfd.readouterr().err)
    assert {int(line[2]) for line in lines} <= set(range(1, 7))
    assert {line[1] for line in lines} == {"NuSVC"} and {line[3] for line in lines} == {"6"}


def test_quiet_fit_and_the_command_line_show_no_progress(monkeypatch, capfd, tmp_path):
    from svmx.cli import main
    from svmx.datasets import dump_svmlight_file

    monkeypatch.setattr(_progress, "FILE_INTERVAL", 0.0)
    X, y = _slow_problem(600)
    SVR(C=10.0).fit(X, y.astype(float))
    assert capfd.readouterr().err == ""
    dump_svmlight_file(X, y, tmp_path / "train.txt")
    assert main(["train", "-c", "10", str(tmp_path / "train.txt"),
                 str(tmp_path / "model")]) == 0
    out, err = capfd.readouterr()
    assert "optimization finished" in out and "iterations, gap" not in out + err


def test_an_error_in_the_progress_callback_ends_the_fit():
    class Failing:
        def out(self, text):
            pass

        def err(self, text):
            pass

        def progress(self, n_iter, gap, tol):
            raise RuntimeError("progress failed")

    X, y = _slow_problem(1200)
    problem = Problem("c_svc", C=np.full(y.size, 50.0), y=np.where(y == 1, 1, -1).astype(np.int8))
    solve = SolveSpec("smo", 1e-3, 1048576.0, True, -1, 1, log=Failing())
    with pytest.raises(RuntimeError, match="progress failed"):
        solve_problem(X, np.arange(y.size), problem, KernelSpec.named("rbf", gamma=0.1), solve)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_on_a_terminal_the_line_is_redrawn_and_erased_before_libsvm_text():
    script = textwrap.dedent("""
        import numpy as np
        from svmx import SVC, _progress
        _progress.TERMINAL_INTERVAL = 0.0
        rng = np.random.default_rng(0)
        X = rng.normal(size=(1500, 10))
        y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=1500) > 0).astype(int)
        SVC(C=50.0, verbose=True, solver="smo").fit(X, y)
    """)
    parent, child = os.openpty()
    try:
        subprocess.run([sys.executable, "-c", script], stdout=child, stderr=child,
                       cwd=tempfile.gettempdir(), env=svmx_child_env(), timeout=600,
                       check=True)
        os.close(child)
        child = -1
        err = b""
        while True:
            try:
                chunk = os.read(parent, 65536)
            except OSError:  # the terminal closed (Linux: EIO)
                break
            if not chunk:
                break
            err += chunk
    finally:
        if child >= 0:
            os.close(child)
        os.close(parent)
    # Both streams on one terminal: the status line is redrawn in place, LIBSVM's
    # markers wait, and once the line is erased LIBSVM's output comes out intact.
    text = err.decode().replace("\r\n", "\n")  # the terminal's newline translation
    draws = re.findall(r"\r(\[svmx\] SVC: [^\r\x1b]*)\x1b\[K", text)
    assert len(draws) >= 2 and all(STATUS.fullmatch(draw) for draw in draws)
    erased = text.rindex("\r\x1b[K")
    while_solving = re.sub(r"\r\[svmx\] SVC: [^\r\x1b]*\x1b\[K", "", text[:erased])
    assert "." not in while_solving and "*" not in while_solving
    libsvm = text[erased + len("\r\x1b[K"):]
    assert re.match(r"[.*]+\noptimization finished, #iter = \d+\n", libsvm)
