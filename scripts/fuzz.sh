#!/usr/bin/env bash
# Builds pdfedit's fuzz harnesses (Fuzz/, see Fuzz/README.md) and runs each for
# SECONDS seconds (default 60).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      TARGET: pdf selection session scripts (default: all)
#
# pdf: a libFuzzer harness (Fuzz/PDF/FuzzPDF.cpp) over the C++ that reads PDF bytes
#   (Sources/QPDFCore: open, page check, export through our copier, --images' image
#   pass with the JPEG decoder and resampler of Sources/ImageCodecs) linked with the
#   system libqpdf, libjpeg and cairo, built with clang -fsanitize=fuzzer,address
#   into .build/fuzz/. Seeded from Fixtures/*.pdf, the small files of
#   ../shared/corpus when present, and the images of Fuzz/PDF/make-image-seeds.py.
#   FUZZ_RUNS=N runs N inputs with a fixed seed instead of SECONDS seconds (what
#   `make test` does: the same inputs every run, so it cannot fail by chance).
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
if [ ${#targets[@]} -eq 0 ]; then targets=(pdf selection session scripts); fi

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

build_pdf_harness() {
    echo "fuzz.sh: building $out/fuzz-pdf"
    local clang
    clang="$(dirname "$(command -v swiftc)")/clang++"
    [ -x "$clang" ] || clang=clang++
    local objects="$out/pdf-objects"
    mkdir -p "$objects"
    local flags=(-std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address -DPOINTERHOLDER_TRANSITION=4
                 -ISources/QPDFCore/include -ISources/QPDFCore -ISources/ImageCodecs/include $(pkg-config --cflags libqpdf freetype2 fontconfig))
    # The C of ImageCodecs (the JPEG decoder and cairo resampler the image pass calls).
    local cflags=(-std=c11 -O1 -g -fsanitize=fuzzer-no-link,address -ISources/ImageCodecs/include
                  $(pkg-config --cflags cairo libtiff-4))
    # Each file compiled again only when it or a header changed, as many at once as there are cores.
    local source object stale=() built=()
    for source in Sources/QPDFCore/*.cpp Fuzz/PDF/FuzzPDF.cpp; do
        object="$objects/$(basename "$source" .cpp).o"
        if [ ! -f "$object" ] || [ "$source" -nt "$object" ] ||
            [ -n "$(find Sources/QPDFCore -name '*.h*' -newer "$object" -print -quit)" ]; then
            stale+=("$source")
        fi
        built+=("$object")
    done
    if [ ${#stale[@]} -gt 0 ]; then
        printf '%s\n' "${stale[@]}" | xargs -P "$(nproc)" -I{} sh -c \
            'source=$1 objects=$2; shift 2; exec "$@" -c "$source" -o "$objects/$(basename "$source" .cpp).o"' \
            _ {} "$objects" "$clang" "${flags[@]}"
    fi
    for source in Sources/ImageCodecs/*.c; do
        object="$objects/codecs-$(basename "$source" .c).o"
        if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ Sources/ImageCodecs/include/ImageCodecs.h -nt "$object" ]; then
            "${clang%++}" "${cflags[@]}" -c "$source" -o "$object"
        fi
        built+=("$object")
    done
    "$clang" "${linker[@]/-use-ld/-fuse-ld}" -fsanitize=fuzzer,address "${built[@]}" $(pkg-config --libs libqpdf cairo libtiff-4 freetype2 fontconfig) \
        -ljpeg -lz -o "$out/fuzz-pdf"
}

run_pdf_harness() {
    # The short run of `make test` starts from the seeds alone, so it is the same every time.
    local corpus="$out/corpus-pdf"
    if [ -n "${FUZZ_RUNS:-}" ]; then corpus="$out/corpus-pdf-short"; rm -rf "$corpus"; fi
    mkdir -p "$corpus"
    cp -n Fixtures/*.pdf "$corpus"/ 2>/dev/null || true
    python3 Fuzz/PDF/make-image-seeds.py "$corpus"
    if [ -d ../shared/corpus ]; then
        find ../shared/corpus -name '*.pdf' -size -64k -exec cp -n {} "$corpus"/ \; 2>/dev/null || true
    fi
    local budget=(-max_total_time="$seconds")
    if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS" -seed=1); fi
    local amount="$seconds s"
    if [ -n "${FUZZ_RUNS:-}" ]; then amount="$FUZZ_RUNS inputs"; fi
    echo "fuzz.sh: running fuzz-pdf for $amount (log: $out/pdf.log)"
    local status=0
    # detect_leaks=0: qpdf keeps some objects for the process's life by design. -timeout=60:
    # the check of a 50 KB file by qpdf under AddressSanitizer took 9 s on a busy 2-core
    # machine; a hang is endless, so a generous limit still finds it.
    ASAN_OPTIONS=detect_leaks=0 "$out/fuzz-pdf" "$corpus" -max_len=65536 -timeout=60 -rss_limit_mb=2048 \
        "${budget[@]}" -artifact_prefix="$out/crash-pdf-" -print_final_stats=1 >"$out/pdf.log" 2>&1 || status=$?
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" "$out/pdf.log" || true
    if [ $status -ne 0 ]; then
        echo "fuzz.sh: fuzz-pdf found a problem (exit $status):"
        grep -E "FuzzPDF:|ERROR:|Test unit written|timeout" "$out/pdf.log" | head -5
        return 1
    fi
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
    pdf)
        build_pdf_harness
        run_pdf_harness || failed=1
        ;;
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
        echo "fuzz.sh: unknown target $target (pdf, selection, session, scripts)" >&2
        exit 64
        ;;
    esac
done
exit $failed
