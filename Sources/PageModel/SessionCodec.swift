#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The session file: pretty-printed JSON with sorted keys, a top-level
/// `version`, documents and history items written as runs (see `ItemRecord`),
/// and (format 6) the texts of the text stamps once each, in `"texts"`, which
/// the stamps name by index (see `StampTexts`).
struct SessionFile: Codable {
    var version: Int
    var current: String
    var nextItemNumber: Int
    var nextSourceNumber: Int
    var sources: [Source]
    var documents: [DocumentFile]
    var history: HistoryFile

    private enum CodingKeys: String, CodingKey {
        case version, current, nextItemNumber, nextSourceNumber, sources, documents, history, texts
    }

    init(
        version: Int, current: String, nextItemNumber: Int, nextSourceNumber: Int, sources: [Source],
        documents: [DocumentFile], history: HistoryFile
    ) {
        self.version = version
        self.current = current
        self.nextItemNumber = nextItemNumber
        self.nextSourceNumber = nextSourceNumber
        self.sources = sources
        self.documents = documents
        self.history = history
    }

    // The table of texts is read before anything that holds a stamp.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let texts = try container.decodeIfPresent([TextMark].self, forKey: .texts) {
            (decoder.userInfo[StampTexts.key] as? StampTexts)?.fill(texts)
        }
        version = try container.decode(Int.self, forKey: .version)
        current = try container.decode(String.self, forKey: .current)
        nextItemNumber = try container.decode(Int.self, forKey: .nextItemNumber)
        nextSourceNumber = try container.decode(Int.self, forKey: .nextSourceNumber)
        sources = try container.decode([Source].self, forKey: .sources)
        documents = try container.decode([DocumentFile].self, forKey: .documents)
        history = try container.decode(HistoryFile.self, forKey: .history)
    }

    // The table of texts is written after everything that holds a stamp, which
    // filled it.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(current, forKey: .current)
        try container.encode(nextItemNumber, forKey: .nextItemNumber)
        try container.encode(nextSourceNumber, forKey: .nextSourceNumber)
        try container.encode(sources, forKey: .sources)
        try container.encode(documents, forKey: .documents)
        try container.encode(history, forKey: .history)
        if let table = encoder.userInfo[StampTexts.key] as? StampTexts, !table.marks.isEmpty {
            try container.encode(table.marks, forKey: .texts)
        }
    }
}

/// The texts of a session's text stamps (`number`, `bates`, `watermark`), each
/// written once in the session file (format 6): a stamp holds `"text": 0`, the
/// index of its mark in the file's `"texts"`, instead of the mark itself, so
/// `watermark all --text …` on 2,000 pages stores its text once, not 2,000
/// times (a 100 KB text made a 201 MB session). Given to the encoder and
/// decoder of a session file in `userInfo`; without it (any other JSON) a
/// stamp holds its mark inline, as format 5 wrote it — which is still read.
final class StampTexts: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "pdfedit.stampTexts")!

    /// In order of first use (encoding) or as the file lists them (decoding).
    private(set) var marks: [TextMark] = []
    private var indices: [TextMark: Int] = [:]

    /// The index of `mark` in the table, added when new.
    func index(of mark: TextMark) -> Int {
        if let known = indices[mark] { return known }
        indices[mark] = marks.count
        marks.append(mark)
        return marks.count - 1
    }

    func mark(at index: Int) -> TextMark? {
        marks.indices.contains(index) ? marks[index] : nil
    }

    func fill(_ marks: [TextMark]) {
        self.marks = marks
    }
}

struct DocumentFile: Codable {
    var name: String
    var items: [ItemRecord]
    /// Absent: the sources' labels (version 2 files have none); []: no labels.
    var labelRanges: [LabelRange]?
    var metadata: DocumentMetadata?
    /// Absent in format 2 files (see `Document.outline`).
    var outline: [OutlineEntry]?
    /// The parts `strip` removes (format 7); absent: none.
    var stripped: [DocumentPart]?
    /// Absent before format 7, and when the document attaches nothing.
    var attachments: DocumentAttachments?
    /// How exports are written (`optimize`, format 8); absent: as each export asks.
    var optimize: OptimizeSettings?
}

struct HistoryFile: Codable {
    /// How many of the last steps are undone.
    var undone: Int
    var steps: [StepFile]
}

