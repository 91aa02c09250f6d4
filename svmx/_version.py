"""The version of svmx: its one source of truth.

setuptools reads it at build time (``[tool.setuptools.dynamic]`` in pyproject.toml),
``svmx.__version__`` re-exports it, CHANGELOG.md has a section for it, and a release is the
tag ``v`` + this version (.github/workflows/release.yml checks that they match).
"""

__version__ = "0.1.0"
