#!/usr/bin/env bash
# Regenerates resources/sample.tokenscope, the run the GUI opens when started
# without a file: two cost-model runs (labelled as models) of the same decode,
# on an H100 and an H200, so the Compare tab has something to show too.
set -euo pipefail
cli=${1:-build/release/app/cli/tokenscope-cli}
out=$(dirname "$0")/sample.tokenscope
rm -f "$out"
common=(--backend model --preset llama-1b --batch 4 --prompt 256 --tokens 96 --seed 7 --quiet
        --progress none --out "$out")
"$cli" run "${common[@]}" --gpu H100-SXM5 --name "sample: llama-1b on H100-SXM5 (model)"
"$cli" run "${common[@]}" --gpu H200 --name "sample: llama-1b on H200 (model)"
"$cli" info "$out" | grep '^run:'
