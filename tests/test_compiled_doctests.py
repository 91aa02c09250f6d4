"""The docstring examples of every compiled module run and pass.

pytest's ``--doctest-modules`` collects ``.py`` files only, so the examples in the
``.pyx`` modules' docstrings (which the extensions keep, ``binding=True``) are run
here, one module per test, from the installed extensions.
"""

import doctest
import importlib
from pathlib import Path

import pytest

import svmx

PACKAGE_ROOT = Path(svmx.__file__).resolve().parent


def _compiled_modules():
    names = set()
    for suffix in ("*.so", "*.pyd"):
        for path in PACKAGE_ROOT.rglob(suffix):
            relative = path.relative_to(PACKAGE_ROOT.parent)
            names.add(".".join((*relative.parent.parts, relative.name.split(".")[0])))
    return sorted(names)


COMPILED = _compiled_modules()


def test_the_compiled_modules_are_found():
    assert "svmx._libsvm" in COMPILED and "svmx._engine.predict" in COMPILED


@pytest.mark.parametrize("name", COMPILED)
def test_docstring_examples_pass(name):
    module = importlib.import_module(name)
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed"
