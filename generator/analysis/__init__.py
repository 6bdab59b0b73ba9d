"""Statistics and rules over validated run documents: the trust rules, ratios to a base
variant, repeats, steady state, environment drift, memory fit, configuration diff. Pure
functions; what a page shows is built from these in generator.pages."""
