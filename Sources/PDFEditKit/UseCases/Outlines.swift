#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// One bookmark as `outline --json` shows it and `outline import` reads it:
/// `{"title", "position", "id", "children"}`; a heading has `position` and `id` null.
package struct OutlineListing: Codable, Equatable, Sendable {
    package var title: String
    /// 1-based position of its item in the document's current order.
    package var position: Int?
    package var id: ItemID?
    package var children: [OutlineListing]

    package init(title: String, position: Int?, id: ItemID?, children: [OutlineListing] = []) {
        self.title = title
        self.position = position
        self.id = id
        self.children = children
    }

    enum CodingKeys: String, CodingKey { case title, position, id, children }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        position = try container.decodeIfPresent(Int.self, forKey: .position)
        id = try container.decodeIfPresent(ItemID.self, forKey: .id)
        children = try container.decodeIfPresent([OutlineListing].self, forKey: .children) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(position, forKey: .position)
        try container.encode(id, forKey: .id)
        try container.encode(children, forKey: .children)
    }

    /// `outline` as listings: positions in `document`'s current order.
    package static func listing(_ outline: [OutlineEntry], in document: Document) -> [OutlineListing] {
        var positions: [ItemID: Int] = [:]
        for (index, item) in document.items.enumerated() { positions[item.id] = index + 1 }
        func convert(_ entries: [OutlineEntry]) -> [OutlineListing] {
            entries.map { entry in
                OutlineListing(
                    title: entry.title, position: entry.target.flatMap { positions[$0] }, id: entry.target,
                    children: convert(entry.children))
            }
        }
        return convert(outline)
    }

    /// The entries as `outline import` takes them: the position (else the id) of each.
    package static func drafts(_ listings: [OutlineListing]) -> [OutlineDraft] {
        listings.map { listing in
            OutlineDraft(
                title: listing.title, position: listing.position.map { .number($0) } ?? listing.id.map { .item($0) },
                children: drafts(listing.children))
        }
    }
}

/// The two forms of an outline file: the JSON of `outline --json`, and the
/// indented text form, one entry per line, `TITLE<TAB>POSITION` (no tab: a
/// heading), two spaces of indent per level.
package enum OutlineFile {
    /// How many levels the text form may nest (`Limits.treeDepth`).
    static var depthLimit: Int { min(ProcessLimits.current.treeDepth, OutlineLimits.maximumDepth) }

    /// The JSON `outline --json` prints and `outline export` writes (pretty, sorted keys, a final newline).
    package static func json(_ listings: [OutlineListing]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(listings)) ?? Data("[]".utf8)) + Data("\n".utf8)
    }

    /// The text form (what `outline` prints).
    package static func text(_ listings: [OutlineListing]) -> String {
        var lines: [String] = []
        func walk(_ entries: [OutlineListing], depth: Int) {
            for entry in entries {
                let title = String(entry.title.map { $0 == "\t" || $0.isNewline ? " " : $0 })
                lines.append(String(repeating: "  ", count: depth) + title + (entry.position.map { "\t\($0)" } ?? ""))
                walk(entry.children, depth: depth + 1)
            }
        }
        walk(listings, depth: 0)
        return lines.map { $0 + "\n" }.joined()
    }

    /// Reads `path` as entries to import: JSON when its name ends in `.json` or
    /// its first character is `[` or `{` (an object is not an outline: refused
    /// like any malformed JSON, never read as a heading titled `{bad json`),
    /// else the text form.
    package static func read(_ path: String) throws(PDFEditError) -> [OutlineDraft] {
        guard Files.exists(path) else { throw .engine(.missing(file: path)) }
        ReadFiles.note(path, as: "the outline file")
        guard let data = Files.contents(path).map({ Data($0) }) else {
            throw .engine(.unreadable(file: path, reason: "permission denied"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .usage("\(path): an outline file is UTF-8 text")
        }
        let first = text.drop(while: { $0.isWhitespace }).first
        if first == "[" || first == "{" || path.lowercased().hasSuffix(".json") {
            do {
                return OutlineListing.drafts(try JSONDecoder().decode([OutlineListing].self, from: data))
            } catch {
                throw .usage("\(path): not an outline in JSON ([{\"title\", \"position\", \"id\", \"children\"}])")
            }
        }
        return try parseText(text, name: path)
    }

    /// The indented text form as entries; a wrong line is named (64).
    package static func parseText(_ text: String, name: String) throws(PDFEditError) -> [OutlineDraft] {
        // (depth, draft) pairs, then folded into a tree.
        var flat: [(depth: Int, draft: OutlineDraft)] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.trimmingSpaces().isEmpty { continue }
            let spaces = line.prefix { $0 == " " }.count
            let where_ = "\(name): line \(offset + 1)"
            guard spaces % 2 == 0 else { throw .usage("\(where_): indent by two spaces per level") }
            let depth = spaces / 2
            guard depth <= (flat.last.map { $0.depth + 1 } ?? 0) else {
                throw .usage("\(where_): indented more than one level below the line before")
            }
            guard depth < depthLimit else { throw .usage("\(where_): more than \(depthLimit) levels") }
            let body = line.dropFirst(spaces)
            let title: Substring
            var position: Position?
            if let tab = body.lastIndex(of: "\t") {
                title = body[..<tab]
                let token = String(body[body.index(after: tab)...]).trimmingSpaces()
                if token != "" && token != "-" {
                    do throws(SelectionError) { position = try Position.parse(token) } catch {
                        throw .usage("\(where_): \(error)")
                    }
                }
            } else {
                title = body
            }
            flat.append((depth, OutlineDraft(title: String(title), position: position)))
        }
        var index = 0
        func children(depth: Int) -> [OutlineDraft] {
            var result: [OutlineDraft] = []
            while index < flat.count, flat[index].depth == depth {
                var draft = flat[index].draft
                index += 1
                draft.children = children(depth: depth + 1)
                result.append(draft)
            }
            return result
        }
        return children(depth: 0)
    }
}

