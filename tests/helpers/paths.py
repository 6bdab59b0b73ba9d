"""Where tests find the repository and its recorded fixtures."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA_DIR = REPO / "data"
CAMPAIGNS_DIR = REPO / "campaigns"
TOOLS_DIR = REPO / "tools"
FIXTURES = REPO / "tests" / "fixtures"
FIXTURE_RUNS = FIXTURES / "runs"  # a data dir: run documents in its runs/
