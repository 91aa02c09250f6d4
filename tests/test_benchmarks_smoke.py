"""Smoke tests of the benchmark suite ``benchmarks/run.py`` and of ``benchmarks/bench_cli.py``.

The end-to-end tests run the scripts as a user would (``python benchmarks/run.py`` from the
project root) on the smallest shared data set, or for ``bench_cli.py`` on its tiny generated
set, and check the report's shape, not its timings.
The helper test checks the one piece of arithmetic the report relies on: reading per-pair dual
coefficients out of LIBSVM's multiclass ``dual_coef_`` layout.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS_DIR = PROJECT_ROOT / "benchmarks"
SHARED_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
EXPECTED_COLUMNS = [
    "dataset",
    "n_train x n_features",
    "library",
    "fit s",
    "fit svmx/peer",
    "predict s",
    "predict svmx/peer",
    "accuracy / MSE",
    "n_SV",
    "dual objective",
    "objective rel. diff",
    "fit peak MB",
]


def _cells(line):
    """The stripped cells of one Markdown table line."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_quick_run_on_heart_scale_prints_the_table(tmp_path):
    if not (SHARED_DATA_DIR / "heart_scale").is_file():
        pytest.skip(
            "../shared/data/heart_scale not found: benchmark data is on the team's machines"
        )
    output = tmp_path / "run.md"
    command = [sys.executable, "benchmarks/run.py", "--quick", "--datasets", "heart_scale"]
    result = subprocess.run(
        [*command, "--output", str(output)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert any("<= 1.00 means svmx is faster" in line for line in lines)
    header = next(line for line in lines if line.startswith("| dataset | n_train"))
    assert _cells(header) == EXPECTED_COLUMNS
    rows = [_cells(line) for line in lines if line.startswith("| heart_scale |")]
    svmx_row = next(row for row in rows if row[2] == "svmx")
    assert len(svmx_row) == len(EXPECTED_COLUMNS)
    assert svmx_row[1] == "270 x 13 (sparse)"
    assert svmx_row[7].endswith("%")
    assert output.read_text() == result.stdout.rstrip("\n") + "\n"


def test_pair_coefficients_sum_the_one_vs_one_objectives(monkeypatch):
    """The multiclass objective equals the sum of the three binary problems' objectives."""
    from sklearn.svm import SVC

    monkeypatch.syspath_prepend(str(BENCHMARKS_DIR))
    from _peers import dual_objective, pair_coefficients

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2)) + np.repeat([[0, 0], [2, 0], [0, 2]], 20, axis=0)
    y = np.repeat([0.0, 1.0, 2.0], 20)

    def objective(model):
        coefficients = pair_coefficients(model.dual_coef_, model.n_support_)
        return dual_objective((model.support_vectors_, coefficients, None), gamma=0.5)

    multiclass = objective(SVC(gamma=0.5, tol=1e-8).fit(X, y))
    pairs = [(0, 1), (0, 2), (1, 2)]
    binary = sum(
        objective(SVC(gamma=0.5, tol=1e-8).fit(X[np.isin(y, pair)], y[np.isin(y, pair)]))
        for pair in pairs
    )
    assert multiclass == pytest.approx(binary, rel=1e-9)


CLI_COLUMNS = [
    "dataset", "flags", "step", "LIBSVM s", "svmx s", "time ratio", "ratio less import",
    "time <= 1.5x", "CPU s LIBSVM / svmx", "LIBSVM MB", "svmx MB", "LIBSVM + baseline MB",
    "RSS ratio", "RSS <= 1.5x",
    "LIBSVM result", "svmx result", "svm-predict on svmx model", "same predictions",
]


