import ArgumentParser

/// How small and how the output is written: `export`, every direct-mode edit,
/// `apply` (through `WritingOptions`). `optimize` always compresses and has
/// its own `--linearize`.
struct SizeOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Write the output as small as it losslessly can be: identical streams (fonts, images) once, Flate at zlib's best level, object streams.")
    var compress = false

    @Flag(name: .long, help: "Linearize the output (fast web view).")
    var linearize = false
}
