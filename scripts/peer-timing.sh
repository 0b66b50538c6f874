# shellcheck shell=bash disable=SC2154  # $peers, $times and $games: set by the sourcing script
# Sourced by scripts/peers.sh and scripts/peers-edax.sh: one timed run of
# kifu or a peer, and the medians and ratios of the runs. The caller sets
# $peers (the folder of the timing files), $times (the file the runs are
# kept in, emptied here) and $games (the games of the input).
: >"$times"

# time_run NAME COMMAND...: one timed run (its output dropped), printed
# with the load before it and kept in $times.
time_run() {
  local name=$1
  shift
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  # Exit status 1 only says that some game is invalid.
  /usr/bin/time -f "%e %U %S %M" -o "$peers/time.txt" "$@" >/dev/null 2>&1 || [ $? -eq 1 ]
  # The last line: GNU time puts a note about the exit status before it.
  tail -n 1 "$peers/time.txt" | awk -v name="$name" -v games="$games" -v load="$load" '{
    printf "%-4s %6.2f s %10.0f games/s   cpu %6.2f s   peak RSS %4.0f MB   load %s\n",
      name, $1, games / $1, $2 + $3, $4 / 1024, load }'
  tail -n 1 "$peers/time.txt" | awk -v name="$name" '{ print name, $1, $2 + $3 }' >>"$times"
}

# median NAME COLUMN: the median wall (2) or CPU (3) seconds of NAME's runs.
median() { grep "^$1 " "$times" | cut -d' ' -f"$2" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# ratios PEER WHO: the medians of kifu's and PEER's runs, wall and CPU, and
# how many times kifu's time WHO (the peer as the sentence names it) takes.
ratios() {
  local what
  for what in wall:2 cpu:3; do
    awk -v w="${what%:*}" -v k="$(median kifu "${what#*:}")" -v p="$(median "$1" "${what#*:}")" -v peer="$1" -v who="$2" \
      'BEGIN { printf "median %s: kifu %.2f s, %s %.2f s: %s takes %.1fx kifu'"'"'s time\n", w, k, peer, p, who, p / k }'
  done
}
