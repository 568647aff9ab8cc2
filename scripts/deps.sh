#!/usr/bin/env bash
# Installs the Debian packages plangraph needs. Usage: scripts/deps.sh [run|test]
#   run:  compilers and libraries for building and running (OpenCV, Tesseract, poppler)
#   test: also PostgreSQL and Redis servers for the integration tests, Chromium and Firefox ESR
#         for the web app's end-to-end test, and a Japanese font (OCR language detection test)
# Node.js (>= 20, with npm) builds the web app: Debian's nodejs and npm are installed when there is no node
# on PATH; an older node is reported (Debian 12 ships 18: install Node 20 from nodejs.org or NodeSource).
# Packages already installed are skipped, so a second run costs nothing.
set -euo pipefail
mode=${1:-run}
pkgs=(build-essential pkg-config ca-certificates unzip curl libopencv-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn libtesseract-dev libleptonica-dev poppler-utils)
if [ "$mode" = test ]; then
  pkgs+=(postgresql postgresql-client redis-server chromium firefox-esr fonts-ipafont-gothic)
fi
# a node from elsewhere (NodeSource, nvm) is used as it is
command -v node >/dev/null || pkgs+=(nodejs npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
node_check() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "the web app needs Node.js >= 20 (found $(node --version)): install it from nodejs.org or NodeSource" >&2
    exit 1
  fi
}
if [ ${#missing[@]} -eq 0 ]; then node_check; exit 0; fi
sudo_() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
echo "installing: ${missing[*]}" >&2
sudo_ apt-get -o DPkg::Lock::Timeout=600 update -qq
sudo_ env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
node_check
