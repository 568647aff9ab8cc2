#!/usr/bin/env bash
# Installs the Debian packages plangraph needs. Usage: scripts/deps.sh [run|test]
#   run:  compilers and libraries for building and running (OpenCV, Tesseract, poppler)
#   test: also PostgreSQL and Redis servers for the integration tests
# Packages already installed are skipped, so a second run costs nothing.
set -euo pipefail
mode=${1:-run}
pkgs=(build-essential pkg-config ca-certificates unzip curl libopencv-dev tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev poppler-utils)
if [ "$mode" = test ]; then
  pkgs+=(postgresql postgresql-client redis-server)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "installing: ${missing[*]}" >&2
sudo_ apt-get -o DPkg::Lock::Timeout=600 update -qq
sudo_ env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
