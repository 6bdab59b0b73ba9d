"""What differs between MariaDB, MySQL and Percona Server for the harness, one module a concern:

- identity.py: which product and version a server binary is (`Product`, `probe`);
- basedir.py: where a basedir keeps its binaries and the command that creates a datadir;
- data_options.py: options the datadir or the loaded data depend on;
- differing_defaults.py: settings whose defaults differ between products or versions;
- option_hints.py: what became of an option a server rejects or ignores;
- statements.py: SQL statements spelled differently by product and version.

Pure tables keyed by product family and version range (versions.py); the only process started
here is `<server> --version` in identity.probe(). Percona Server follows MySQL's version numbers
and behaviour, so it reads the "mysql" rows. Option names are normalised (lowercase,
underscores).
"""
