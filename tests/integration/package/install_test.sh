#!/usr/bin/env bash
# `cmake --install BUILD --prefix TMP` puts every file the README's "Install" names (issue 22):
#   install_test.sh BUILD_DIR SOURCE_DIR
# the binary (and it runs), the example configuration as it is in examples/, the system
# configuration (sysconfdir: TMP/etc here, /etc for the prefix /usr), the systemd unit whose
# ExecStart is the installed binary with that configuration, the copyright and the changelog.
set -euo pipefail
build=$1
src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/p" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
p=$tmp/p
for f in bin/epdd share/doc/epdd/examples/epdd.toml etc/epdd/epdd.toml lib/systemd/system/epdd.service \
         share/doc/epdd/copyright share/doc/epdd/changelog.gz; do
  [ -f "$p/$f" ] || fail "cmake --install did not put $f (installed: $(cd "$p" && find . -type f | tr '\n' ' '))"
  echo "ok $f"
done
"$p/bin/epdd" --version | head -n1 | grep -qx 'epdd [0-9.]*' || fail "the installed epdd --version"
cmp "$p/share/doc/epdd/examples/epdd.toml" "$src/examples/epdd.toml" || fail "the example is not examples/epdd.toml"
grep -qx "ExecStart=$p/bin/epdd serve --config $p/etc/epdd/epdd.toml" "$p/lib/systemd/system/epdd.service" ||
  fail "the unit's ExecStart: $(grep ExecStart "$p/lib/systemd/system/epdd.service")"
cmp "$p/etc/epdd/epdd.toml" "$src/packaging/epdd.toml" || fail "etc/epdd/epdd.toml is not packaging/epdd.toml"
gzip -t "$p/share/doc/epdd/changelog.gz" || fail "changelog.gz is not gzip"
# Installed again over an edited configuration: the edit stays, the new example goes beside it.
echo '# edited by the administrator' >> "$p/etc/epdd/epdd.toml"
cp "$p/etc/epdd/epdd.toml" "$tmp/edited.toml"
cmake --install "$build" --prefix "$p" > "$tmp/again.log" || { cat "$tmp/again.log"; fail "cmake --install again"; }
cmp "$p/etc/epdd/epdd.toml" "$tmp/edited.toml" || fail "cmake --install replaced an edited etc/epdd/epdd.toml"
cmp "$p/etc/epdd/epdd.toml.new" "$src/packaging/epdd.toml" || fail "the new example is not etc/epdd/epdd.toml.new"
grep -q "Kept: .*epdd.toml (edited)" "$tmp/again.log" || fail "the second install does not say it kept the configuration"
# Two prefixes installed at once: each unit names its own binary.
cmake --install "$build" --prefix "$tmp/a" > /dev/null & one=$!
cmake --install "$build" --prefix "$tmp/b" > /dev/null & two=$!
wait "$one"; wait "$two"
for x in a b; do
  grep -qx "ExecStart=$tmp/$x/bin/epdd serve --config $tmp/$x/etc/epdd/epdd.toml" "$tmp/$x/lib/systemd/system/epdd.service" ||
    fail "installed at once, prefix $x has the unit: $(grep ExecStart "$tmp/$x/lib/systemd/system/epdd.service")"
done
echo "ok: $(cd "$p" && find . -type f | wc -l) files installed"
