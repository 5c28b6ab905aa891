#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// How `export --split` cuts the exported items into files.
public enum SplitGrouping: Sendable, Equatable {
    /// One file per item (the default).
    case each
    /// One file per K items (the last one may be shorter).
    case every(Int)
    /// One file per bookmark of the exported order at a level up to
    /// `SplitRequest.outlineLevel` (1: top-level), from the item it points at
    /// up to the next one's; items before the first bookmark form a part of
    /// their own titled "front".
    case atOutlines
    /// A new part at each selected item (`--at SEL`); items before the first
    /// one form the first part. `drop`: the selected items are left out, and a
    /// part left empty is not written.
    case at(PageSelection, drop: Bool)
}

/// One file of a split export, before it has a name.
struct SplitPart: Equatable {
    var items: Range<Int>
    var title: String?
}

/// The parts of a split of `count` items. Pure, so that naming can be checked alone.
/// `selected`: the exported items `--at` picked (0-based, in the exported order).
func splitParts(
    count: Int, grouping: SplitGrouping, outlineStarts: [OutlineStart], selected: Set<Int> = []
) throws(PDFEditError) -> [SplitPart] {
    switch grouping {
    case .at(_, let drop):
        var parts: [SplitPart] = []
        var start = 0
        for index in 0..<count where selected.contains(index) {
            if index > start { parts.append(SplitPart(items: start..<index, title: nil)) }
            start = drop ? index + 1 : index
        }
        if count > start { parts.append(SplitPart(items: start..<count, title: nil)) }
        guard !parts.isEmpty else {
            throw PDFEditError.notExportable("--at … --drop leaves no page to write")
        }
        return parts
    case .each:
        return (0..<count).map { SplitPart(items: $0..<($0 + 1), title: nil) }
    case .every(let size):
        guard size >= 1 else { throw PDFEditError.usage("--every takes a number of pages ≥ 1, not \(size)") }
        return stride(from: 0, to: count, by: size).map { SplitPart(items: $0..<min(count, $0 + size), title: nil) }
    case .atOutlines:
        // A bookmark that points at the same item as the one before starts no
        // new part (the first in outline order names it: a chapter, not its
        // first section).
        var starts: [(Int, String)] = []
        let ordered = outlineStarts.enumerated().sorted {
            ($0.element.itemIndex, $0.offset) < ($1.element.itemIndex, $1.offset)
        }
        for start in ordered.map(\.element) where start.itemIndex < count && starts.last?.0 != start.itemIndex {
            starts.append((start.itemIndex, start.title))
        }
        guard !starts.isEmpty else {
            throw PDFEditError.notExportable("--at-outlines: the exported pages have no bookmarks to split at")
        }
        if starts[0].0 > 0 { starts.insert((0, "front"), at: 0) }
        return starts.enumerated().map { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].0 : count
            return SplitPart(items: start.0..<end, title: start.1)
        }
    }
}

/// A `--name` template, read once for all parts. Placeholders: `{n}` (part
/// number, zero-padded to the width of the part count), `{first}`, `{last}`
/// (positions in the document), `{id}`, `{src}` (source file stem), `{srcpage}`
/// (page in its source) of the part's first item, `{doc}`, `{title}` (bookmark
/// parts). A name without `.pdf` at its end gets it; `/` and control characters
/// in filled-in values become `_`; a template whose own text has a control
/// character is refused. `render` names its images with the same template
/// (`option` "-o", no extension added, no `{title}`).
struct PartNameTemplate {
    private enum Piece {
        case text(String)
        case value(String)
    }

    private let pieces: [Piece]
    private let template: String
    /// The option the template came with, in messages.
    private let option: String
    /// The extension a name gets when it lacks it (nil: none is added).
    private let fileExtension: String?

    /// Whether the template has a field at all (else every name is the same).
    var hasFields: Bool { pieces.contains { if case .value = $0 { true } else { false } } }

    /// The fields of `render`'s `-o` (a part's, without `{title}`).
    static let imageFields: Set<String> = keys.subtracting(["title"])

