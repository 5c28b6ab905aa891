internal import PDFEngine
import PageModel

/// What a text stamp's `--font` names: one of the standard fonts
/// (`helvetica`, `times`, `courier`: nothing embedded while Windows-1252 can
/// say the text), a font file (a value holding a `/` or ending `.ttf`, `.otf`,
/// `.ttc` or `.otc`; kept by absolute path), or an installed font by
/// fontconfig's name (`"Noto Sans"`, `"DejaVu Serif:bold"`).
package enum TextFonts {
    /// The endings that make a value without a `/` a font file.
    static let fileEndings = [".ttf", ".otf", ".ttc", ".otc"]

    /// Sets `mark`'s font from `value` (a relative file is taken from the
    /// current folder): a file that does not exist is refused (66), one
    /// FreeType cannot read (65), a family no installed font has (64).
    package static func apply(_ value: String, to mark: inout TextMark) throws(PDFEditError) {
        if let standard = StandardFont(rawValue: value.lowercased()) {
            mark.font = standard
            mark.fontName = nil
            return
        }
        let lowered = value.lowercased()
        if value.contains("/") || fileEndings.contains(where: { lowered.hasSuffix($0) }) {
            let absolute = Paths.absolute(value)
            guard Files.exists(absolute) else { throw PDFEditError.engine(.missing(file: value)) }
            if let problem = TextPicture.Font.file(absolute).problem {
                throw PDFEditError.engine(.unreadable(file: value, reason: problem))
            }
            mark.fontName = absolute
            return
        }
        if value.isEmpty { throw PDFEditError.usage("--font takes a font's name or file, not an empty text") }
        if let problem = TextPicture.Font.pattern(value).problem { throw PDFEditError.usage("--font: \(problem)") }
        mark.fontName = value
    }
}
