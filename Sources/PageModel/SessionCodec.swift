#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The session file: pretty-printed JSON with sorted keys, a top-level
/// `version`, documents and history items written as runs (see `ItemRecord`).
struct SessionFile: Codable {
    var version: Int
    var current: String
    var nextItemNumber: Int
    var nextSourceNumber: Int
    var sources: [Source]
    var documents: [DocumentFile]
    var history: HistoryFile
}

struct DocumentFile: Codable {
    var name: String
    var items: [ItemRecord]
    /// Absent: the sources' labels (version 2 files have none); []: no labels.
    var labelRanges: [LabelRange]?
    var metadata: DocumentMetadata?
    /// Absent in format 2 files (see `Document.outline`).
    var outline: [OutlineEntry]?
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
    public func encoded() throws -> Data {
        let file = SessionFile(
            version: version, current: current, nextItemNumber: nextItemNumber, nextSourceNumber: nextSourceNumber,
            sources: sources,
            documents: documents.map {
                DocumentFile(
                    name: $0.name, items: ItemRecord.records(for: $0.items), labelRanges: $0.labelRanges,
                    metadata: $0.metadata, outline: $0.outline)
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
        return try encoder.encode(file)
    }

    /// Reads a session file, checking its version first and every invariant
    /// after (unique ids, rotations 0…3, known sources, an existing current
    /// document…). Any problem is an error, never a trap.
    public static func decode(_ data: Data) throws(SessionFormatError) -> Session {
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
                    outline: document.outline))
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
