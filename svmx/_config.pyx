# cython: language_level=3
"""What this build of svmx was compiled with, for bug reports."""

from svmx._engine.isa cimport MULTI_ISA, isa_level, isa_machine, isa_parse
from svmx._engine.openmp cimport openmp_max_threads

import os
import platform
import sys
from pathlib import Path


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


ISA_NAMES = {1: "sse2", 3: "avx2", 4: "avx512"}
ISA_SETTINGS = ("sse2", "x86-64", "baseline", "avx2", "x86-64-v3", "avx512", "x86-64-v4")


def check_isa_setting(value=None):
    """Check a value of the ``SVMX_ISA`` environment variable (by default the one set).

    ``SVMX_ISA`` caps the instruction set of svmx's vectorised loops: ``sse2``
    (the x86-64 baseline), ``avx2`` (x86-64-v3: AVX2 and FMA) or ``avx512``
    (x86-64-v4); unset or empty, the loops use the widest the CPU has. A cap above
    the CPU's level changes nothing. It is read once, when svmx is imported: set it
    before (in the environment of the process, or in ``os.environ`` before the first
    ``import svmx``); later changes have no effect.

    Parameters
    ----------
    value : str, optional
        The value to check; ``os.environ.get("SVMX_ISA")`` by default.

    Raises
    ------
    TypeError
        If the value is not a string.
    ValueError
        If the value names no level.

    Examples
    --------
    >>> check_isa_setting("AVX2")
    >>> try:
    ...     check_isa_setting("avx3")
    ... except ValueError as error:
    ...     print(str(error).split(":")[0])
    SVMX_ISA='avx3' names no instruction set
    """
    if value is None:
        value = os.environ.get("SVMX_ISA")
    if value is None:
        return
    if not isinstance(value, str):
        raise TypeError(f"SVMX_ISA must be a string; got {type(value).__name__}")
    if "\0" in value or isa_parse(value.encode("ascii", "replace")) < 0:
        shown = value if len(value) <= 40 else value[:40] + "..."
        expected = ", ".join(repr(name) for name in ISA_SETTINGS)
        raise ValueError(
            f"SVMX_ISA={shown!r} names no instruction set: expected one of {expected}, or unset"
        )


# The setting svmx's modules read when they were imported (with this one).
_ISA_SETTING_AT_IMPORT = os.environ.get("SVMX_ISA") or None


def isa_info():
    """The instruction sets of svmx's vectorised loops on this machine.

    Returns
    -------
    dict
        ``"machine"``: the widest level this CPU runs (``"sse2"``, ``"avx2"`` or
        ``"avx512"``); ``"cap"``: the ``SVMX_ISA`` setting read when svmx was
        imported, or None; ``"active"``: the level the loops run at;
        ``"multi_isa"``: whether this build carries a
        version of each loop per level (GCC on x86-64 Linux) or one only.

    Examples
    --------
    >>> info = isa_info()
    >>> info["active"] in ("sse2", "avx2", "avx512")
    True
    """
    return {
        "machine": ISA_NAMES[isa_machine()],
        "cap": _ISA_SETTING_AT_IMPORT,
        "active": ISA_NAMES[isa_level()],
        "multi_isa": bool(MULTI_ISA),
    }


def _cache_sizes():
    """Cache level -> size as the kernel reports it for CPU 0 (e.g. ``{"L2": "2048K"}``)."""
    sizes = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level = (index / "level").read_text().strip()
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
        except OSError:
            continue
        if kind != "Instruction":
            sizes[f"L{level}{'d' if kind == 'Data' else ''}"] = size
    return sizes


def cpu_model():
    """The CPU's model name (``/proc/cpuinfo``), or :func:`platform.processor`.

    Examples
    --------
    >>> isinstance(cpu_model(), str)
    True
    """
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")) and ":" in line:
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _isa_line():
    """``"avx2 (machine avx512, SVMX_ISA avx2, one loop per level: yes)"``."""
    info = isa_info()
    return (
        f"{info['active']} (machine {info['machine']}, SVMX_ISA {info['cap'] or 'unset'}, "
        f"one loop per level: {'yes' if info['multi_isa'] else 'no'})"
    )


def build_info():
    """A dict describing this build: debug checks, OpenMP and versions.

    Examples
    --------
    >>> sorted(build_info())[:3]
    ['blas', 'caches', 'cpu']
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
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "caches": ", ".join(f"{name} {size}" for name, size in _cache_sizes().items()),
        "isa": _isa_line(),
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


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
