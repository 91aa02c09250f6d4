"""The package's shape, as docs/architecture.md states it: checked on the source tree.

- Python modules reach the engine only through the binding (`svmx._libsvm`);
  the public `svmx.engine` package only names the engine's `.pxd` files.
- No module over 600 lines (the SMO solver may stay whole, as LIBSVM's Solver
  is) and no Python function over 80 lines.
- The training drivers take resolved specs, never an estimator.
"""

import ast
import inspect
from pathlib import Path

import pytest

import svmx._platt_folds
import svmx._probability
import svmx._shared_gram
import svmx._training

SOURCE = Path(__file__).resolve().parent.parent / "svmx"
if not (SOURCE / "_libsvm.pyx").exists():
    pytest.skip("the svmx source tree is not next to the tests", allow_module_level=True)

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# LIBSVM's Solver is one class, and so is ours (with Solver_NU beside it).
WHOLE_MODULES = {"_engine/solver.pyx"}


def _python_modules():
    return sorted(SOURCE.rglob("*.py"))


def test_only_the_binding_reaches_the_engine():
    mentions = []
    for path in _python_modules():
        relative = path.relative_to(SOURCE).as_posix()
        if relative.startswith(("engine/", "_engine/")):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if "_engine" in line:
                mentions.append(f"svmx/{relative}:{number}: {line.strip()}")
    assert not mentions, "Python modules that name svmx._engine:\n" + "\n".join(mentions)
    binding = (SOURCE / "_libsvm.pyx").read_text()
    assert "svmx._engine" in binding


def test_no_module_is_too_long():
    too_long = {}
    for path in sorted(SOURCE.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        relative = path.relative_to(SOURCE).as_posix()
        lines = path.read_text().count("\n")
        if lines > MAX_MODULE_LINES and relative not in WHOLE_MODULES:
            too_long[relative] = lines
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines: {too_long}"


def test_no_python_function_is_too_long():
    too_long = []
    for path in _python_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.relative_to(SOURCE)}:{node.lineno} "
                                    f"{node.name} ({length} lines)")
    assert not too_long, f"functions over {MAX_FUNCTION_LINES} lines: {too_long}"


@pytest.mark.parametrize("function", [
    svmx._training.fit_one_vs_one,
    svmx._training.solve_problem,
    svmx._probability.PairSigmoids.fit,
    svmx._probability.laplace_scale,
    svmx._platt_folds.seeded_held_out_decisions,
    svmx._shared_gram.shared_gram,
])
def test_drivers_take_specs_not_the_estimator(function):
    names = list(inspect.signature(function).parameters)
    assert "estimator" not in names
    source = inspect.getsource(function)
    assert "estimator" not in source, f"{function.__name__} reads an estimator"