extension SourceAccess {
    /// The bookmarks of every PDF source of a document that has no outline in
    /// the model yet (a document of an older session), for it to adopt; empty
    /// when every document has one.
    func outlinesToAdopt(_ session: Session) throws(PDFEditError) -> [SourceOutline] {
        let legacy = session.documents.filter { $0.outline == nil }
        var ids: [SourceID] = []
        for document in legacy {
            for item in document.items {
                if case .page(let id, _) = item.content, !ids.contains(id) { ids.append(id) }
            }
        }
        var outlines: [SourceOutline] = []
        for id in ids {
            let opened = try document(id)
            let entries: [SourceOutlineEntry]
            do throws(EngineError) { entries = try opened.outline() } catch { throw .engine(error) }
            if !entries.isEmpty { outlines.append(SourceOutline(source: id, entries: entries)) }
        }
        return outlines
    }

    /// `edit` with the sources' bookmarks a legacy document adopts, when it is an
    /// outline edit and some document needs them.
    func adopting(_ edit: Edit, session: Session) throws(PDFEditError) -> Edit {
        guard case .outline(let change, nil) = edit, session.documents.contains(where: { $0.outline == nil }) else {
            return edit
        }
        return .outline(change, sources: try outlinesToAdopt(session))
    }

    /// The outline of `document` as export will write it with `--outline keep`:
    /// the model's, or for a legacy document its sources' (read now, not saved).
    func outline(of document: Document, in session: Session) throws(PDFEditError) -> [OutlineEntry] {
        if let outline = document.outline { return outline }
        return session.adoptedOutline(of: document, from: try outlinesToAdopt(session))
    }
}

extension PageEditor {
    /// `outline [--doc DOC]`: the document's bookmarks, positions in its current order.
    package func outline(doc: String?) throws(PDFEditError) -> (document: String, entries: [OutlineListing]) {
        let (name, entries, _) = try outlineAndChecks(doc: doc, force: false)
        return (name, entries)
    }

    /// The listing, and the checks an output written beside the session passes.
    private func outlineAndChecks(doc: String?, force: Bool) throws(PDFEditError)
        -> (document: String, entries: [OutlineListing], checks: OutputChecks)
    {
        let name = doc ?? session.current
        guard let document = session.document(named: name) else {
            throw .edit(.unknownDocument(name, known: session.documents.map(\.name)))
        }
        let access = access
        let outline = try access.outline(of: document, in: session)
        let checks = OutputChecks(
            sources: session.sources.map { access.absolutePath($0.path) }, protected: protectedFiles, force: force)
        return (name, OutlineListing.listing(outline, in: document), checks)
    }

    /// `outline export FILE`: writes the JSON of `outline --json` to `path`
    /// (an existing file only with `force`).
    /// Like every output: never over a source or the session's own files, nothing
    /// but a regular file replaced, written atomically (`OutputChecks`, `StagedOutput`).
    package func exportOutline(doc: String?, to path: String, force: Bool) throws(PDFEditError) -> Int {
        var (_, entries, checks) = try outlineAndChecks(doc: doc, force: force)
        try checks.check(path)
        let staged = StagedOutput(path)
        try staged.write(OutlineFile.json(entries), sync: true)
        try staged.commit(syncFolder: true)
        func count(_ entries: [OutlineListing]) -> Int { entries.reduce(0) { $0 + 1 + count($1.children) } }
        return count(entries)
    }
}
