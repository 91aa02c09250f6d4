"""The svmx command line: help texts, and one clear error line instead of a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import svmx
from svmx.cli import main

COMMANDS = ["train", "predict", "scale", "grid", "demo"]


def test_top_level_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert f"\n  {command} " in out
    assert main([]) == 2
    assert "usage: svmx <command>" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("train", ["-s svm_type", "-t kernel_type", "-d degree", "-g gamma", "-r coef0",
                   "-c cost", "-n nu", "-p epsilon", "-m cachesize", "-e epsilon",
                   "-h shrinking", "-b probability_estimates", "-wi weight", "-v n", "-q"]),
        ("predict", ["-b probability_estimates", "-q", "test_file", "model_file",
                     "output_file"]),
        ("scale", ["-l lower", "-u upper", "-y y_lower y_upper", "-s save_filename",
                   "-r restore_filename"]),
        ("grid", ["-log2c {begin,end,step | null}", "-log2g {begin,end,step | null}",
                  "-v fold", "-j n_jobs", "-out", "-c cost"]),
        ("demo", ["--output PATH"]),
    ],
)
def test_command_help_is_complete(capsys, command, options):
    assert main([command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith(f"usage: svmx {command}")
    for option in options:
        assert option in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fit"], "svmx: error: unknown command 'fit' (choose from train, predict, scale, "
                  "grid, demo)"),
        (["train", "-s", "7", "x"], "svmx train: error: argument -s: expected one of "
                                    "[0, 1, 2, 3, 4], got 7 (see 'svmx train --help')"),
        (["train", "-c"], "svmx train: error: option -c needs a value (see 'svmx train --help')"),
        (["train", "-z", "1", "x"], "svmx train: error: unrecognized arguments: -z (see "
                                    "'svmx train --help')"),
        (["train", "-g", "inf", "x"], "svmx train: error: argument -g: expected a finite "
                                      "number, got inf (see 'svmx train --help')"),
        (["train", "-r", "inf", "x"], "svmx train: error: argument -r: expected a finite "
                                      "number, got inf (see 'svmx train --help')"),
        (["train", "-p", "nan", "x"], "svmx train: error: argument -p: expected a finite "
                                      "number, got nan (see 'svmx train --help')"),
        (["predict", "a"], "svmx predict: error: the following arguments are required: "
                           "model_file, output_file (see 'svmx predict --help')"),
    ],
)
def test_usage_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == message + "\n" and captured.out == ""


def test_runtime_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.txt").write_text("1 1:1\n1 3:1 2:1\n")
    (tmp_path / "good.txt").write_text("1 1:1\n-1 1:-1\n")
    (tmp_path / "strings.model").write_text("not a model\n")
    cases = [
        (["train", "missing.txt"], "svmx train: error: cannot open missing.txt: No such file or "
                                   "directory"),
        (["train", "bad.txt"], "svmx train: error: bad.txt, line 2: feature indices must be "
                               "ascending (got 2 after 3)"),
        (["train", "-v", "1", "good.txt"], "svmx train: error: n-fold cross validation: n "
         "must be >= 2"),
        (["predict", "good.txt", "strings.model", "out"], "svmx predict: error: strings.model, "
         "line 1: unknown text in the model header: 'not a model'"),
        # svm_check_parameter's checks, each where LIBSVM makes it
        (["train", "-t", "1", "-d", "-2", "good.txt"], "svmx train: error: argument -d: the "
         "degree of the polynomial kernel must be >= 0, got -2"),
        (["train", "-s", "4", "-n", "2", "good.txt"], "svmx train: error: argument -n: nu must "
         "be in (0, 1], got 2"),
        (["train", "-s", "3", "-p", "-1", "good.txt"], "svmx train: error: argument -p: "
         "epsilon must be >= 0, got -1"),
        # the file asked for, not the temporary file written beside it
        (["train", "-q", "good.txt", "no/such/dir/m"], "svmx train: error: cannot open "
         "no/such/dir/m: No such file or directory"),
    ]
    for argv, message in cases:
        assert main(argv) == 1
        assert capsys.readouterr().err == message + "\n"
    assert main(["train", "-q", "good.txt"]) == 0
    # as svm-train: a kernel without a degree ignores -d, and -p means nothing to C-SVC
    assert main(["train", "-q", "-d", "-2", "-p", "-1", "good.txt", "rbf.model"]) == 0
    assert "degree" not in (tmp_path / "rbf.model").read_text()
    assert main(["predict", "-b", "1", "good.txt", "good.txt.model", "out"]) == 1
    assert capsys.readouterr().err == (
        "svmx predict: error: the model does not support probability estimates (train with -b 1)\n"
    )


def test_python_dash_m_svmx(tmp_path):
    (tmp_path / "d.txt").write_text("1 1:1 2:0.5\n-1 1:-1\n1 1:0.8\n-1 2:-1\n")
    # the svmx under test, also when it is an in-place build rather than installed
    root = str(Path(svmx.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    run = subprocess.run(
        [sys.executable, "-m", "svmx", "train", "-v", "2", "-q", "d.txt"],
        cwd=tmp_path, capture_output=True, text=True, check=False, env=env,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Cross Validation Accuracy = ")
    failed = subprocess.run(
        [sys.executable, "-m", "svmx", "predict", "d.txt", "nothing.model", "out"],
        cwd=tmp_path, capture_output=True, text=True, check=False, env=env,
    )
    assert failed.returncode == 1
    assert failed.stderr == "svmx predict: error: cannot open nothing.model: No such file or " \
                            "directory\n"


@pytest.mark.parametrize("line, token", [("1 1:inf 2:0.5", "1:inf"), ("nan 1:1", "nan"),
                                         ("1 2:1e400", "2:1e400"), ("-1 1:-inf", "1:-inf")])
@pytest.mark.parametrize("command", ["train", "predict", "scale"])
def test_a_non_finite_number_names_its_line(command, line, token, tmp_path, capsys):
    data = tmp_path / "data"
    data.write_text(f"1 1:0.5 2:1\n# a comment\n-1 1:-0.5\n{line}\n")
    model = tmp_path / "model"
    model.write_text("svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\n"
                     "label 1 -1\nnr_sv 1 1\nSV\n1 1:1\n-1 1:-1\n")
    argv = {"train": ["train", "-q", str(data), str(tmp_path / "out.model")],
            "predict": ["predict", str(data), str(model), str(tmp_path / "out")],
            "scale": ["scale", str(data)]}[command]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"data, line 4: '{token}' is not a finite number" in err


def test_weights_are_read_for_the_classifiers_only(tmp_path, capsys):
    # svm-train ignores -wi for one-class SVM and the regressions, silently.
    data = tmp_path / "data"
    data.write_text("1 1:0.5\n-1 1:-0.5\n1 1:0.7\n-1 1:-0.2\n")
    for svm_type in ("2", "3", "4"):
        assert main(["train", "-q", "-s", svm_type, "-w1", "2", "-w7", "3", str(data),
                     str(tmp_path / "m")]) == 0
        assert "WARNING" not in capsys.readouterr().err
    assert main(["train", "-q", "-w7", "3", str(data), str(tmp_path / "m")]) == 0
    assert "class label 7 specified in weight is not found" in capsys.readouterr().err
