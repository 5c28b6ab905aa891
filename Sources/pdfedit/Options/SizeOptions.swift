import ArgumentParser
import PDFEditKit

/// How small and how the output is written: `export`, every direct-mode edit,
/// `merge`, `apply` (through `WritingOptions`). `optimize` always compresses and
/// has its own `--linearize` and `--images`.
struct SizeOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Write the output as small as it losslessly can be: identical streams (fonts, images) once, Flate at zlib's best level, object streams.")
    var compress = false

    @Flag(name: .long, help: "Linearize the output (fast web view).")
    var linearize = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Lossy: resample images drawn finer than DPI to it (photographs as JPEG at QUALITY, default 75); implies --compress.",
            valueName: "dpi[:quality]"))
    var images: String?

    func validate() throws {
        _ = try resampling()
    }

    /// `--images` as a value; nil when not given.
    func resampling() throws(PDFEditError) -> ImageResampling? {
        try Self.resampling(images)
    }

    /// `text` (an `--images` value) as a value, or the usage error naming it.
    static func resampling(_ text: String?) throws(PDFEditError) -> ImageResampling? {
        guard let text else { return nil }
        guard let value = ImageResampling(argument: text) else {
            throw PDFEditError.usage(
                "--images \(text): give DPI (\(ImageResampling.dpiRange.lowerBound) to \(ImageResampling.dpiRange.upperBound)) or DPI:QUALITY (quality 1 to 100), e.g. 150 or 150:60")
        }
        return value
    }
}
