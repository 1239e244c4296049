"""Optional C speedups (built when a compiler is there; pure Python otherwise).

Everything else is declared in pyproject.toml. Like the standard library's
``json`` and its ``_json``, the Python code is the reference and the fallback:
a build without a C compiler installs the same package without these modules.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("planner.cluster._speedups", ["planner/cluster/_speedups.c"], optional=True),
        Extension("instances.traces._swf_speedups", ["instances/traces/_swf_speedups.c"],
                  optional=True),
    ],
)