    init(
        _ template: String, option: String = "--name", fileExtension: String? = "pdf", fields: Set<String> = keys
    ) throws(PDFEditError) {
        self.template = template
        self.option = option
        self.fileExtension = fileExtension
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw PDFEditError.usage("\(option): \"{\" without \"}\" in \"\(template)\"")
            }
            let key = String(rest[rest.index(after: open)..<close])
            guard fields.contains(key) else {
                let known = ["n", "first", "last", "id", "doc", "src", "srcpage", "title"].filter(fields.contains)
                throw PDFEditError.usage(
                    "\(option): unknown placeholder {\(key)}; use " + known.map { "{\($0)}" }.joined(separator: " "))
            }
            pieces.append(.value(key))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self.pieces = pieces
    }

    /// Line breaks and other control characters: never part of a file name a
    /// template makes (a filled-in value has them replaced by `_`, the template's
    /// own text is refused).
    private static func isControl(_ character: Character) -> Bool {
        character.isNewline || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether `text` is printable ASCII without "/": then nothing in it needs
    /// the checks above, which walk Characters (grapheme breaking: naming the
    /// parts took 3% of a 2,000-part burst's instructions).
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }
    }

    /// Whether `name` ends in ".pdf" in any case.
    private static func endsInPDF(_ name: String) -> Bool {
        let tail = Array(name.utf8.suffix(4))
        return tail.count == 4 && tail[0] == UInt8(ascii: ".") && (tail[1] | 0x20) == UInt8(ascii: "p")
            && (tail[2] | 0x20) == UInt8(ascii: "d") && (tail[3] | 0x20) == UInt8(ascii: "f")
    }

    static let keys: Set<String> = ["n", "first", "last", "id", "doc", "src", "srcpage", "title"]

    /// The file name of one part.
    func name(
        number: Int, partCount: Int, first: Int, last: Int, item: PageItem, document: String, sourcePath: String?,
        title: String?
    ) throws(PDFEditError) -> String {
        var name = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                name += text
            case .value(let key):
                let value: String
                switch key {
                case "n":
                    let digits = String(number)
                    value = String(repeating: "0", count: max(0, String(partCount).count - digits.count)) + digits
                case "first": value = String(first)
                case "last": value = String(last)
                case "id": value = item.id.description
                case "doc": value = document
                case "src": value = sourcePath.map(Paths.stem(of:)) ?? item.content.kindName
                case "srcpage":
                    if case .page(_, let page) = item.content { value = String(page) } else { value = "" }
                default: value = title ?? ""
                }
                if !Self.isPlainASCII(value) && value.contains(where: { $0 == "/" || Self.isControl($0) }) {
                    name += value.map { $0 == "/" || Self.isControl($0) ? "_" : String($0) }.joined()
                } else {
                    name += value
                }
            }
        }
        if name.hasPrefix(".") || name.isEmpty
            || (!Self.isPlainASCII(name) && (name.contains("/") || name.contains(where: Self.isControl)))
        {
            throw PDFEditError.usage(
                "\(option) gives \"\(name)\" for part \(number): a part needs a plain file name")
        }
        guard let fileExtension else { return name }
        if fileExtension == "pdf" { return Self.endsInPDF(name) ? name : name + ".pdf" }
        return name.lowercased().hasSuffix("." + fileExtension) ? name : name + "." + fileExtension
    }
}

/// Fills a `--name` template for one part (see `PartNameTemplate`).
func partName(
    template: String, number: Int, partCount: Int, first: Int, last: Int, item: PageItem, document: String,
    sourcePath: String?, title: String?
) throws(PDFEditError) -> String {
    try PartNameTemplate(template).name(
        number: number, partCount: partCount, first: first, last: last, item: item, document: document,
        sourcePath: sourcePath, title: title)
}

/// What `export --split` needs besides the items.
package struct SplitRequest: Sendable {
    /// The folder the parts go to (created when missing).
    package var directory: String
    /// How the items are cut into parts.
    package var grouping: SplitGrouping
    /// nil: `{doc}-{n}.pdf`, or `{n}-{title}.pdf` with `--at-outlines`.
    package var template: String?
    /// `--at-outlines --level L`: parts start at bookmarks of level 1…L (1: top-level).
    package var outlineLevel: Int
    /// `--max-size`: every part is cut further into parts as large as possible
    /// whose files are at most this many bytes (measured by writing them).
    package var maxSize: Int64?

    /// A split into `directory`, cut by `grouping` (at bookmarks down to
    /// `outlineLevel`), each part at most `maxSize` bytes, named by `template`
    /// (nil: the default names).
    package init(
        directory: String, grouping: SplitGrouping, template: String?, outlineLevel: Int = 1, maxSize: Int64? = nil
    ) {
        self.directory = directory
        self.grouping = grouping
        self.template = template
        self.outlineLevel = outlineLevel
        self.maxSize = maxSize
    }
}

