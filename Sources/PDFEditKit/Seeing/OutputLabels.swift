import Glibc
import PageModel
internal import PDFEngine

/// The page labels an export writes for a document's items (with `--labels
/// keep`), by the one rule of `Document.outputLabelValues`: the document's own
/// ranges when it has them, else each page's label in its source (read with
/// qpdf, prefixes decoded by its one decoder of PDF text strings), blank pages
/// continuing the label before them. `list`, `show`, `find`, a stamp's
/// `{label}` and the export itself (`labelValues(for:)`) all ask here, so the
/// label shown is the label written.
struct OutputLabels {
    private let values: [ItemID: PageLabelValue]
    /// The document has ranges of its own (`labels`; none at all after `labels --clear`).
    private let own: Bool

    /// `opened`: sources this command already has open (direct mode), by path.
    init(document: Document, access: SourceAccess, opened: [String: OpenedPDF] = [:]) {
        own = document.labelRanges != nil
        var names: [SourceID: String] = [:]
        for source in Set(document.items.compactMap(\.content.source)) {
            names[source] = access.source(source).map { Paths.name(of: $0.path) }
        }
        fileNames = names
        values = document.outputLabelValues { source in
            access.pageLabels(of: source, opened: access.path(of: source).flatMap { opened[$0] })
        }
    }

    /// The label of `item` in the output; nil when it has none.
    func label(of item: PageItem) -> String? {
        values[item.id]?.text
    }

    /// The file names of the document's sources (`{file}`), by source.
    private let fileNames: [SourceID: String]

    /// The name of the file `item`'s page comes from, "" for a blank page.
    func fileName(of item: PageItem) -> String {
        item.content.source.flatMap { fileNames[$0] } ?? ""
    }

    /// The labels of `items` as the export passes them to the bridge (nil
    /// entries: no label; the bridge writes none when every one is nil); nil
    /// when no page of the document has a label to keep, so the output has no
    /// /PageLabels.
    func labelValues(for items: [PageItem]) -> [PageLabelValue?]? {
        own || !values.isEmpty ? items.map { values[$0.id] } : nil
    }
}

extension OutputLabels {
    /// The texts of `document`'s generated stamps (`number`, `bates`,
    /// `watermark`) by item, in each item's stamp order, as export writes them
    /// (`{label}` as `label(of:)` says): what `list`, `show` and export draw.
    func stampTexts(of document: Document) -> [ItemID: [String]] {
        var texts: [ItemID: [String]] = [:]
        let now = time(nil)
        let resolved = document.stampTexts(
            label: { label(of: document.items[$0]) }, file: { fileName(of: document.items[$0]) },
            date: { StampDate.format($0, at: now) })
        for (index, lines) in resolved {
            texts[document.items[index].id] = lines
        }
        return texts
    }

    static func stampTexts(of document: Document, access: SourceAccess) -> [ItemID: [String]] {
        OutputLabels(document: document, access: access).stampTexts(of: document)
    }
}

/// `{date}` and `{date:FORMAT}` of a text stamp: the export's local date as
/// strftime(3) writes it.
enum StampDate {
    /// The longest text one date field becomes.
    static let maximumLength = 200

    static func format(_ pattern: String, at time: time_t) -> String {
        var moment = time
        var parts = tm()
        guard localtime_r(&moment, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: maximumLength + 1)
        let written = strftime(&buffer, buffer.count, pattern, &parts)
        guard written > 0 else { return "" }
        return String(decoding: buffer.prefix(written).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
