#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// Where `apply` writes each file's result: a path with placeholders, filled in
/// for every input.
///
/// - `{name}`: the input's file name (`in/a.pdf` → `a.pdf`);
/// - `{stem}`: its name without the last extension (`a`);
/// - `{dir}`: its folder as given (`in`; `.` for a bare name);
/// - `{n}`: its 1-based place in the list of inputs (`1`, `2`, … not padded).
///
/// The result is used as it is (nothing appended), relative to the current
/// directory unless it starts with `/`. An unknown placeholder or a `{` without
/// `}` is refused when the template is read (64), before any file is touched.
package struct OutputTemplate: Sendable, Equatable {
    private enum Piece: Sendable, Equatable {
        case text(String)
        case field(Field)
    }

    private enum Field: String, Sendable, CaseIterable {
        case name, stem, dir, n
    }

    private let pieces: [Piece]
    /// The template as given.
    package let text: String

    /// Reads `text`; throws `.usage` (64) for an unknown `{…}`, an unclosed `{`,
    /// or an empty template.
    package init(_ text: String) throws(PDFEditError) {
        self.text = text
        guard !text.isEmpty else { throw PDFEditError.usage("-o: the output template is empty") }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw PDFEditError.usage("-o: \"{\" without \"}\" in \"\(text)\"")
            }
            let key = String(rest[rest.index(after: open)..<close])
            guard let field = Field(rawValue: key) else {
                throw PDFEditError.usage("-o: unknown placeholder {\(key)} in \"\(text)\"; use {name} {stem} {dir} {n}")
            }
            pieces.append(.field(field))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self.pieces = pieces
    }

    /// The output path of `input`, the `number`th input (1-based).
    package func path(for input: String, number: Int) -> String {
        pieces.map { piece -> String in
            switch piece {
            case .text(let text): return text
            case .field(.name): return Paths.name(of: input)
            case .field(.stem): return Paths.stem(of: input)
            case .field(.dir): return Paths.directory(of: input)
            case .field(.n): return String(number)
            }
        }.joined()
    }
}
