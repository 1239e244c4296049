"""Conformance of other implementations: planner's answers as reference, job-by-job verdicts
with explanations, differential runs of a program, shrinking and exported corpora
(docs/verify.md).

Unlike :mod:`validation.results` (the independent checker, which imports no
code it checks), this package runs planner's own algorithms: they are the
reference a program is compared with.
"""
