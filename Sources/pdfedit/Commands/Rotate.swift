import ArgumentParser
import PDFEditKit
import PageModel

struct Rotate: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "rotate",
        abstract: "Rotate pages by quarter turns (relative to how they are shown now).",
        discussion: """
            The rotation composes with the page's own /Rotate.

            Examples:
              pdfedit rotate even --by 90
              pdfedit rotate 1 --by -90 in.pdf --in-place
            """)

    @Argument(help: "The pages to rotate.")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    // `.unconditional` so that `--by -90` is read as a value, not as an option.
    @Option(name: .long, parsing: .unconditional, help: "Degrees clockwise: 90, 180, 270 or -90.")
    var by: Int

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let turns: Int
        do throws(EditError) { turns = try Edit.quarterTurns(degrees: by) } catch { throw PDFEditError.edit(error) }
        return .rotate(try selecting.parse(selection), quarterTurns: turns)
    }
}
