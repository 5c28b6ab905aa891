import ArgumentParser
import PDFEditKit
import PageModel

/// `--box crop|trim|bleed|art`.
extension PageBoxKind: ExpressibleByArgument {}

struct Crop: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "crop",
        abstract: "Set the visible box of pages (CropBox, or the trim, bleed or art box); content is kept.",
        discussion: """
            --margins are measured on the page as displayed (a rotated page's top is the reader's top), \
            inward from what is visible now: one value for all sides, two for top/bottom and left/right, \
            four for top, right, bottom, left; units pt (default), mm, cm, in; negative values add margin. \
            --rect X0,Y0,X1,Y1 is absolute, in the page's own (unrotated) user space. --reset gives the \
            page back the source's own box. --auto crops to the ink of the page (what is \
            darker than 78 % grey, found by rendering it at low resolution and then refining the edges; \
            a light threshold, so scanned paper counts as white), plus --pad; pages without ink are left \
            as they are. One of --margins, --rect, --auto, --reset is required.

            Examples:
              pdfedit crop all --margins 36
              pdfedit crop 1..4 --margins 10mm,15mm
              pdfedit crop 2 --rect 0,0,300,400
              pdfedit crop all --margins -18 --box bleed
              pdfedit crop all --auto --pad 12
              pdfedit crop all --reset
              pdfedit crop odd --margins 0,40,0,0 scan.pdf -o trimmed.pdf
            """)

    @Argument(help: "The pages to crop.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    // `.unconditional` so that `--margins -18` is read as a value, not as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Margins as displayed: T | TB,LR | T,R,B,L.", valueName: "lengths"))
    var margins: String?

    @Option(name: .long, help: ArgumentHelp("An absolute box in user space.", valueName: "x0,y0,x1,y1"))
    var rect: String?

    @Flag(name: .long, help: "Back to the source's own box.")
    var reset = false

    @Flag(name: .long, help: "To the ink of the page, found by rendering it.")
    var auto = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("With --auto: room left around the ink.", valueName: "length"))
    var pad: String?

    @Option(name: .long, help: "The box to set.")
    var box: PageBoxKind = .crop

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let given = [margins != nil, rect != nil, reset, auto].filter { $0 }.count
        guard given == 1 else {
            throw PDFEditError.usage("crop takes exactly one of --margins, --rect, --auto, --reset")
        }
        guard pad == nil || auto else { throw PDFEditError.usage("--pad goes with --auto") }
        let spec: CropSpec
        if auto {
            spec = .auto(pad: try pad.map { text throws(PDFEditError) in try parseLength(text, option: "--pad") } ?? 0)
        } else if let margins {
            let values = try parseLengths(margins, option: "--margins")
            guard let parsed = Margins(values: values) else {
                throw PDFEditError.usage("--margins takes 1, 2 or 4 lengths, not \(values.count)")
            }
            spec = .margins(parsed)
        } else if let rect {
            let values = try parseLengths(rect, option: "--rect")
            guard values.count == 4 else { throw PDFEditError.usage("--rect takes 4 numbers: x0,y0,x1,y1") }
            spec = .rect(BoxRect(x0: values[0], y0: values[1], x1: values[2], y1: values[3]))
        } else {
            spec = .reset
        }
        return .crop(try selecting.parse(selection), spec, box: box)
    }
}