extension ExportWriter {
    /// `export --split DIR`: one file per part, named by the template.
    func split(
        _ items: [PageItem], positions: [Int], document name: String, request: SplitRequest, settings: ExportSettings
    ) throws(PDFEditError) -> [ExportResult] {
        guard !items.isEmpty else { throw PDFEditError.notExportable("document \"\(name)\" is empty: nothing to export") }
        let starts = try outlineStarts(items, document: name, request: request, settings: settings)
        var selected: Set<Int> = []
        if case .at(let selection, _) = request.grouping, let document = session.document(named: name) {
            let picked = Set(try access.indices(of: selection, in: document).map { $0 + 1 })
            selected = Set(positions.indices.filter { picked.contains(positions[$0]) })
        }
        var parts = try splitParts(
            count: items.count, grouping: request.grouping, outlineStarts: starts, selected: selected)
        if let maxSize = request.maxSize {
            // Alone, --max-size cuts the whole export; with a grouping, each of its parts.
            if request.grouping == .each { parts = [SplitPart(items: 0..<items.count, title: nil)] }
            parts = try cutToSize(
                parts, maxSize: maxSize, items: items, positions: positions, document: name,
                directory: request.directory, settings: settings)
        }
        let template = try PartNameTemplate(
            request.template ?? (request.grouping == .atOutlines ? "{n}-{title}.pdf" : "{doc}-{n}.pdf"))
        var named: [(items: Range<Int>, output: String)] = []
        named.reserveCapacity(parts.count)
        // A file name has no "/" (checked by the template), so joining is appending.
        let directory = Paths.folderPrefix(request.directory)
        var sourcePaths: [SourceID: String?] = [:]
        for (index, part) in parts.enumerated() {
            let first = items[part.items.lowerBound]
            var sourcePath: String? = nil
            if let id = first.content.source {
                if let known = sourcePaths[id] {
                    sourcePath = known
                } else {
                    sourcePath = session.source(id)?.path
                    sourcePaths[id] = sourcePath
                }
            }
            let file = try template.name(
                number: index + 1, partCount: parts.count,
                first: positions[part.items.lowerBound], last: positions[part.items.upperBound - 1], item: first,
                document: name, sourcePath: sourcePath, title: part.title)
            named.append((part.items, directory + file))
        }
        return try writeParts(items, document: name, parts: named, positions: positions, settings: settings)
    }
}

extension ExportWriter {
    /// Where `--at-outlines` parts start: each bookmark of level 1…`outlineLevel`
    /// at the first exported item of its subtree (itself or an entry below it).
    func outlineStarts(
        _ items: [PageItem], document name: String, request: SplitRequest, settings: ExportSettings
    ) throws(PDFEditError) -> [OutlineStart] {
        guard request.grouping == .atOutlines else { return [] }
        guard request.outlineLevel >= 1 else {
            throw PDFEditError.usage("--level takes an outline level ≥ 1, not \(request.outlineLevel)")
        }
        // Where the parts start is the document's own bookmarks, whatever
        // `--outline` makes each part write (`none` too).
        if let document = session.document(named: name),
            let outline = session.exportedOutline(of: document, items: items, policy: .keep)
        {
            return Self.starts(of: outline, levels: request.outlineLevel)
        }
        // An older session's document without an outline of its own: the sources' top level.
        guard request.outlineLevel == 1 else {
            throw PDFEditError.notExportable(
                "--level \(request.outlineLevel): document \"\(name)\" has no bookmarks of its own yet "
                    + "(an older session); run `pdfedit outline` once, or split at level 1")
        }
        let plan = try plan(items, document: name, settings: settings)
        do throws(EngineError) {
            return try PDFExporter.outlineStarts(sources: plan.sources, items: plan.items)
        } catch {
            throw PDFEditError.engine(error)
        }
    }

    /// The entries of a flattened outline at levels below `levels` (0-based),
    /// each at the first item of its subtree; entries reaching no item are left out.
    static func starts(of outline: [ExportedOutlineEntry], levels: Int) -> [OutlineStart] {
        var starts: [OutlineStart] = []
        for (index, entry) in outline.enumerated() where entry.level < levels {
            var first = entry.item
            var below = index + 1
            while below < outline.count, outline[below].level > entry.level {
                if let item = outline[below].item { first = min(first ?? item, item) }
                below += 1
            }
            if let first { starts.append(OutlineStart(title: entry.title, itemIndex: first)) }
        }
        return starts
    }
}
