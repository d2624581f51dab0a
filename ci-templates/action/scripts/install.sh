#!/usr/bin/env bash
# Builds flakescan (Release) from $FLAKESCAN_SRC, installs it into $FLAKESCAN_PREFIX, installs the
# Gradle plugin into ~/.m2, and puts flakescan on the PATH of the following steps.
set -euo pipefail

src=${FLAKESCAN_SRC:?}
prefix=$(mkdir -p "${FLAKESCAN_PREFIX:?}" && cd "$FLAKESCAN_PREFIX" && pwd)

if [ "${CACHE_HIT:-}" = "true" ] && [ -x "$prefix/bin/flakescan" ]; then
  echo "flakescan: using the cached installation in $prefix"
else
  sudo "$src/scripts/bootstrap"
  build=$(mktemp -d)
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DFLAKESCAN_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$prefix"
  cmake --build "$build" --target flakescan flakescand flakescan_gradle_plugin -j "$(nproc)"
  cmake --install "$build"
fi
echo "$prefix/bin" >>"${GITHUB_PATH:?}"
"$prefix/bin/flakescan" --version
