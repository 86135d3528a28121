#!/bin/sh
# Drift check for cron, e.g.:  */30 * * * *  PROFILE=finance ALLOWLIST=/srv/allowlist/allowlist.txt /usr/local/bin/drift-check.sh
# Exit 0: the service matches the file. Exit 8: it drifted; the differences are printed. Anything else: an error.
PROFILE=${PROFILE:-finance}
ALLOWLIST=${ALLOWLIST:-allowlist.txt}
plan=$(scpctl buckets sync "$PROFILE" -f "$ALLOWLIST" --dry-run --exit-code --quiet)
status=$?
if [ "$status" -eq 8 ]; then
  echo "drift on $PROFILE: $(printf '%s\n' "$plan" | grep -c '^+') missing, $(printf '%s\n' "$plan" | grep -c '^-') unexpected"
  printf '%s\n' "$plan"
fi
exit "$status"
