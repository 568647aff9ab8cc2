#!/usr/bin/env bash
# Prints the path of a Go >= 1.26 toolchain, installing one when missing:
# Debian's golang-go (1.19) is too old, so it is used only to fetch the
# golang.org/toolchain module for this release through the module proxy.
set -euo pipefail
want_minor=26
want_version=go1.26.8
dest="${PLANGRAPH_GO_ROOT:-$HOME/.cache/plangraph/$want_version}"

ok() { # $1 = go binary
  local v
  v=$("$1" env GOVERSION 2>/dev/null) || return 1
  v=${v#go}; local major=${v%%.*}; local rest=${v#*.}; local minor=${rest%%.*}
  [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge $want_minor ]; }
}

for cand in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go "$dest/bin/go"; do
  if [ -n "$cand" ] && [ -x "$cand" ] && ok "$cand"; then echo "$cand"; exit 0; fi
done

sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
boot=$(command -v go 2>/dev/null || true)
if [ -z "$boot" ]; then
  echo "installing Debian's golang-go to bootstrap $want_version" >&2
  sudo_ apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq golang-go ca-certificates unzip >&2
  boot=$(command -v go)
fi
arch=$(uname -m); case "$arch" in x86_64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; esac
mod="golang.org/toolchain@v0.0.1-$want_version.linux-$arch"
echo "fetching $mod through the Go module proxy" >&2
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
dir=$(cd "$tmp" && GOFLAGS=-modcacherw GOPATH="$tmp/gopath" "$boot" mod download -json "$mod" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -n "$dir" ] && [ -d "$dir" ] || { echo "could not download $mod" >&2; exit 1; }
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"; cp -r "$dir" "$dest"; chmod -R u+w "$dest"
# module zips do not keep file modes
chmod +x "$dest"/bin/* "$dest"/pkg/tool/*/* 2>/dev/null || true
ok "$dest/bin/go" || { echo "the downloaded Go does not run" >&2; exit 1; }
echo "$dest/bin/go"
