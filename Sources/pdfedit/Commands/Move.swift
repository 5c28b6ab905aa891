import ArgumentParser
import PDFEditKit
import PageModel

struct Move: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move pages as one block to another position (or document).",
        discussion: """
            The selected items are taken out and put back as one block in their current
            order, so that the first of them ends at position N of the result.

            Examples (a 7-page document):
              pdfedit move 3..5 --to 1          # 3 4 5 1 2 6 7
              pdfedit move 1,3 --to 4           # 2 4 5 1 3 6 7
              pdfedit move last --after 2
              pdfedit move 1..2 --to 1 --into appendix
              pdfedit move 3..5 --to 1 in.pdf -o out.pdf
            """)

    @OptionGroup var block: BlockArguments
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { block.directInput }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let (selection, target, into) = try block.parsed()
        return .move(selection, to: target, into: into)
    }
}

struct Copy: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy pages as one block to a position (or another document).",
        discussion: """
            Like move, but the originals stay; the copies are new items with new ids.

            Examples:
              pdfedit copy 1 --to last
              pdfedit copy 2..3 --to 1 --into handout
              pdfedit copy 1 --to last in.pdf -o out.pdf
            """)

    @OptionGroup var block: BlockArguments
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }
    var directInput: String? { block.directInput }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let (selection, target, into) = try block.parsed()
        return .copy(selection, to: target, into: into)
    }
}

/// What move and copy take: the items, where the block goes, and into which document.
struct BlockArguments: ParsableArguments {
    @Argument(help: "The pages (selection: 3, 2..5, last, odd, @p7, text:WORDS …).")
    var selection: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @OptionGroup var destination: DestinationOptions

    @Option(name: .long, help: "Into this document (N and P are then its positions).")
    var into: String?

    func parsed() throws(PDFEditError) -> (PageSelection, Destination, String?) {
        guard let target = try destination.destination(required: true) else { throw PDFEditError.usage("no destination") }
        return (try parseSelection(selection), target, into)
    }
}

struct Duplicate: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicate",
        abstract: "Copy each selected page right after itself.",
        discussion: """
            Examples:
              pdfedit duplicate 2            # 1 2 2' 3 …
              pdfedit duplicate odd in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to duplicate.")
    var selection: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .duplicate(try parseSelection(selection))
    }
}

struct Remove: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove pages.",
        discussion: """
            Examples:
              pdfedit remove 2,4..5
              pdfedit remove even in.pdf -o odd-pages.pdf
            """)

    @Argument(help: "The pages to remove.")
    var selection: String

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .remove(try parseSelection(selection))
    }
}

struct Rotate: EditCommand {
    static let configuration = CommandConfiguration(
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

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    // `.unconditional` so that `--by -90` is read as a value, not as an option.
    @Option(name: .long, parsing: .unconditional, help: "Degrees clockwise: 90, 180, 270 or -90.")
    var by: Int

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let turns: Int
        do throws(EditError) { turns = try Edit.quarterTurns(degrees: by) } catch { throw PDFEditError.edit(error) }
        return .rotate(try parseSelection(selection), quarterTurns: turns)
    }
}

struct Reverse: EditCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse",
        abstract: "Reverse the order of pages (the selected ones swap places among their own slots).",
        discussion: """
            Examples:
              pdfedit reverse                 # the whole document
              pdfedit reverse 2..5
              pdfedit reverse all in.pdf -o out.pdf
            """)

    @Argument(help: "The pages to reverse (default: all; required in direct mode).")
    var selection: String?

    @Argument(help: ArgumentHelp("Direct mode: the PDF to edit (with -o or --in-place).", valueName: "file"))
    var directInput: String?

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .reverse(try selection.map(parseSelection) ?? .all)
    }
}
