#!/bin/sh
# Incremental event export for a SIEM: appends the events since the last complete run to $OUT as NDJSON.
# A failed run leaves the checkpoint alone and the next run repeats its window (at least once, never lost).
# Exit 0: exported (or nothing new yet). Anything else: scpctl's exit code (6 network, 3 token, ...).
TYPE=${TYPE:-alert}
STATE=${STATE:-/var/lib/scpctl}
OUT=${OUT:-/var/log/scpctl/$TYPE.ndjson}
LAG=${LAG:-300}
mkdir -p "$STATE" "$(dirname "$OUT")" || exit 1
exec scpctl report --all --type "$TYPE" --checkpoint "$STATE/$TYPE.checkpoint" --lag "$LAG" -o ndjson --quiet >> "$OUT"
