"""The practical guide's recipe as docs/guide/workflow.md shows it on svmguide1.

The page's command lines and Python lines print the guide's accuracies: 66.925% unscaled,
96.15% scaled, 96.875% with the grid's C = 2, gamma = 2, and 0.96675 for the Python
search's choice (C = 128, gamma = 0.5). Each is run here as the page runs it (the grid
searches themselves, 550 fits each, are left to the benchmarks).
"""

import pytest

from svmx import SVC
from svmx.cli import main
from svmx.datasets import load_svmlight_file
from svmx.preprocessing import SvmScaler


@pytest.fixture
def guide_files(tmp_path, monkeypatch, shared_data_dir):
    paths = [shared_data_dir / name for name in ("svmguide1", "svmguide1.t")]
    for path in paths:
        if not path.is_file():
            pytest.skip(f"../shared/data/{path.name} not found")
    monkeypatch.chdir(tmp_path)
    return [str(path) for path in paths]


def _accuracy_line(capsys, *arguments):
    capsys.readouterr()
    assert main(list(arguments)) == 0
    return capsys.readouterr().out.strip()


def test_command_line_steps_print_the_guides_accuracies(guide_files, capsys, tmp_path):
    train, test = guide_files
    assert main(["train", "-q", train, "svmguide1.model"]) == 0
    assert _accuracy_line(capsys, "predict", test, "svmguide1.model", "out") == (
        "Accuracy = 66.925% (2677/4000) (classification)")
    for arguments, target in ((["-l", "-1", "-u", "1", "-s", "range1", train], "train.scale"),
                              (["-r", "range1", test], "test.scale")):
        capsys.readouterr()
        assert main(["scale", *arguments]) == 0
        (tmp_path / target).write_text(capsys.readouterr().out)
    assert main(["train", "-q", "train.scale", "default.model"]) == 0
    assert _accuracy_line(capsys, "predict", "test.scale", "default.model", "out") == (
        "Accuracy = 96.15% (3846/4000) (classification)")
    assert main(["train", "-q", "-c", "2", "-g", "2", "train.scale", "best.model"]) == 0
    assert _accuracy_line(capsys, "predict", "test.scale", "best.model", "out") == (
        "Accuracy = 96.875% (3875/4000) (classification)")


def test_python_steps_score_as_the_page_shows(guide_files):
    train, test = guide_files
    X_train, y_train = load_svmlight_file(train)
    X_test, y_test = load_svmlight_file(test, n_features=X_train.shape[1])
    assert SVC(gamma="auto").fit(X_train, y_train).score(X_test, y_test) == 0.66925
    scaler = SvmScaler(lower=-1, upper=1).fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    assert SVC(gamma="auto").fit(X_train, y_train).score(X_test, y_test) == 0.9615
    best = SVC(C=128.0, gamma=0.5).fit(X_train, y_train)
    assert best.score(X_test, y_test) == pytest.approx(0.96675, abs=1e-12)
