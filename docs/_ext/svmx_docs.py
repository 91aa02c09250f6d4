"""Sphinx helpers of svmx's documentation.

- ``.. svmx-help:: COMMAND`` renders ``svmx COMMAND --help`` as the command prints it, so the
  command-line reference lists every flag of the installed svmx and cannot fall behind it.
- Members that scikit-learn's base classes add when scikit-learn is installed (metadata
  routing's ``set_*_request``, ``set_output``, ...) are left out of the API pages, which then
  read the same with or without scikit-learn; ``api/index.rst`` says so.
- Every object in the ``__all__`` of a public module must appear, under one of its names, in an
  ``autosummary`` of ``api/*.rst``; a missing one is a warning (an error under ``-W``).
- :class:`ExampleOrder` puts the gallery in reading order rather than file-name order.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.util import logging

logger = logging.getLogger(__name__)

PUBLIC_MODULES = [
    "svmx",
    "svmx.svm",
    "svmx.preprocessing",
    "svmx.model_selection",
    "svmx.datasets",
    "svmx.io",
    "svmx.exceptions",
    "svmx.cli",
]
# Documented elsewhere than in an autosummary: the version string and the subpackages.
NOT_IN_AUTOSUMMARY = {"svmx.__version__"}
KEPT_FROM_SKLEARN = {"get_params", "set_params"}


class SvmxHelp(Directive):
    """The ``--help`` text of one ``svmx`` subcommand (or of ``svmx`` itself: ``-``)."""

    required_arguments = 1

    def run(self):
        from svmx.cli import main

        command = self.arguments[0]
        argv = ["--help"] if command == "-" else [command, "--help"]
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = main(argv)
        if status not in (0, None):
            raise self.error(f"svmx {' '.join(argv)} exited with {status}")
        block = nodes.literal_block(output.getvalue(), output.getvalue())
        block["language"] = "text"
        return [block]


class ExampleOrder:
    """The gallery's order (sphinx-gallery's ``within_subsection_order``): from a model's
    decision regions to its parameters, its search, its outputs, the other formulations and
    its speed."""

    ORDER = [
        "plot_kernels.py",
        "plot_c_gamma.py",
        "plot_grid_search.py",
        "plot_calibration.py",
        "plot_svr.py",
        "plot_one_class.py",
        "plot_solver_speed.py",
    ]

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        # A new example not listed yet goes last, in name order.
        if filename in self.ORDER:
            return (self.ORDER.index(filename), filename)
        return (len(self.ORDER), filename)

    def __repr__(self):
        return "<ExampleOrder>"


def _defined_in_sklearn(obj) -> bool:
    target = obj.fget if isinstance(obj, property) else obj
    module = getattr(target, "__module__", None) or ""
    return module.split(".")[0] == "sklearn"


def skip_sklearn_machinery(app, what, name, obj, skip, options):
    if what == "class" and name not in KEPT_FROM_SKLEARN and _defined_in_sklearn(obj):
        return True
    return None


_CURRENT = re.compile(r"^\.\. currentmodule:: (\S+)")
_AUTOSUMMARY = re.compile(r"^\.\. autosummary::")
_ENTRY = re.compile(r"^\s+(~?[A-Za-z_][\w.]*)\s*$")


def documented_names(api_dir: Path) -> set[str]:
    """``module.name`` of every entry of every autosummary in ``api_dir``."""
    names = set()
    for page in sorted(api_dir.glob("*.rst")):
        module, inside = None, False
        for line in page.read_text().splitlines():
            if match := _CURRENT.match(line):
                module, inside = match.group(1), False
            elif _AUTOSUMMARY.match(line):
                inside = True
            elif inside and line.strip() and not line.startswith(" "):
                inside = False
            elif inside and (match := _ENTRY.match(line)) and not line.strip().startswith(":"):
                names.add(f"{module}.{match.group(1).lstrip('~')}")
    return names


def _resolve(full_name: str):
    module_name, _, name = full_name.rpartition(".")
    return getattr(importlib.import_module(module_name), name)


def check_api_coverage(app):
    """Warn about a public object that no autosummary documents, under any of its names
    (``svmx.SVC`` is documented as ``svmx.svm.SVC``)."""
    documented = {id(_resolve(name)) for name in documented_names(Path(app.srcdir) / "api")}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            full = f"{module_name}.{name}"
            value = getattr(module, name)
            if inspect.ismodule(value) or full in NOT_IN_AUTOSUMMARY:
                continue
            if id(value) not in documented:
                logger.warning("public name %s is in no autosummary of docs/api/", full)


def setup(app):
    app.add_directive("svmx-help", SvmxHelp)
    app.connect("autodoc-skip-member", skip_sklearn_machinery)
    app.connect("builder-inited", check_api_coverage)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
