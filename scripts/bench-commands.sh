#!/usr/bin/env bash
# Whole-command timings on the inputs of scripts/bench-data.sh: for every run
# of every command below, wall seconds, games/s, MiB/s of input, CPU seconds
# (user + system), peak RSS, and the 1-minute load average before the run
# (other work on the machine shows there), and for `positions` millions of
# positions written a second. A median row follows each command.
# KIFU=path times another build (an older commit's, say) with the same inputs.
# Usage: scripts/bench-commands.sh [RUNS]   (default 3)
set -euo pipefail

# kifu's arguments, one command a line: the subcommand, then the input (a file
# of target/bench-data); out.* files are written there and removed at the end.
COMMANDS=(
  "convert big.wtb --to csv -o out.csv"
  "convert big.wtb --to transcript -o out.txt"
  "validate big.wtb"
  "convert big.ggf --to csv -o out.csv"
  "convert big.txt --to csv -o out.csv"
  "explore big.wtb --moves f5d6c3d3c4 --format csv"
  "stats big.wtb --by year --format csv"
  "stats big.wtb --by year --format csv --unique"
  "positions big.wtb --to npy -o out.npy"
  "positions big.wtb --to csv -o out.csv"
  "positions big.wtb --to parquet -o out.parquet"
)

cd "$(dirname "$0")/.."
runs="${1:-3}"
scripts/bench-data.sh >/dev/null # also builds target/release/kifu
kifu="$(realpath "${KIFU:-target/release/kifu}")"
cd target/bench-data
# The inputs come from the page cache in every run, the first included.
cat big.wtb big.ggf big.txt >/dev/null
# Every input holds the same games; a command's own count is used if it says.
games=$(($(stat -L -c %s big.wtb) / 68)) # 16 header bytes: rounds down

echo "$("$kifu" --version), $(nproc) cores, $runs runs"
printf '%-48s %3s %7s %10s %7s %7s %7s %5s %7s\n' command run wall_s games/s MiB/s cpu_s rss_MiB load Mpos/s
for command in "${COMMANDS[@]}"; do
  read -r -a args <<<"$command"
  bytes=$(stat -L -c %s "${args[1]}") # -L: the inputs may be links
  : >times.txt
  for run in $(seq "$runs"); do
    # Every run starts alike: the last run's output (2.2 GB for positions
    # --to npy) deleted and written back to disk first, or freeing its
    # pages falls into the next run's system time (1-6 s seen).
    rm -f out.*
    sync
    load=$(cut -d' ' -f1 /proc/loadavg)
    # Exit status 1 only says that some game is invalid; 2 is a failure.
    status=0
    /usr/bin/time -f "%e %U %S %M" -o time.txt "$kifu" "${args[@]}" >log.txt 2>&1 || status=$?
    if [ "$status" -gt 1 ]; then
      printf '%-44s %3s failed (exit %s): %s\n' "$command" "$run" "$status" "$(tail -n 1 log.txt)"
      continue
    fi
    n=$(grep -o '[0-9]* games read' log.txt | tail -n 1 | cut -d' ' -f1 || true)
    p=$(grep -o '[0-9]* positions written' log.txt | tail -n 1 | cut -d' ' -f1 || true)
    # GNU time puts a note about a non-zero exit status before its line.
    tail -n 1 time.txt | awk -v c="$command" -v r="$run" -v g="${n:-$games}" -v b="$bytes" -v l="$load" -v p="${p:-0}" '{
      printf "%-48s %3s %7.2f %10.0f %7.1f %7.2f %7.1f %5s %7.1f\n",
        c, r, $1, g / $1, b / 1048576 / $1, $2 + $3, $4 / 1024, l, p / 1e6 / $1
      printf "%s %.3f %.3f %.3f %.3f %.3f\n", $1, g / $1, b / 1048576 / $1, $2 + $3, $4 / 1024, p / 1e6 / $1 >> "times.txt" }'
  done
  # The run of median wall time.
  sort -n times.txt | awk -v c="$command" '{ a[NR] = $0 } END { if (NR) {
    split(a[int((NR + 1) / 2)], m, " ")
    printf "%-48s %3s %7.2f %10.0f %7.1f %7.2f %7.1f %5s %7.1f\n", c, "med", m[1], m[2], m[3], m[4], m[5], "", m[6] } }'
done
rm -f out.* log.txt time.txt times.txt
