"""Build of the compiled solver (``euchre._csolver``), the compiled random
playouts (``euchre._cplayout``) and the compiled search (``euchre._csearch``);
the metadata is in pyproject.toml.

The extensions are optional: without a working C compiler the install still
succeeds and ``euchre.solver``, ``euchre.playout`` and ``euchre.bots.search``
use their pure-Python paths.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "euchre._csolver",
            sources=["src/euchre/_solver.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "euchre._csearch",
            sources=["src/euchre/_csearch.c"],
            depends=[
                "src/euchre/_core.h",
                "src/euchre/_rng.h",
                "src/euchre/_rule.h",
                "src/euchre/_solver.c",
            ],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "euchre._cplayout",
            sources=["src/euchre/_playout.c"],
            depends=["src/euchre/_core.h", "src/euchre/_rng.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
