"""Publish run documents as a Hugo site: validate data/, generate figures and tables, run Hugo.

Public surface: build_site, serve, BuildReport and the errors (BuildError, InvalidData,
ArticlesLeftOut, HugoError).

The code is grouped by role (generator/README.md maps every module):
  analysis/  statistics and rules over validated runs (ratios, repeats, trust, drift, ...)
  pages/     the data one kind of page shows (campaign summaries, run tables, indexes, reports)
  figures/   Plotly figure dicts and the files beside them (CSV, JSON, static SVG)
  replay/    each run's replay.sh and the Reproduce list of its page
  hugo/      loading runs, writing the build tree Hugo mounts, running Hugo, serving
  articles.py  what an article refers to (the campaigns and runs a build must hold for it)
"""

from generator.hugo.build import BuildReport, build_site
from generator.hugo.errors import (
    ArticleProblems,
    ArticlesLeftOut,
    BuildError,
    HugoError,
    InvalidData,
    TypedFigures,
)
from generator.hugo.serve import serve

__all__ = [
    "ArticleProblems",
    "ArticlesLeftOut",
    "BuildError",
    "BuildReport",
    "HugoError",
    "InvalidData",
    "TypedFigures",
    "build_site",
    "serve",
]
