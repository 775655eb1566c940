"""Build of the compiled solver (``euchre._csolver``) and the compiled random
playouts (``euchre._cplayout``); the metadata is in pyproject.toml.

The extensions are optional: without a working C compiler the install still
succeeds and ``euchre.solver`` and ``euchre.playout`` use their pure-Python paths.
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
            "euchre._cplayout",
            sources=["src/euchre/_playout.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
