"""Sphinx configuration of svmx's documentation.

Build it with ``sphinx-build -W --keep-going -b html docs docs/_build/html`` from the project
root, with svmx installed (``pip install ".[docs]"``) or built in place and on PYTHONPATH.
The API pages document the svmx that Python imports; the gallery runs its examples.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import svmx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "svmx"
author = "The svmx developers"
copyright = "the svmx developers"  # noqa: A001 (Sphinx's name)
release = svmx.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "svmx_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "examples/GALLERY_HEADER.rst"]
templates_path = ["_templates"]

# Markdown (MyST): heading anchors so that links such as differences.md#scaling resolve.
# No maths extension: formulas are written in Unicode, so the pages need no MathJax download.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference: autosummary writes one page per object; numpydoc renders the docstrings.
autosummary_generate = True
autodoc_default_options: dict[str, object] = {}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# The gallery: every examples/plot_*.py runs at build time and its figures are kept.
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "svmx_docs.ExampleOrder",
    "reference_url": {"svmx": None},
    "matplotlib_animations": False,
    "show_memory": False,
    "min_reported_time": 1,
}

html_theme = "pydata_sphinx_theme"
html_title = f"svmx {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "install": [], "quickstart": [], "changelog": []}
html_show_sourcelink = False

# The environment the command-line reference's help texts are rendered in: argparse wraps
# help at $COLUMNS.
os.environ["COLUMNS"] = "88"
