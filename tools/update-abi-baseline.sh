#!/usr/bin/env bash
# Regenerates the committed ABI baseline (abi/libbcast.abi, abi/exports.txt)
# from the current sources, for a change that alters the ABI on purpose.
# Commit the result with that change; CI's ABI step fails until then.
#   tools/update-abi-baseline.sh [build-dir]
exec "$(dirname "$0")/../.ci/steps/abi.sh" --update "$@"
