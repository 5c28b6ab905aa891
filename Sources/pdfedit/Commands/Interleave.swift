import ArgumentParser
import PDFEditKit
import PageModel

struct Interleave: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "interleave",
        abstract: "Merge another document's pages alternately into this one.",
        discussion: """
            The result is 1, O1, 2, O2, … (the longer one's rest at the end); OTHER is
            left empty. --reverse takes OTHER from its end: duplex scans whose backs
            came out of the scanner last page first.

            Examples:
              pdfedit interleave backs --reverse
              pdfedit interleave backs.pdf --reverse fronts.pdf -o book.pdf
            """)

    @Argument(help: "The other document (in direct mode: a PDF file).")
    var other: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @Flag(name: .long, help: "Take OTHER's pages from its end.")
    var reverse = false

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var directDocuments: [String] { [other] }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        .interleave(other: building.otherDocuments.first ?? other, reversed: reverse)
    }
}
