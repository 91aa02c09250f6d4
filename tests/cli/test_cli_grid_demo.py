"""svmx grid (LIBSVM's grid.py) and svmx demo."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svmx._cli.grid import coarse_to_fine, parse_range
from svmx.cli import main
from svmx.datasets import dump_svmlight_file

LINE = re.compile(
    r"\[local\] (?P<c>-?[\d.]+) (?P<g>-?[\d.]+) (?P<rate>[\d.]+) "
    r"\(best c=(?P<bc>[\d.e+-]+), g=(?P<bg>[\d.e+-]+), rate=(?P<br>[\d.]+)\)"
)


@pytest.fixture
def data_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    path = tmp_path / "xor.txt"
    dump_svmlight_file(X, y, path)
    return str(path)


def test_grid_lines_best_and_out_file(data_file, tmp_path, capsys):
    assert main(["grid", "-log2c", "-1,3,2", "-log2g", "-2,0,2", "-v", "3", data_file]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 3 * 2 + 1
    results = [LINE.fullmatch(line) for line in lines[:-1]]
    assert all(results)
    # grid.py's order: the middle C and gamma first, the grid refined a line at a time
    assert [(float(r["c"]), float(r["g"])) for r in results] == [
        (1, 0), (-1, 0), (1, -2), (-1, -2), (3, 0), (3, -2)]
    rates = [float(r["rate"]) for r in results]
    best = 0  # grid.py's rule: the first best, or a smaller C with the same gamma
    for i in range(1, 6):
        if rates[i] > rates[best] or (rates[i] == rates[best] and results[i]["g"] ==
                                      results[best]["g"] and float(results[i]["c"]) <
                                      float(results[best]["c"])):
            best = i
    c, g, rate = lines[-1].split()
    assert float(c) == 2.0 ** float(results[best]["c"]) and float(rate) == rates[best]
    assert float(g) == 2.0 ** float(results[best]["g"])
    assert results[-1]["br"] == rate
    out_lines = (tmp_path / "xor.txt.out").read_text().splitlines()
    # exponents of a given range print as floats, as grid.py prints them
    assert out_lines[0] == f"log2c=1.0 log2g=0.0 rate={results[0]['rate']}"
    assert "grid [" in captured.err  # the progress bar


def test_grid_parallel_equals_serial_and_null_gamma(data_file, capsys):
    args = ["grid", "-log2c", "0,2,1", "-log2g", "null", "-v", "3", "-out", "null", "-q"]
    assert main([*args, "-j", "1", data_file]) == 0
    serial = capsys.readouterr().out
    assert main([*args, "-j", "2", data_file]) == 0
    assert capsys.readouterr().out == serial
    first = serial.splitlines()[0]
    assert re.fullmatch(r"\[local\] 1\.0 [\d.]+ \(best c=2.0, rate=[\d.]+\)", first)
    assert len(serial.splitlines()[-1].split()) == 2  # "C rate"


def test_grid_helpers():
    assert parse_range("-5,15,2").tolist()[-1] == 15.0
    assert parse_range("null") is None
    assert coarse_to_fine(np.arange(4.0)) == [2.0, 1.0, 3.0, 0.0]
    with pytest.raises(Exception, match="does not lead"):
        parse_range("1,5,-1")


def test_grid_bad_range(data_file, capsys):
    assert main(["grid", "-log2c", "1,2", data_file]) == 2
    err = capsys.readouterr().err
    assert err.startswith("svmx grid: error: argument -log2c: expected begin,end,step or null")
    assert err.count("\n") == 1


def test_demo_without_matplotlib(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes the import fail
    assert main(["demo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("checkerboard: 1000 points, 4x4 squares, seed 0; 750 for training, "
                      "250 held out")
    accuracy = float(re.fullmatch(r"held-out accuracy: ([\d.]+)% with \d+ support vectors",
                                  out[3]).group(1))
    assert accuracy > 90.0
    assert out[-1] == "matplotlib is not installed: skipped the plot"
    assert not (tmp_path / "svmx-demo.png").exists()


def test_demo_writes_the_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "plot.png"
    assert main(["demo", "--output", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"plot written to {path}"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_grid_accepts_grid_py_options_it_ignores(data_file, tmp_path, capsys):
    # "-gnuplot null" once failed as "-g nuplot"; grid.py's -resume takes an optional path.
    args = ["grid", "-log2c", "0,1,1", "-log2g", "-1,-1,1", "-v", "3", "-q",
            "-gnuplot", "null", "-png", "plot.png", "-svmtrain", "/usr/bin/svm-train",
            "-out", str(tmp_path / "results.txt"), "-resume", data_file]
    assert main(args) == 0
    captured = capsys.readouterr()
    for option in ("-gnuplot", "-png", "-svmtrain", "-resume"):
        assert f"svmx grid: note: {option} is ignored" in captured.err
    assert len(captured.out.splitlines()) == 3
    assert (tmp_path / "results.txt").read_text().count("rate=") == 2
    assert main(["grid", "-log2c", "0,0,1", "-log2g", "null", "-v", "3", "-q",
                 "-resume", "previous.out", data_file]) == 0
    assert "-resume is ignored" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("svm-grid") is None or shutil.which("svm-train") is None,
                    reason="LIBSVM's svm-grid and svm-train are not installed "
                           "(apt-get install libsvm-tools)")
@pytest.mark.parametrize("options", [(), ("-log2c", "-3,7,2", "-log2g", "1,-11,-3", "-v", "4"),
                                     ("-t", "0", "-log2c", "-5,5,1", "-log2g", "null"),
                                     # nu-SVC and one-class SVM take no C: svm-train ignores
                                     # the -c that grid.py passes
                                     ("-s", "1", "-log2c", "1,3,2", "-log2g", "-3,-1,2"),
                                     ("-s", "2", "-log2c", "1,3,2", "-log2g", "-3,-1,2")])
def test_out_file_and_best_line_are_grid_py_s(options, tmp_path, monkeypatch, capsys):
    """svmx grid prints grid.py's standard output and writes its out file line for line:
    the same candidates in the same order, the same rates and best (heart_scale, one
    worker, as grid.py ships)."""
    from conftest import SHARED_DATA_DIR

    data = SHARED_DATA_DIR / "heart_scale"
    if not data.is_file():
        pytest.skip("../shared/data/heart_scale not found: the data is only on the team's "
                    "machines")
    monkeypatch.chdir(tmp_path)
    theirs = subprocess.run(
        [shutil.which("svm-grid"), "-svmtrain", shutil.which("svm-train"), "-gnuplot", "null",
         "-out", "theirs.out", *options, str(data)], capture_output=True, text=True, check=True)
    assert main(["grid", "-q", "-out", "ours.out", *options, str(data)]) == 0
    ours = capsys.readouterr().out

    assert Path("ours.out").read_text() == Path("theirs.out").read_text()
    assert ours == theirs.stdout  # every progress line, then the best "C gamma rate"
