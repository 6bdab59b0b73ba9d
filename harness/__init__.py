"""Run benchmark campaigns against real MySQL/MariaDB servers and write run documents."""

from pathlib import Path

__version__ = "0.1.0"

# The repository checkout: recorded commands name the project's files relative to it.
PROJECT_ROOT = Path(__file__).resolve().parents[1]
