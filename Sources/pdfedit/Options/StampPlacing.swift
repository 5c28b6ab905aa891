import ArgumentParser
import PDFEditKit
import PageModel

extension StampPosition: ExpressibleByArgument {}
extension StandardFont: ExpressibleByArgument {}

/// `--position P --offset X,Y`, with `margin` points from the edges: where a
/// stamp goes on the page as displayed. `--offset` takes two lengths (pt, mm,
/// cm, in), +X right and +Y up.
func parsePlacement(
    position: StampPosition, offset: String?, margin: Double = 0
) throws(PDFEditError) -> StampPlacement {
    var placement = StampPlacement(position: position, margin: margin)
    if let offset {
        let values = try parseLengths(offset, option: "--offset")
        guard values.count == 2 else {
            throw PDFEditError.usage("--offset takes X,Y (two lengths, +X right, +Y up), not \"\(offset)\"")
        }
        placement.offsetX = values[0]
        placement.offsetY = values[1]
    }
    guard margin >= 0 else { throw PDFEditError.usage("--margin takes a length of at least 0") }
    return placement
}

/// `--size PT` of a generated stamp: a length above 0 and at most 1000 pt.
func parseTextSize(_ text: String) throws(PDFEditError) -> Double {
    let size = try parseLength(text, option: "--size")
    guard size > 0, size <= TextMark.maximumSize else {
        throw PDFEditError.usage("--size takes a size above 0 and at most 1000 pt, not \"\(text)\"")
    }
    return size
}

/// The help of a text stamp's `--font`.
let fontHelp = ArgumentHelp(
    "helvetica, times, courier (standard fonts, nothing embedded), an installed font (\"DejaVu Serif:bold\") or a font file.",
    valueName: "FONT")

let colorHelp = ArgumentHelp(
    "The text's colour: a name (red), #rrggbb, or CMYK for print as c,m,y,k (0,1,1,0).", valueName: "COLOUR")
let backgroundHelp = ArgumentHelp("A box of this colour behind the text (for legibility on photos).", valueName: "COLOUR")
let outlineHelp = ArgumentHelp("A border of this colour around the text's box.", valueName: "COLOUR")

/// The help of `--position` (ArgumentParser adds the values and the command's default).
let positionHelp = ArgumentHelp("Where on the page as displayed.", valueName: "P")

let offsetHelp = ArgumentHelp(
    "Move it X right and Y up from there (pt, or with mm/cm/in; -10,5mm).", valueName: "X,Y")

/// `--font`, `--color`, `--background`, `--outline`: how `number`, `bates` and
/// `watermark` draw their text.
struct TextLookOptions: ParsableArguments {
    @Option(name: .long, help: fontHelp)
    var font = "helvetica"

    @Option(name: .long, help: colorHelp)
    var color: String?

    @Option(name: .long, help: backgroundHelp)
    var background: String?

    @Option(name: .long, help: outlineHelp)
    var outline: String?

    /// The font (checked: installed, or a font file) and colours, on `mark`.
    func apply(to mark: inout TextMark) throws(PDFEditError) {
        try TextFonts.apply(font, to: &mark)
        mark.color = try parseColor(color, option: "--color")
        mark.background = try parseColor(background, option: "--background")
        mark.outline = try parseColor(outline, option: "--outline")
    }
}
