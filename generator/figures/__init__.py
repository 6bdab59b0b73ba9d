"""Plotly figures as data (no I/O), and what is written beside each figure: its data as CSV
and JSON and a static SVG drawing."""
