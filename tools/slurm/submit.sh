#!/bin/bash
# Submits an N-shard run and its merge (docs/cluster.md §4):
#   tools/slurm/submit.sh KIND N OUTDIR [options of the command]
# KIND is selfplay, label or match. The shards are one array job (sbatch --array=0-(N-1));
# the merge waits for all of them (--dependency=afterok) and is not run if one fails.
# TIANYUAN (default pbrain-tianyuan on PATH) is the binary the jobs run; SBATCH_* variables
# and extra sbatch options in SBATCH_OPTS (e.g. "--partition=long --cpus-per-task=2") apply
# to both jobs. Prints "array JOBID merge JOBID".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kind="${1:?usage: submit.sh KIND N OUTDIR [options]}"
n="${2:?usage: submit.sh KIND N OUTDIR [options]}"
out="${3:?usage: submit.sh KIND N OUTDIR [options]}"
shift 3
case "$kind" in
  selfplay | label | match) ;;
  *) echo "error: KIND is selfplay, label or match, not '$kind'" >&2; exit 2 ;;
esac
if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ]; then
  echo "error: N must be a whole number >= 1, not '$n'" >&2
  exit 2
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# shellcheck disable=SC2086 # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array="0-$((n - 1))" \
  --export=ALL --output="$out/slurm-$kind-%A_%a.out" \
  "$here/$kind.sbatch" "$out" "$@")
array="${array%%;*}"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency="afterok:$array" \
  --export=ALL --output="$out/slurm-merge-%j.out" \
  "$here/merge.sbatch" "$kind" "$n" "$out")
merge="${merge%%;*}"
echo "array $array merge $merge"
