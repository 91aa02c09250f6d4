"""The public C-level (Cython) API of svmx's engine.

This package holds only ``.pxd`` files, to be ``cimport``-ed from Cython code;
it has nothing to import from Python. Each file re-exports the declarations of
one concept from the private ``svmx._engine`` modules, which keep the
implementation:

==================  ==========================================================
``kernel``          ``KernelParams``, the kernel types, ``kernel_from_dot`` and
                    ``kernel_block`` (from ``_engine.kernel_map``); row storage
                    (``DenseRows``, ``DenseRows32``, ``CsrRows``, ``TiledRows``)
                    and the block statuses (from ``_engine.rows``); ``Kernel``
                    (from ``_engine.kernel``)
``cache``           ``KernelCache``, the LRU cache of kernel columns
``qmatrix``         ``QMatrix`` and the Q matrices ``SvcQ``, ``OneClassQ``, ``SvrQ``
``solver``          ``Solver`` (SMO), ``SolverNU``, ``SolutionInfo``, status codes
``block_solver``    ``BlockSolver``, the batched working-set solver
``platt``           ``sigmoid_train``, ``sigmoid_predict``, ``multiclass_probability``
==================  ==========================================================

A Cython module writes, for example::

    from svmx.engine.kernel cimport DenseRows, Kernel, RBF
    from svmx.engine.qmatrix cimport SvcQ
    from svmx.engine.solver cimport SolutionInfo, Solver, SOLVE_OK

and needs nothing special at build time: Cython finds these files through the
installed ``svmx`` package on ``sys.path``. ``docs/cython_api.md`` in the
source distribution documents the objects, the GIL rules and memory ownership.
"""
