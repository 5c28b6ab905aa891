#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Session {
    /// `number`, `bates`, `watermark`: a generated text stamp added after the
    /// stamps each selected item already has, with a run of its own (so its
    /// `{n}` counts only the items this command stamped). Any Unicode text is
    /// taken: what the standard fonts cannot encode is drawn in a real font at
    /// export (see `TextMark.needsShaping`).
    mutating func executeTextStamp(
        _ selection: PageSelection, _ stamp: Stamp, in name: String, context: EditContext
    ) throws(EditError) -> EditOutcome {
        let document = try requireDocument(name)
        let selected = try resolve(selection, in: document, context: context)
        guard var mark = stamp.text else { throw .invalidContent("a page stamp is made by stamp") }
        guard Stamp.isValidOpacity(stamp.opacity) else { throw .invalidOpacity(stamp.opacity) }
        if let problem = mark.commandProblem { throw .invalidTextStamp(problem) }
        guard stamp.placement.isValid else {
            throw .invalidTextStamp("offset and margin must be finite, the margin not negative")
        }
        mark.run = (documents.map(\.highestTextRun).max() ?? 0) + 1
        var placed = stamp
        placed.content = .text(mark)

        let changes: [Change] = groupedByStamps(selected, in: document).map { before, indices in
            .restamp(document: name, at: IndexRuns(ascending: indices), from: before, to: before + [placed])
        }
        try commit(changes)

        let result = try requireDocument(name)
        let what: String =
            switch mark.kind {
            case .number: "numbered"
            case .bates: "Bates-numbered"
            case .watermark: "watermarked"
            }
        var how = [placed.under ? "under" : "over", placed.placement.description]
        if placed.opacity != 1 { how.append("opacity \(Stamp.percent(placed.opacity))") }
        return EditOutcome(
            changes: changes,
            summary: ChangeSummary(
                action: mark.kind.rawValue,
                description: "\(what) \(countPhrase(selected.count, "page")) with \"\(mark.format)\" "
                    + "(\(how.joined(separator: ", "))) (\(pagesPhrase(result.pageCount)))",
                document: name, pageCount: result.pageCount, positions: selected.map { $0 + 1 },
                ids: selected.map { result.items[$0].id }))
    }
}
