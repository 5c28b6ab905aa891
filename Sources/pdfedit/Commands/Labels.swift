import ArgumentParser
import PDFEditKit
import PageModel

struct Labels: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "labels",
        abstract: "Set the document's page labels (i ii iii, 1 2 3, App-A…), ranges that move with their pages.",
        discussion: """
            Each SPEC is P:STYLE[/START][/PREFIX]: a range starts at the item at P and runs
            until the next range. STYLE: D (1 2 3), r (i ii), R (I II), a (a b), A (A B),
            - (the prefix alone); START defaults to 1. Pages before the first range have
            no label. A range starts at an item, not a number: it moves with that page,
            and removing it moves the start to the next page of the range. `list` shows
            the labels export will write; `export --labels renumber|none` still applies.
            --clear removes the document's labels (export then writes none).

            Examples:
              pdfedit labels 1:r 5:D 40:A/1/App-     # i ii iii iv 1 2 … App-A App-B
              pdfedit labels 1:-//Cover 2:D
              pdfedit labels --clear
              pdfedit labels 1:r 5:D in.pdf -o out.pdf
            """)

    @Argument(help: "The ranges, P:STYLE[/START][/PREFIX] (in direct mode, followed by the PDF to edit).")
    var specs: [String] = []

    @Flag(name: .long, help: "Remove the document's page labels.")
    var clear = false

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    var directInput: String? { isDirect ? specs.last : nil }
    var ranges: [String] { isDirect ? Array(specs.dropLast()) : specs }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        if clear {
            guard ranges.isEmpty else { throw PDFEditError.usage("give ranges or --clear, not both") }
            return .labels(nil)
        }
        guard !ranges.isEmpty else { throw PDFEditError.usage("labels needs at least one SPEC, or --clear") }
        var parsed: [LabelSpec] = []
        for text in ranges {
            do throws(LabelSpecError) {
                parsed.append(try LabelSpec.parse(text))
            } catch {
                throw PDFEditError.usage(error.description)
            }
        }
        return .labels(parsed)
    }
}
