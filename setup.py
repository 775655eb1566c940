"""Build of the compiled solver (``euchre._csolver``); the metadata is in pyproject.toml.

The extension is optional: without a working C compiler the install still
succeeds and ``euchre.solver`` uses its pure-Python solver.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "euchre._csolver",
            sources=["src/euchre/_solver.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
