"""Data files in LIBSVM / SVMlight's text format: a compiled loader and a writer.

Examples
--------
>>> from svmx.datasets import load_svmlight_file
>>> X, y = load_svmlight_file(b"1 1:0.5\\n-1 2:1\\n")
>>> X.shape, y.tolist()
((2, 2), [1.0, -1.0])
"""

from svmx.datasets._svmlight_loader import load_svmlight_file, load_svmlight_files
from svmx.datasets._svmlight_writer import dump_svmlight_file

__all__ = ["dump_svmlight_file", "load_svmlight_file", "load_svmlight_files"]
