"""The data each kind of page shows, as plain JSON-ready values: campaign summaries, run tables
and facts, the browse and compare indexes, the Insert Benchmark, TPC-C-like and suite reports,
the guide's schema tables. Hugo templates render them (generator/hugo/site_contract.py says
where each is written)."""
