"""svmx scale: svm-scale's arithmetic, output spelling and range file format."""

import shutil
import subprocess

import numpy as np
import pytest

from svmx.cli import main
from svmx.datasets import load_svmlight_file
from svmx.preprocessing._svm_scale import read_range_file

DATA = "1 1:2 3:10\n-1 1:4 2:-2\n+1 1:3 2:2 3:5\n"


@pytest.fixture
def data_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data.txt"
    path.write_text(DATA)
    return str(path)


def test_default_scaling_exact_output(data_file, capsys):
    assert main(["scale", data_file]) == 0
    # feature 1 in [2, 4]; feature 2 in [-2, 2]; feature 3 in [0, 10] (implicit zero counted)
    assert capsys.readouterr().out == (
        "1 1:-1 3:1 \n"
        "-1 1:1 2:-1 3:-1 \n"
        "1 2:1 \n"
    )


def test_lower_upper_and_y_scaling(data_file, capsys):
    assert main(["scale", "-l", "0", "-u", "2", "-y", "0", "1", data_file]) == 0
    assert capsys.readouterr().out == (
        "1 2:1 3:2 \n"
        "0 1:2 \n"
        "1 1:1 2:2 3:1 \n"
    )


def test_save_and_restore_range_file(data_file, tmp_path, capsys):
    assert main(["scale", "-s", "range.txt", data_file]) == 0
    scaled = capsys.readouterr().out
    assert (tmp_path / "range.txt").read_text() == "x\n-1 1\n1 2 4\n2 -2 2\n3 0 10\n"
    assert main(["scale", "-r", "range.txt", data_file]) == 0
    assert capsys.readouterr().out == scaled
    other = tmp_path / "other.txt"
    other.write_text("1 1:5 2:0.5 4:7\n")
    assert main(["scale", "-r", "range.txt", str(other)]) == 0
    captured = capsys.readouterr()
    # values outside the training range go beyond [-1, 1]; feature 4 is unknown: dropped,
    # silently, as svm-scale does, since it is constant in this one-row file
    assert captured.out == "1 1:2 2:0.25 3:-1 \n" and captured.err == ""
    other.write_text("1 1:5 2:0.5 4:7\n1 1:5 2:0.5\n")
    assert main(["scale", "-r", "range.txt", str(other)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "1 1:2 2:0.25 3:-1 \n" * 2
    assert "WARNING: feature index 4 appeared in file" in captured.err


def test_reads_an_svm_scale_range_file_with_y(tmp_path, capsys, data_file):
    # As svm-scale -y 0 1 -s writes it: y section first, then x.
    (tmp_path / "r").write_text("y\n0 1\n-1 1\nx\n0 1\n1 2 4\n3 0 10\n")
    assert main(["scale", "-r", "r", data_file]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["1 3:1 ", "0 1:1 ", "1 1:0.5 3:0.5 "]
    ranges = read_range_file(tmp_path / "r")
    assert (ranges.y_range, ranges.y_min, ranges.y_max) == ((0, 1), -1, 1)
    assert sorted(ranges.features) == [1, 3]


def test_scaled_real_data_round_trips_through_the_loader(shared_data_dir, tmp_path, capsys):
    path = shared_data_dir / "svmguide1"
    if not path.is_file():
        pytest.skip("../shared/data/svmguide1 not found")
    assert main(["scale", str(path)]) == 0
    output = tmp_path / "scaled"
    output.write_text(capsys.readouterr().out)
    X, y = load_svmlight_file(output)
    X_raw, y_raw = load_svmlight_file(path)
    np.testing.assert_array_equal(y, y_raw)
    dense = X.toarray()
    assert dense.min() == -1.0 and dense.max() == 1.0
    raw = X_raw.toarray()
    expected = -1 + 2 * (raw - raw.min(axis=0)) / (raw.max(axis=0) - raw.min(axis=0))
    np.testing.assert_allclose(dense, expected, atol=5e-6)  # %g keeps 6 digits, as svm-scale


def test_constant_labels_scale_to_y_lower(tmp_path, capsys):
    # svm-scale tests value == y_min first: all-equal labels become y_lower (not y_upper).
    (tmp_path / "same").write_text("3 1:2 2:5\n3 1:4 2:5\n")
    assert main(["scale", "-y", "0", "1", str(tmp_path / "same")]) == 0
    assert capsys.readouterr().out == "0 1:-1 \n0 1:1 \n"


def test_restore_warns_only_about_features_that_vary(tmp_path, capsys):
    # As svm-scale: a feature missing from the range file is reported only when it is not
    # constant in the data (feature 2 is 5 in every row of "same", 0 or 5 in "varies").
    (tmp_path / "r").write_text("x\n-1 1\n1 2 4\n")
    (tmp_path / "same").write_text("3 1:2 2:5\n3 1:4 2:5\n")
    (tmp_path / "varies").write_text("3 1:2\n3 1:4 2:5\n")
    assert main(["scale", "-r", str(tmp_path / "r"), str(tmp_path / "same")]) == 0
    captured = capsys.readouterr()
    assert captured.out == "3 1:-1 \n3 1:1 \n" and captured.err == ""
    assert main(["scale", "-r", str(tmp_path / "r"), str(tmp_path / "varies")]) == 0
    captured = capsys.readouterr()
    assert captured.out == "3 1:-1 \n3 1:1 \n"
    assert captured.err.startswith("WARNING: feature index 2 appeared in file")


def test_empty_and_featureless_files(tmp_path, capsys):
    (tmp_path / "empty").write_text("")
    (tmp_path / "labels").write_text("1\n2\n")
    assert main(["scale", "-s", str(tmp_path / "r1"), str(tmp_path / "empty")]) == 0
    assert capsys.readouterr().out == ""
    assert main(["scale", "-s", str(tmp_path / "r2"), str(tmp_path / "labels")]) == 0
    assert capsys.readouterr().out == "1 \n2 \n"
    assert (tmp_path / "r1").read_text() == (tmp_path / "r2").read_text() == "x\n-1 1\n"


@pytest.mark.skipif(shutil.which("svm-scale") is None, reason="svm-scale is not on PATH")
@pytest.mark.parametrize("options", [[], ["-l", "0", "-u", "1"], ["-y", "0", "1"]])
@pytest.mark.parametrize("name", ["heart_scale", "mushrooms", "housing_scale"])
def test_byte_identical_to_svm_scale(shared_data_dir, tmp_path, capsys, options, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found")
    expected = subprocess.run(["svm-scale", *options, "-s", str(tmp_path / "theirs"),
                               str(path)], capture_output=True, text=True, check=True)
    assert main(["scale", *options, "-s", str(tmp_path / "ours"), str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == expected.stdout and captured.err == expected.stderr
    assert (tmp_path / "ours").read_text() == (tmp_path / "theirs").read_text()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-s", "a", "-r", "b"], "cannot use -r and -s simultaneously"),
        (["-l", "1", "-u", "0"], "inconsistent lower/upper specification"),
    ],
)
def test_bad_options(data_file, capsys, arguments, message):
    assert main(["scale", *arguments, data_file]) == 1
    assert capsys.readouterr().err == f"svmx scale: error: {message}\n"


def test_malformed_range_file(data_file, tmp_path, capsys):
    (tmp_path / "bad").write_text("x\n-1 1\n1 2\n")
    assert main(["scale", "-r", "bad", data_file]) == 1
    assert capsys.readouterr().err == "svmx scale: error: bad, line 3: expected 3 numbers\n"
