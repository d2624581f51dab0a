#!/usr/bin/env bash
# Installs a released flakescan: the .deb attached to the GitHub release v$FLAKESCAN_VERSION of
# $FLAKESCAN_REPOSITORY (apt-get resolves its Debian dependencies: Java 17, JUnit jars), and
# the Gradle plugin from the package's Maven repository into ~/.m2, where the init script
# looks for it. For Debian/Ubuntu runners on amd64.
set -euo pipefail

repo=${FLAKESCAN_REPOSITORY:?}
version=${FLAKESCAN_VERSION:?}
deb="flakescan_${version}_amd64.deb"
url="https://github.com/$repo/releases/download/v$version/$deb"
work=$(mktemp -d)
echo "flakescan: installing $url"
curl -fsSL --retry 3 -o "$work/$deb" "$url"
sudo apt-get update -qq
sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$work/$deb"
mkdir -p "$HOME/.m2/repository"
cp -r /usr/share/flakescan/maven/io "$HOME/.m2/repository/"
flakescan --version
