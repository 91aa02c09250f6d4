"""What the ``svmx`` command imports: the command it runs, and not scikit-learn.

``import svmx`` imports the estimators and subpackages on first use; the console
script and ``python -m svmx`` set ``SVMX_SKLEARN=0`` (unless the environment sets it),
so a call does not pay the second that importing scikit-learn takes. Each check runs
in a fresh interpreter (this one has imported everything already).
"""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest


def _python(code, **environment):
    env = {name: value for name, value in os.environ.items() if name != "SVMX_SKLEARN"}
    env.update(environment)
    # Run outside the source tree: from its root, `-c` would import the unbuilt package.
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, cwd=tempfile.gettempdir())
    return done.stdout.split()


def test_import_svmx_imports_parts_on_first_use():
    pytest.importorskip("sklearn")
    loaded = _python(
        "import sys, svmx; print('svmx.svm' in sys.modules, 'sklearn' in sys.modules); "
        "svmx.SVC; print('svmx.svm' in sys.modules, 'sklearn' in sys.modules); "
        "from svmx import model_selection, NotFittedError; print(model_selection.__name__, "
        "NotFittedError.__name__, sorted(set(svmx.__all__) - set(dir(svmx))))")
    assert loaded == ["False", "False", "True", "True", "svmx.model_selection",
                      "NotFittedError", "[]"]


def test_svmx_sklearn_0_leaves_scikit_learn_out():
    pytest.importorskip("sklearn")
    code = ("import sys, svmx; m = svmx.SVC(kernel='linear').fit([[0.], [1.]], [0, 1]); "
            "print('sklearn' in sys.modules, any(c.__module__.startswith('sklearn') "
            "for c in type(m).__mro__), m.predict([[0.9]])[0], "
            "svmx.model_selection.cross_validate(svmx.SVC(), [[0.], [1.], [2.], [3.]], "
            "[0, 1, 0, 1], cv=2)['test_score'].mean())")
    without, with_sklearn = _python(code, SVMX_SKLEARN="0"), _python(code)
    assert without[:3] == ["False", "False", "1"]
    assert with_sklearn[:3] == ["True", "True", "1"]
    assert without[3] == with_sklearn[3]  # the same scores either way


@pytest.mark.parametrize("argv", [["predict", "--help"], ["train", "--help"],
                                  ["scale", "--help"], ["grid", "--help"]])
def test_the_command_imports_neither_scikit_learn_nor_other_commands(argv):
    code = (f"import sys, runpy; sys.argv = ['svmx'] + {argv!r}\n"
            "try:\n    runpy.run_module('svmx', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print('SKLEARN', 'sklearn' in sys.modules, sorted(m for m in sys.modules "
            "if m.startswith('svmx._cli.') and m != 'svmx._cli._options'))")
    out = _python(code)
    at = out.index("SKLEARN")
    assert out[at + 1] == "False"
    commands = {"train", "predict", "scale", "grid", "demo"}
    imported = {name.strip("[],'").rsplit(".", 1)[-1] for name in out[at + 2:]}
    assert imported & commands == {argv[0]}


def test_the_command_keeps_an_explicit_setting(tmp_path):
    data = tmp_path / "tiny"
    data.write_text("1 1:1\n-1 1:-1\n1 1:0.8\n-1 1:-0.7\n")
    env = {**os.environ, "SVMX_SKLEARN": "1"}
    code = ("import sys, runpy; sys.argv = ['svmx', 'train', '-q', {!r}, {!r}]\n"
            "try:\n    runpy.run_module('svmx', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print('sklearn' in sys.modules)".format(str(data), str(tmp_path / "m")))
    pytest.importorskip("sklearn")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, cwd=tmp_path)
    assert done.stdout.split()[-1] == "True"
    assert np.isfinite(float((tmp_path / "m").read_text().split("rho ")[1].split()[0]))
