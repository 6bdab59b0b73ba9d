"""The articles state no trust fact in their own words (tests/helpers/prose_claims.py): each
committed article passes, and each form a writer has used or is likely to use is caught when
planted in a copy of an article, while a sentence about the database is not."""

from __future__ import annotations

import pytest

from tests.helpers.prose_claims import trust_claims
from tests.published.test_articles import ARTICLES

# Sentences found in earlier texts of the articles, and paraphrases of them.
CLAIMS = [
    "None carried write debt.",
    "The disclosure box lists every flagged step.",
    "Every run starts the server on a fresh copy of the datadir.",
    "The server is started by the harness in its own datadir and port for every run.",
    "Each run starts the server on an empty datadir.",
    "Three passes, each a fresh server per variant.",
    "No step was flagged.",
    "All passes steady.",
    "Every run started fresh.",
    "None of the write steps carried debt.",
    "The update steps held steady in all three passes.",
    "Each run on a fresh datadir.",
    "Every measured step held steady for its two minutes.",
    "Every one of the 36 query steps was steady.",
    "5 of 36 steps were not steady, and the rest were stable.",
    "The cell rests on five steady steps and one that climbed.",
    "The 1-thread steps held steady but one.",
    "l.i1 failed the steady-state test in four of the six runs.",
    "Most cells have at most one flagged pass of three.",
    "Every run started from a settled checkpoint.",
    "Each run waited for the checkpoint so neither version inherits the other's debt.",
    "So no run starts with another run's dirty pages to flush.",
    "Not a single step was client-bound.",
    "Only two runs restarted the server.",
    "Nothing was slowed by steal.",
    "The OLTP_RW cells are mostly not judged.",
    "The tables judged every cell.",
]

DATABASE = [
    "Every row is updated.",
    "None of the indexes fit in the buffer pool.",
    "Every commit waits for the redo log's fsync, in every pass.",
    "Each was compiled by its own pipeline, with its own compiler version, flags and libraries.",
    "Each client inserts and deletes 100, 500 and then 1000 rows per second.",
    "The update-one steps are timed by the client.",
    "A flush step waits for dirty pages, at most 20 s.",
    "The read-only tests, as far as their judged cells go, stay where they were.",
]


@pytest.mark.parametrize("article", ARTICLES, ids=lambda p: p.parent.name)
def test_article_states_no_trust_fact_in_its_own_words(article):
    assert trust_claims(article.read_text()) == [], (
        f"{article}: say it with the trust shortcode, or without a count, none or every"
    )


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_planted_trust_claim_is_caught(claim, tmp_path):
    article = tmp_path / "index.md"
    committed = ARTICLES[0].read_text()
    article.write_text(f"{committed}\n\nBy the way: {claim}\n")
    assert trust_claims(article.read_text()) == [f"{claim}"]


@pytest.mark.parametrize("sentence", DATABASE)
def test_a_sentence_about_the_database_stays_free(sentence):
    assert trust_claims(f"---\ntitle: t\n---\n{sentence}\n") == []


@pytest.mark.parametrize(
    "text",
    [
        'An earlier text said "none carried write debt"; that was wrong.',
        "> Every run started fresh.",
        "`every step is steady`",
        '{{< value campaign="c" note="no step flagged" >}}',
        "```\nall passes steady\n```",
    ],
)
def test_quotes_code_and_shortcodes_are_not_the_articles_words(text):
    assert trust_claims(f"---\ntitle: t\n---\n{text}\n") == []
