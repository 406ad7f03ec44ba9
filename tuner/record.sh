#!/bin/sh
# Records a restricted search space of one kernel on one device for
# oclblas-tune-replay: a full search (every legal configuration measured
# once, on one problem), then the recording, the header the replay reads
# followed by the journal's lines. Run it again to resume: the journal
# answers what it holds. The replay refuses a recording whose header
# (limits, values) does not describe the space the journal covers.
# Usage: tuner/record.sh OUT.rec TUNER "LIMITS" KERNEL VALUES SIZE [oclblas-tune options...]
#   LIMITS  the device's "WG X,Y,Z LOCAL CC": max work-group size, max
#           work-item sizes, local memory bytes, NVIDIA compute capability
#           times 10 (0 elsewhere), as clinfo shows them
#   VALUES  --values text without the kernel: NAME=V,V:NAME=V...
#   SIZE    the problem, MxNxK (MxN for a gemv)
# OUT.rec.journal and OUT.rec.json are the run's own files (the journal
# resumes it): commit only OUT.rec.
set -eu
[ $# -ge 6 ] || { sed -n '2,17s/^# \{0,1\}//p' "$0" >&2; exit 2; }
out=$1 tuner=$2 limits=$3 kernel=$4 values=$5 size=$6
shift 6
journal=$out.journal
"$tuner" -k "$kernel" --no-classes -s full --no-database-seed --values "$kernel:$values" \
    --size "$kernel=$size" -o "$out.json" -j "$journal" "$@"
problem=$(awk -F'\t' -v k="$kernel" '$1 == k { print $2; exit }' "$journal")
{
  echo "# oclblas-tune recording: every legal configuration of a restricted space, measured once"
  sed -n '2s/^# device\t/# device: /p' "$journal"
  echo "# command: $tuner -k $kernel --no-classes -s full --no-database-seed --values $kernel:$values --size $kernel=$size $*"
  printf 'kernel\t%s\nlimits\t%s\nvalues\t%s\nproblem\t%s\n' "$kernel" "$limits" "$values" "$problem"
  grep -v '^#' "$journal"
} > "$out"
echo "recorded $(grep -vc '^#' "$journal") configurations in $out" >&2
