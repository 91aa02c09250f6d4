# cython: language_level=3
"""What this build of svmx was compiled with, for bug reports."""

from svmx._engine.openmp cimport openmp_max_threads

import platform
import sys


cdef extern from *:
    int SVMX_DEBUG_BUILD
    int SVMX_OPENMP_BUILD


def openmp_thread_limit():
    """OpenMP's thread limit in force on the calling thread (``omp_get_max_threads()``:
    ``OMP_NUM_THREADS``, threadpoolctl's ``threadpool_limits``, the limit joblib sets in
    its workers), or None for a build without OpenMP.

    Examples
    --------
    >>> limit = openmp_thread_limit()
    >>> limit is None or limit >= 1
    True
    """
    return openmp_max_threads() if SVMX_OPENMP_BUILD else None


def build_info():
    """A dict describing this build: debug checks, OpenMP and versions.

    Examples
    --------
    >>> sorted(build_info())[:3]
    ['blas', 'debug_build', 'numpy']
    """
    import numpy
    import scipy

    from svmx._version import __version__

    return {
        "svmx": __version__,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "debug_build": bool(SVMX_DEBUG_BUILD),
        "openmp": bool(SVMX_OPENMP_BUILD),
        "openmp_max_threads": openmp_max_threads(),
        "blas": "scipy.linalg.cython_blas (the BLAS scipy was built with)",
    }


def show_config(file=None):
    """Print what this build of svmx was compiled with.

    Parameters
    ----------
    file : file-like, optional
        Where to print; standard output by default.

    Examples
    --------
    >>> import io
    >>> buffer = io.StringIO()
    >>> show_config(file=buffer)
    >>> "openmp" in buffer.getvalue()
    True
    """
    for key, value in build_info().items():
        print(f"{key:>20}: {value}", file=file)
