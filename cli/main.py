"""`mybench`: run campaigns, validate results, build and serve the site, import, draft, demo.
Each command lives in cli/commands/ and is added to the group here."""

from __future__ import annotations

import click

from cli.commands import (
    article,
    build,
    campaign,
    demo,
    history,
    import_,
    reproduce,
    run,
    serve,
    server,
    storage,
    validate,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Run MySQL/MariaDB benchmark campaigns and publish them as a Hugo site."""


for command in (
    run.run,
    reproduce.reproduce,
    validate.validate,
    build.build,
    serve.serve,
    import_.import_,
    article.article,
    history.history,
    campaign.campaign,
    storage.storage,
    server.server,
    demo.demo,
):
    main.add_command(command)


if __name__ == "__main__":
    main()
