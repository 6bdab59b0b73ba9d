"""Run benchmark campaigns against real MySQL/MariaDB servers and write run documents."""

__version__ = "0.1.0"
