#!/usr/bin/env bash
# Draws images/icon.png (128×128, the extension's icon): a game tree whose root is a chance node
# (gold) and one of whose moves is hidden (hollow), over "SIDL". Needs Debian's imagemagick and
# fonts-dejavu-core. Drawn at 512×512 and scaled down for smooth edges.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
convert=$(command -v convert-im6.q16 || command -v convert) # Debian's, before any other `convert`
"$convert" -size 512x512 gradient:'#1f6f8b'-'#123047' \
  \( -size 512x512 xc:black -fill white -draw "roundrectangle 8,8 503,503 96,96" \) \
  -alpha off -compose CopyOpacity -composite "$tmp/bg.png"
"$convert" "$tmp/bg.png" \
  -stroke '#e8f1f2' -strokewidth 14 -fill none \
  -draw "line 256,92 150,196" -draw "line 256,92 362,196" \
  -draw "line 150,196 96,294" -draw "line 150,196 204,294" \
  -draw "line 362,196 308,294" -draw "line 362,196 416,294" \
  -stroke none -fill '#f5b841' -draw "circle 256,92 256,128" \
  -fill '#e8f1f2' -draw "circle 150,196 150,226" \
  -stroke '#e8f1f2' -strokewidth 10 -fill '#1a4f6e' -draw "circle 362,196 362,224" \
  -stroke none -fill '#e8f1f2' \
  -draw "circle 96,294 96,318" -draw "circle 204,294 204,318" \
  -draw "circle 308,294 308,318" -draw "circle 416,294 416,318" \
  -font DejaVu-Sans-Bold -pointsize 124 -fill white -gravity south -annotate +0+34 'SIDL' \
  -resize 128x128 -depth 8 -strip icon.png
