"""Publish run documents as a Hugo site: validate data/, generate figures and tables, run Hugo.

Public surface: build_site, serve, BuildReport and the errors (BuildError, InvalidData, HugoError).
"""

from generator._build import BuildReport, build_site
from generator._errors import BuildError, HugoError, InvalidData
from generator._serve import serve

__all__ = ["BuildError", "BuildReport", "HugoError", "InvalidData", "build_site", "serve"]
