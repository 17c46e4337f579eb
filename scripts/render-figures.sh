#!/usr/bin/env bash
# Renders every Graphviz source docs/figures/*.dot into an SVG and a PNG beside it.
#   scripts/render-figures.sh            # all figures
#   scripts/render-figures.sh FILE.dot   # one
# Installs Debian's graphviz package (apt-get, as root) when `dot` is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/setup.sh"
command -v dot >/dev/null || nwpio_install_only graphviz
sources=("$@")
((${#sources[@]})) || sources=("$root"/docs/figures/*.dot)
for src in "${sources[@]}"; do
  base=${src%.dot}
  dot -Tsvg "$src" -o "$base.svg"
  dot -Tpng -Gdpi=110 "$src" -o "$base.png"
  nwpio_log "rendered $base.svg and $base.png ($(dot -V 2>&1))"
done
