"""What several test modules share: repository paths, run-document builders, the site build
with a probe article, the headless browser and its local server."""