def test_bench_cli_quick_on_the_generated_wide_set_prints_the_table(tmp_path):
    if shutil.which("svm-train") is None or shutil.which("svm-predict") is None:
        pytest.skip("svm-train / svm-predict (LIBSVM's tools) are not on PATH")
    output = tmp_path / "cli.md"
    command = [sys.executable, "benchmarks/bench_cli.py", "--quick", "--datasets", "wide"]
    result = subprocess.run(
        [*command, "--output", str(output), "--work-dir", str(tmp_path / "work")],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert any(line.startswith("Machine: ") and "logical CPUs" in line for line in lines)
    assert any(line.startswith('| `python -c "import svmx"` |') for line in lines)
    header = next(line for line in lines if line.startswith("| dataset | flags |"))
    assert _cells(header) == CLI_COLUMNS
    rows = {_cells(line)[2]: _cells(line) for line in lines if line.startswith("| wide |")}
    assert sorted(rows) == ["predict", "train"]
    for row in rows.values():
        assert len(row) == len(CLI_COLUMNS)
        assert row[1] == "linear"
        assert row[7] in ("yes", "NO") and row[13] in ("yes", "NO")
        assert float(row[3]) > 0 and float(row[4]) > 0 and float(row[10]) > 0
    # Results are checked for their form only (parity is other tests' business).
    train, predict = rows["train"], rows["predict"]
    assert all(cell.endswith(" SV") for cell in train[14:16])
    assert all(cell.endswith("/100)") for cell in predict[14:17])
    assert predict[17].endswith("/100")
    assert output.read_text() == result.stdout.rstrip("\n") + "\n"


def _run_script(arguments, tmp_path, timeout=300):
    """Run a benchmark script from the project root as a user would; its CompletedProcess."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_run_capped_at_sse2_says_so_in_its_header(tmp_path):
    if not (SHARED_DATA_DIR / "heart_scale").is_file():
        pytest.skip(
            "../shared/data/heart_scale not found: benchmark data is on the team's machines"
        )
    import svmx._config

    info = svmx._config.isa_info()
    result = _run_script(
        ["benchmarks/run.py", "--isa", "sse2", "--datasets", "heart_scale", "--peers", "svmx",
         "--output", str(tmp_path / "run.md")],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    machine = next(line for line in result.stdout.splitlines() if line.startswith("**Machine:**"))
    assert "logical CPUs, caches" in machine
    expected = "sse2" if info["multi_isa"] else info["machine"]
    assert f"svmx's loops ran at **{expected}**" in machine
    assert "capped by SVMX_ISA=sse2" in machine
    assert "OPENBLAS_CORETYPE=Prescott" in machine


def test_run_on_a_synthetic_set_checks_issue_15_targets(tmp_path):
    result = _run_script(
        ["benchmarks/run.py", "--datasets", "dense_54", "--peers", "svmx",
         "--data-dir", str(tmp_path / "absent"), "--output", str(tmp_path / "run.md")],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    row = next(_cells(line) for line in lines if line.startswith("| dense_54 |"))
    assert row[1] == "5000 x 54 (dense)" and row[2] == "svmx"
    assert "## Performance targets (default svmx; issue 15)" in lines


def test_bench_scale_reports_time_memory_and_growth(tmp_path):
    result = _run_script(
        ["benchmarks/bench_scale.py", "--peers", "svmx", "--ijcnn1-sizes", "",
         "--synthetic-sizes", "1000,2000", "--output", str(tmp_path / "scale.md")],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    rows = [_cells(line) for line in lines if line.startswith("| synthetic ")]
    assert [row[1] for row in rows] == ["1,000", "2,000"]
    assert all(row[2] == "svmx" and float(row[3]) > 0 and row[5] != "" for row in rows)
    assert any(line.startswith("- synthetic, svmx: n^") for line in lines)


def test_bench_probability_reports_cost_and_gap(tmp_path):
    result = _run_script(
        ["benchmarks/bench_probability.py", "--datasets", "six_classes_36", "--repeats", "1"],
        tmp_path,
    )
    # Exit status 1 says a target was missed; anything else is a failure of the script.
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert result.stdout.startswith("machine: ")
    row = next(_cells(line) for line in result.stdout.splitlines()
               if line.startswith("| six_classes_36 |"))
    assert row[1] == "4000 x 36 (dense)" and row[2] == "6"
    ratio, libsvm_ratio, gap, shuffle_gap, error, libsvm_error = map(float, row[5:11])
    assert ratio > 1 and libsvm_ratio > 1
    assert 0 <= gap < shuffle_gap
    # Both procedures approximate the tol=1e-5 probabilities; svmx and LIBSVM's
    # procedure are at most the two distances apart.
    assert 0 <= error and 0 <= libsvm_error and gap <= (error + libsvm_error) * (1 + 1e-9)
    if result.returncode == 0:
        assert row[11] == "met"
    else:  # which criterion failed: the time ratio, the accuracy or both
        assert row[11] in ("NOT met (time)", "NOT met (accuracy)", "NOT met (time, accuracy)")
        if abs(ratio - 2) > 0.005:  # the printed ratio is rounded to two decimals
            assert ("time" in row[11]) == (ratio > 2)


def test_bench_grid_cli_compares_with_grid_py(tmp_path):
    if not (SHARED_DATA_DIR / "heart_scale").is_file():
        pytest.skip("../shared/data/heart_scale not found: the data is only on the team's "
                    "machines")
    result = _run_script(["benchmarks/bench_grid_cli.py", "--quick"], tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("machine: ")
    rows = {row[1]: row for row in map(_cells, result.stdout.splitlines())
            if row and row[0] == "heart_scale"}
    searches = ["svmx grid -j 1", "svmx grid -j 1 --share-kernels",
                "svmx grid -j 2 --share-kernels"]
    assert set(searches) <= set(rows)
    assert all(float(rows[name][2]) > 0 for name in searches)
    if shutil.which("svm-grid") and shutil.which("svm-train"):
        # Without --share-kernels svmx grid reproduces grid.py's rates.
        assert rows["svmx grid -j 1"][4] == "yes" and float(rows["svmx grid -j 1"][5]) == 0
        # A row of 270 on the margin (printed to 4 digits).
        assert all(float(rows[name][5]) <= 100.0 / 270 + 1e-3 for name in searches)


def test_bench_grid_reports_ratios_best_parameters_and_score_gaps(tmp_path):
    if not (SHARED_DATA_DIR / "svmguide1").is_file():
        pytest.skip("../shared/data/svmguide1 not found: the data is only on the team's "
                    "machines")
    result = _run_script(["benchmarks/bench_grid.py", "--quick", "--datasets", "svmguide1",
                          "--jobs", "1", "--repeats", "2"], tmp_path)
    # Exit status 1 says a target was missed; anything else is a failure of the script.
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert result.stdout.startswith("machine: ")
    assert "fastest of 2 runs" in result.stdout
    row = next(_cells(line) for line in result.stdout.splitlines()
               if line.startswith("| svmguide1 |"))
    assert row[1] == "300 x 4"
    sklearn_seconds, cold_seconds, seconds, peer_ratio, cold_ratio = map(float, row[2:7])
    assert min(sklearn_seconds, cold_seconds, seconds) > 0
    # The times are printed to the millisecond, the ratios to one decimal.
    assert peer_ratio == pytest.approx(sklearn_seconds / seconds, rel=0.1, abs=0.06)
    assert cold_ratio == pytest.approx(cold_seconds / seconds, rel=0.1, abs=0.06)
    assert row[7].startswith("yes") and float(row[8]) <= 0.01
    assert row[9] == ("met" if result.returncode == 0 else "NOT met")


@pytest.mark.parametrize("rows", [300, 1000, 2000, 10_000])
def test_bench_grid_rows_are_spread_over_the_file(rows):
    # svmguide1's file is sorted by class: a prefix of 2,000 of its 3,089 rows holds one
    # class, and the search then refused to run (`--rows 2000`).
    if not (SHARED_DATA_DIR / "svmguide1").is_file():
        pytest.skip("../shared/data/svmguide1 not found: the data is only on the team's "
                    "machines")
    sys.path.insert(0, str(BENCHMARKS_DIR))
    try:
        from bench_grid import load
    finally:
        sys.path.remove(str(BENCHMARKS_DIR))
    X, y = load("svmguide1", rows)
    assert X.shape == (min(rows, 3089), 4) and y.shape == (X.shape[0],)
    counts = np.unique(y, return_counts=True)[1]
    assert counts.size == 2 and counts.min() >= 0.3 * X.shape[0]
