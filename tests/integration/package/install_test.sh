#!/usr/bin/env bash
# The Debian package as a user gets it: cpack builds it from this build tree, lintian checks
# it, `dpkg -i` (and `apt-get -f install` for what it depends on) installs it, and the
# installed flakescan scans an example from the installed paths only. Removed again at the
# end. Needs root (CI runs as root on a fresh Debian 12); exits 77 (skipped) otherwise.
set -euo pipefail
build=$1 source=$2
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: installing a .deb needs root"; exit 77; fi
work=$(mktemp -d /tmp/flakescan-package-test.XXXXXX)
installed=false
cleanup() {
  if $installed; then dpkg -r flakescan >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cd "$build"
cpack -G DEB -B "$work/packages" >"$work/cpack.log" 2>&1 || { tail -30 "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/packages/flakescan_*_amd64.deb)
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# lintian: clean but for the overrides it reads from the package itself (each explained there).
lintian --fail-on error,warning --tag-display-limit 0 "$deb"
echo "lintian: clean"

if dpkg -s flakescan >/dev/null 2>&1; then echo "flakescan is already installed here; not touching it"; exit 1; fi
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >>"$work/dpkg.log" 2>&1
installed=true
dpkg -s flakescan | grep -q "^Status: install ok installed" || { cat "$work/dpkg.log"; exit 1; }
echo "installed: $(dpkg -s flakescan | sed -n 's/^Version: //p')"

version=$(/usr/bin/flakescan --version)
echo "flakescan --version: $version"
[[ $version == *"$(sed -n 's/^project(flakescan VERSION \([0-9.]*\).*/\1/p' "$source/CMakeLists.txt")"* ]] || { echo "wrong version"; exit 1; }
[[ $version == *commit* ]] || { echo "--version names no commit"; exit 1; }
/usr/bin/flakescand --version | grep -q commit || { echo "flakescand --version names no commit"; exit 1; }

# A scan from the installed paths: the installed daemon finds the installed runner jar; the
# example's own jar and Debian's JUnit jars are the classpath.
cp "$build/examples/jvm-basic.jar" "$work/"
cp_line="$work/jvm-basic.jar:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
cd "$work"
env -i PATH=/usr/bin:/bin HOME="$work" /usr/bin/flakescand --listen 127.0.0.1:0 --port-file "$work/port" \
  --data-dir "$work/home" >"$work/daemon.log" 2>&1 &
daemon_pid=$!
trap 'kill "$daemon_pid" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { cat "$work/daemon.log"; exit 1; }
env -i PATH=/usr/bin:/bin HOME="$work" /usr/bin/flakescan scan --daemon "http://127.0.0.1:$(cat "$work/port")" \
  --classpath "$cp_line" --tests demo.basic.RegistryPolluterTest,demo.basic.RegistryVictimTest \
  --techniques rerun,order --runs 3 --out "$work/verdicts.json" | tee "$work/scan.log"
python3 - "$work/verdicts.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
by = {v["test"]: v for v in doc["verdicts"]}
victim = by["demo.basic.RegistryVictimTest#startsWithEmptyRegistry"]
assert victim["verdict"] == "flaky" and victim["category"] == "order_dependent", victim
assert by["demo.basic.RegistryPolluterTest#registersDefaultCurrency"]["verdict"] == "not_flaky"
print("installed flakescan: the victim is order_dependent, its polluter not flaky")
PY
# Technique shuffle's preparation program is installed where the daemon looks for it.
[ -f /usr/share/flakescan/flakescan-shuffling-jdk.jar ] || { echo "flakescan-shuffling-jdk.jar is not installed"; exit 1; }
# Technique threads' agent and its runtime, side by side (the agent's manifest names the runtime).
for jar in flakescan-threads-agent.jar flakescan-threads-runtime.jar; do
  [ -f /usr/share/flakescan/$jar ] || { echo "$jar is not installed"; exit 1; }
done
dpkg -s flakescan | grep -q "^Depends:.*libasm-java" || { echo "the package does not depend on libasm-java"; exit 1; }
# The Gradle plugin's Maven repository is where the docs say.
ls /usr/share/flakescan/maven/io/flakescan/flakescan-gradle-plugin/*/flakescan-gradle-plugin-*.jar >/dev/null
echo "PASS: the .deb installs, passes lintian, and scans an example from its installed paths"
