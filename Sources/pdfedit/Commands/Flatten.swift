import ArgumentParser
import PDFEditKit
import PageModel

/// `flatten annotations|forms`.
enum FlattenTarget: String, CaseIterable, ExpressibleByArgument {
    case annotations, forms
}

struct Flatten: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "flatten",
        abstract: "Make annotations or form fields part of the page content (at export).",
        discussion: """
            `flatten forms` draws each form field's appearance into its page and removes the field: \
            the values stay visible and printable and can no longer be changed. A field without an \
            appearance (or every field, when the form asks viewers to make them) gets one first, \
            from its value (text and choice fields). `flatten annotations` does the same for every \
            annotation that has an appearance (comments, highlights, stamps, form fields); links \
            without one stay links. Hidden annotations are removed without being drawn.

            In a session it is one undo step, carried out by export; only the selected pages \
            (default: all) are flattened, the others keep their annotations. In direct mode the \
            selection may be left out: `flatten forms in.pdf -o out.pdf` flattens every page.

            Examples:
              pdfedit flatten forms
              pdfedit flatten annotations 2..4
              pdfedit flatten forms filled.pdf -o final.pdf
              pdfedit flatten annotations 1 in.pdf --in-place
            """)

    @Argument(help: "What to flatten: annotations or forms.")
    var target: FlattenTarget

    @Argument(help: "The pages to flatten (default: all).")
    var selection: String?

    @Argument(help: .directModeFile)
    var file: String?

    @OptionGroup var selecting: SelectionOptions
    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    /// In direct mode a lone argument after the target is the file.
    var directInput: String? { DirectArguments.file(selection, file, direct: direct.isDirect) }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        let pages = try DirectArguments.selection(selection, file, direct: direct.isDirect).map(selecting.parse) ?? .all
        return .finish(pages, target == .forms ? .flattenForms : .flattenAnnotations)
    }
}

/// `flatten` and `strip` take `[SEL] [FILE]`: the selection may be left out in
/// direct mode too, where one argument is then the file.
enum DirectArguments {
    static func file(_ first: String?, _ second: String?, direct: Bool) -> String? {
        second ?? (direct ? first : nil)
    }

    static func selection(_ first: String?, _ second: String?, direct: Bool) -> String? {
        second != nil || !direct ? first : nil
    }
}