struct StepFile: Codable {
    var label: String
    var currentBefore: String
    var currentAfter: String
    var changes: [ChangeRecord]
}

/// Just enough to read the version before trusting the rest of the shape.
private struct VersionProbe: Decodable {
    var version: Int?
}

extension Session {
    /// The session as its file's bytes: human-readable, stable (sorted keys),
    /// compact (runs).
    package func encoded() throws -> Data {
        let file = SessionFile(
            version: version, current: current, nextItemNumber: nextItemNumber, nextSourceNumber: nextSourceNumber,
            sources: sources,
            documents: documents.map {
                DocumentFile(
                    name: $0.name, items: ItemRecord.records(for: $0.items), labelRanges: $0.labelRanges,
                    metadata: $0.metadata, outline: $0.outline, stripped: $0.stripped.isEmpty ? nil : $0.stripped,
                    attachments: $0.attachments, optimize: $0.optimize)
            },
            history: HistoryFile(
                undone: history.undoneCount,
                steps: history.steps.map { step in
                    StepFile(
                        label: step.label, currentBefore: step.currentBefore, currentAfter: step.currentAfter,
                        changes: step.changes.map(ChangeRecord.init))
                }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[StampTexts.key] = StampTexts()
        return try encoder.encode(file)
    }

    /// Reads a session file, checking its version first and every invariant
    /// after (unique ids, rotations 0…3, known sources, an existing current
    /// document…). Any problem is an error, never a trap.
    package static func decode(_ data: Data) throws(SessionFormatError) -> Session {
        let decoder = JSONDecoder()
        let probe: VersionProbe
        do {
            probe = try decoder.decode(VersionProbe.self, from: data)
        } catch {
            throw .malformedJSON(describe(error))
        }
        guard let version = probe.version else { throw .missingVersion }
        guard Session.readableVersions.contains(version) else { throw .unsupportedVersion(version, supported: Session.readableVersions) }

        let file: SessionFile
        decoder.userInfo[StampTexts.key] = StampTexts()
        do {
            file = try decoder.decode(SessionFile.self, from: data)
        } catch {
            throw .malformedJSON(describe(error))
        }

        var budget = ItemBudget.maximumItems
        var documents: [Document] = []
        for document in file.documents {
            var items: [PageItem] = []
            for record in document.items {
                items += try record.expanded(budget: &budget)
            }
            documents.append(
                Document(
                    name: document.name, items: items, labelRanges: document.labelRanges, metadata: document.metadata,
                    outline: document.outline, stripped: document.stripped ?? [], attachments: document.attachments,
                    optimize: document.optimize))
        }
        guard file.history.undone >= 0, file.history.undone <= file.history.steps.count else {
            throw .invalidField("history \"undone\" is \(file.history.undone) with \(file.history.steps.count) steps")
        }
        var steps: [HistoryStep] = []
        for step in file.history.steps {
            var changes: [Change] = []
            for record in step.changes {
                changes.append(try record.change(budget: &budget))
            }
            steps.append(
                HistoryStep(
                    label: step.label, changes: changes, currentBefore: step.currentBefore,
                    currentAfter: step.currentAfter))
        }

        let session = Session(
            sources: file.sources, documents: documents, current: file.current,
            nextItemNumber: file.nextItemNumber, nextSourceNumber: file.nextSourceNumber,
            history: History(steps: steps, undoneCount: file.history.undone))
        if let problem = session.firstInconsistency() {
            throw .inconsistent(problem)
        }
        return session
    }

    /// A decoding error as one line naming where in the file it is. Foundation's
    /// texts quote the file's values raw, so control characters are escaped.
    private static func describe(_ error: any Error) -> String {
        escapingControlCharacters(describeRaw(error))
    }

    private static func describeRaw(_ error: any Error) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case DecodingError.dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not JSON (\(context.debugDescription))" }
            return "\(place(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            return "\(place(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(let type, let context):
            return "\(place(context.codingPath)) should be \(jsonKind(of: type))"
        case DecodingError.valueNotFound(let type, let context):
            return "\(place(context.codingPath)) should be \(jsonKind(of: type)), not null"
        default:
            return "\(error)"
        }
    }

    private static func jsonKind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
