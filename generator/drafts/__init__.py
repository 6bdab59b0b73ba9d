"""Article drafts: from a finished campaign to content/posts/<slug>/index.md, every figure a
shortcode and the tl;dr the cells its campaign page colours (article.py, differences.py,
templates/)."""
