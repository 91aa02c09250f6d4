"""Build script: declares the Cython extensions of svmx and nothing else.

Environment switches
--------------------
SVMX_DEBUG=1
    Build with bounds, wraparound and initialisation checks on (slow, for testing).
SVMX_OPENMP=0
    Do not use OpenMP even when the compiler supports it.
SVMX_COVERAGE=1
    Emit line tracing for coverage measurement of the Cython code.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools._distutils.ccompiler import new_compiler
from setuptools._distutils.errors import CompileError, LinkError
from setuptools._distutils.sysconfig import customize_compiler

HERE = Path(__file__).resolve().parent
DEBUG = os.environ.get("SVMX_DEBUG", "0") == "1"
COVERAGE = os.environ.get("SVMX_COVERAGE", "0") == "1"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    "cdivision": True,
    "embedsignature": True,
    "linetrace": COVERAGE,
}

OPENMP_PROBE = r"""
#include <omp.h>
int main(void) {
    int n = 0;
    #pragma omp parallel reduction(+:n)
    n += 1;
    return n > 0 ? 0 : 1;
}
"""


def openmp_flags():
    """Return (compile_args, link_args) for OpenMP, or empty lists when unavailable."""
    if os.environ.get("SVMX_OPENMP", "1") == "0":
        return [], []
    if sys.platform == "win32":
        candidates = [(["/openmp"], [])]
    elif sys.platform == "darwin":
        candidates = [(["-Xpreprocessor", "-fopenmp"], ["-lomp"]), (["-fopenmp"], ["-fopenmp"])]
    else:
        candidates = [(["-fopenmp"], ["-fopenmp"])]
    compiler = new_compiler()
    customize_compiler(compiler)
    workdir = tempfile.mkdtemp(prefix="svmx-openmp-")
    try:
        source = os.path.join(workdir, "probe.c")
        with open(source, "w") as handle:
            handle.write(OPENMP_PROBE)
        for compile_args, link_args in candidates:
            try:
                objects = compiler.compile(
                    [source], output_dir=workdir, extra_postargs=compile_args
                )
                compiler.link_executable(
                    objects, "probe", output_dir=workdir, extra_postargs=link_args
                )
            except (CompileError, LinkError):
                continue
            return compile_args, link_args
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("svmx: the compiler does not support OpenMP; building without it", file=sys.stderr)
    return [], []


def extensions():
    omp_compile, omp_link = openmp_flags()
    macros = [
        ("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION"),
        ("SVMX_DEBUG_BUILD", "1" if DEBUG else "0"),
        ("SVMX_OPENMP_BUILD", "1" if omp_compile else "0"),
    ]
    if COVERAGE:
        macros.append(("CYTHON_TRACE_NOGIL", "1"))
    # -fno-trapping-math lets the compiler turn the kernel maps' float selects
    # into SIMD code (svmx never inspects floating-point exception flags).
    optimise = [] if sys.platform == "win32" else ["-O3" if not DEBUG else "-O0",
                                                     "-fno-trapping-math"]
    modules = []
    for pyx in sorted(HERE.joinpath("svmx").rglob("*.pyx")):
        relative = pyx.relative_to(HERE)
        name = ".".join(relative.with_suffix("").parts)
        modules.append(
            Extension(
                name,
                [str(relative)],
                include_dirs=[np.get_include()],
                define_macros=macros,
                extra_compile_args=optimise + omp_compile,
                extra_link_args=omp_link,
            )
        )
    return cythonize(
        modules,
        compiler_directives=COMPILER_DIRECTIVES,
        include_path=[str(HERE)],
        nthreads=os.cpu_count() or 1,
    )


setup(ext_modules=extensions())
