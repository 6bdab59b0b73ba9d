"""Failures the user can act on: each carries one line naming the file or option and the cause."""


class UserError(Exception):
    """Printed as one line by the CLI, without a traceback."""


class ServerStartError(UserError):
    """The server refused to start; `log_lines` holds the relevant error-log lines."""

    def __init__(self, message: str, log_lines: list[str]):
        super().__init__(message)
        self.log_lines = log_lines


class ServerGoneError(Exception):
    """The server process exited while the harness was using it."""


class WrongPlan(Exception):
    """EXPLAIN shows a test's statement using another index than the test is named for."""
