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

/// `--size` of a generated stamp: a length above 0 and at most 1000 pt, as
/// seen (on a page with /UserUnit 10, 12 pt is 1.2 of its units), or a share
/// of the page's shorter side as displayed (`2%`, above 0 and at most 50%),
/// set on `mark`.
func applyTextSize(_ text: String, to mark: inout TextMark) throws(PDFEditError) {
    if let share = try parseShare(text, option: "--size", allowingZero: false) {
        mark.sizeShare = share
        return
    }
    let size = try parseLength(text, option: "--size")
    guard size > 0, size <= TextMark.maximumSize else {
        throw PDFEditError.usage("--size takes a size above 0 and at most 1000 pt (or 50%), not \"\(text)\"")
    }
    mark.size = size
    mark.sizeShare = nil
}

/// `--margin` of a generated stamp: a length of at least 0 (pt, mm, cm, in),
/// or a share of the page's shorter side as displayed (`3%`, at most 50%), set on `placement`.
func applyMargin(_ text: String, to placement: inout StampPlacement) throws(PDFEditError) {
    if let share = try parseShare(text, option: "--margin", allowingZero: true) {
        placement.marginShare = share
        placement.margin = 0
        return
    }
    let margin = try parseLength(text, option: "--margin")
    guard margin >= 0 else { throw PDFEditError.usage("--margin takes a length of at least 0") }
    placement.margin = margin
    placement.marginShare = nil
}

/// `N%` as a share (`2%`: 0.02) within (0 or above 0, 50%]; nil for a text without `%`.
private func parseShare(_ text: String, option: String, allowingZero: Bool) throws(PDFEditError) -> Double? {
    let trimmed = text.trimmingSpaces()
    guard trimmed.hasSuffix("%") else { return nil }
    let number = trimmed.dropLast()
    guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }), let percent = Double(number),
        percent.isFinite, allowingZero ? percent >= 0 : percent > 0, percent / 100 <= TextMark.maximumShare
    else {
        let least = allowingZero ? "0%" : "above 0%"
        throw PDFEditError.usage(
            "\(option) takes a percentage of the page's shorter side from \(least) to 50%, not \"\(text)\"")
    }
    return percent / 100
}

/// The help of a text stamp's `--font`.
let fontHelp = ArgumentHelp(
    "helvetica, times, courier (standard fonts, nothing embedded), an installed font (\"DejaVu Serif:bold\") or a font file.",
    valueName: "FONT")

let colorHelp = ArgumentHelp(
    "The text's colour: a name (red), #rrggbb, or CMYK for print as c,m,y,k (0,1,1,0).", valueName: "COLOUR")
let backgroundHelp = ArgumentHelp("A box of this colour behind the text (for legibility on photos).", valueName: "COLOUR")
let outlineHelp = ArgumentHelp("A border of this colour around the text's box.", valueName: "COLOUR")

/// The help of a text stamp's `--size` and `--margin`.
let textSizeHelp = ArgumentHelp(
    "The font size in points as seen (pt, mm, cm, in), or a share of the page's shorter side as displayed (2%).",
    valueName: "SIZE")
let marginHelp = ArgumentHelp(
    "Distance from the page's edges in points or with mm/cm/in, or a share of the page's shorter side (3%).",
    valueName: "L")

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
