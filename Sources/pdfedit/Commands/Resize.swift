import ArgumentParser
import PDFEditKit
import PageModel

struct Resize: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "resize",
        abstract: "Put each page on a new paper size, its content scaled to fit (or fill) and centred.",
        discussion: """
            Each selected page becomes SIZE (MediaBox [0 0 W H]): what the page shows now — its \
            visible area, turned as it is displayed — is drawn upright on it, scaled keeping its \
            aspect ratio and centred: to fit inside (default, margins where the shapes differ) or, \
            with --fill, to cover the page (what overflows is cut off). Links, annotations and form \
            fields move with the content; links to the page still land on the same spot.

            SIZE is a4, a5, a3, a6, b5, letter, legal, tabloid (add -landscape, or l for the ISO \
            names: a4l), or WxH in points (units mm, cm, in accepted: 210x297mm).

            The page's rotation and crop are frozen into the resize: afterwards the page has no \
            rotation and no crop of its own, so a later rotate turns the new paper and a later crop \
            crops it. Resizing again re-fits what the page shows then to the new size (no margins \
            within margins). Blank pages become blank pages of SIZE. One undo step.

            Examples:
              pdfedit resize all --to a4
              pdfedit resize 2..5 --to a4-landscape --fill
              pdfedit resize all --to 210x297mm scans.pdf -o a4.pdf
            """)

    @Argument(help: "The pages to resize.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Option(name: .long, help: ArgumentHelp("The new page size (see above).", valueName: "SIZE"))
    var to: String

    @Flag(help: "Fit inside the page (default) or fill it, cutting off what overflows.")
    var mode: ResizeModeFlag = .fit

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        guard let size = try parseFitSize(to) else { throw PDFEditError.usage("--to takes a page size") }
        return .resize(try selecting.parse(selection), to: size, mode: mode.mode)
    }
}

/// `--fit` / `--fill`.
enum ResizeModeFlag: String, EnumerableFlag {
    case fit, fill

    var mode: ResizeMode { self == .fit ? .fit : .fill }

    static func help(for value: ResizeModeFlag) -> ArgumentHelp? {
        switch value {
        case .fit: "Scale to fit inside the page, keeping the aspect ratio."
        case .fill: "Scale to cover the page, keeping the aspect ratio; what overflows is cut off."
        }
    }
}
