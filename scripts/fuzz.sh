#!/usr/bin/env bash
# Builds pdfedit's fuzz harnesses (Fuzz/, see Fuzz/README.md) and runs each for
# SECONDS seconds (default 60).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      TARGET: selection session scripts (default: all)
#
# selection, session: libFuzzer harnesses (coverage-guided, AddressSanitizer), built
#   with swiftc -sanitize=fuzzer,address into .build/fuzz/. Each runs on a working
#   corpus in .build/fuzz/corpus-TARGET/, seeded from Fuzz/Seeds/TARGET/ (the
#   committed seeds are never modified). A crash is saved as
#   .build/fuzz/crash-TARGET-<sha1> and the script exits 1 naming it.
# scripts: `pdfedit run -` on generated scripts through the built binary
#   (ScriptFuzzTests, PDFEDIT_SCRIPT_FUZZ_SECONDS), since the script parser lives
#   in the executable target with ArgumentParser and cannot be linked into a harness.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(selection session scripts); fi

out=.build/fuzz
mkdir -p "$out"
model=(Sources/PageModel/*.swift Sources/PageModel/Operations/*.swift)
linker=()
if command -v ld.lld >/dev/null 2>&1 || [ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]; then linker=(-use-ld=lld); fi

build_harness() { # NAME HARNESS.swift
    echo "fuzz.sh: building $out/fuzz-$1"
    swiftc -sanitize=fuzzer,address -parse-as-library "${linker[@]}" -O -g -module-name PageModel -package-name pdfedit \
        "${model[@]}" "$2" -o "$out/fuzz-$1"
}

run_harness() { # NAME MAX_LEN
    local name=$1 max_len=$2 corpus="$out/corpus-$1"
    mkdir -p "$corpus"
    cp -n Fuzz/Seeds/"$name"/* "$corpus"/ 2>/dev/null || true
    echo "fuzz.sh: running fuzz-$name for $seconds s (log: $out/$name.log)"
    local status=0
    # SWIFT_BACKTRACE=enable=no: let libFuzzer, not Swift's backtracer, handle a trap.
    SWIFT_BACKTRACE=enable=no "$out/fuzz-$name" "$corpus" -dict="Fuzz/$name.dict" -max_len="$max_len" \
        -max_total_time="$seconds" -artifact_prefix="$out/crash-$name-" -print_final_stats=1 \
        >"$out/$name.log" 2>&1 || status=$?
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" "$out/$name.log" || true
    if [ $status -ne 0 ]; then
        echo "fuzz.sh: fuzz-$name found a problem (exit $status):"
        grep -E "Fatal error|ERROR:|Test unit written" "$out/$name.log" | head -5
        return 1
    fi
}

failed=0
for target in "${targets[@]}"; do
    case "$target" in
    selection)
        build_harness selection Fuzz/Selection/FuzzSelection.swift
        run_harness selection 512 || failed=1
        ;;
    session)
        build_harness session Fuzz/Session/FuzzSession.swift
        run_harness session 65536 || failed=1
        ;;
    scripts)
        echo "fuzz.sh: running generated scripts through the binary for $seconds s"
        swift build --product pdfedit
        PDFEDIT_BIN="$PWD/.build/debug/pdfedit" PDFEDIT_SCRIPT_FUZZ_SECONDS="$seconds" \
            swift test --filter ScriptFuzzTests 2>&1 | grep -E "ScriptFuzzTests|passed|failed|Issue|↳" || failed=1
        ;;
    *)
        echo "fuzz.sh: unknown target $target (selection, session, scripts)" >&2
        exit 64
        ;;
    esac
done
exit $failed
