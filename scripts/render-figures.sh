#!/usr/bin/env bash
# Renders every Graphviz source docs/figures/*.dot into an SVG and a PNG beside it.
#   scripts/render-figures.sh            # all figures
#   scripts/render-figures.sh FILE.dot   # one
# Installs Debian's graphviz package (apt-get, as root) when `dot` is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "[nwpio] $*" >&2; }
if ! command -v dot >/dev/null; then
  if [[ $(id -u) -ne 0 ]]; then
    log "dot (Graphviz) is missing: install Debian's graphviz package, or run this as root"
    exit 1
  fi
  log "installing Debian's graphviz package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends graphviz >/dev/null
fi
sources=("$@")
((${#sources[@]})) || sources=("$root"/docs/figures/*.dot)
for src in "${sources[@]}"; do
  base=${src%.dot}
  dot -Tsvg "$src" -o "$base.svg"
  dot -Tpng -Gdpi=110 "$src" -o "$base.png"
  log "rendered $base.svg and $base.png ($(dot -V 2>&1))"
done
