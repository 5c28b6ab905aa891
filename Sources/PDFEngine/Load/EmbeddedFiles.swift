import Glibc
import QPDFCore

/// One document-level embedded file as an export of some documents writes it
/// (`pe_documents_read_attachments`).
package struct EmbeddedFileEntry: Sendable, Equatable {
    /// The name the export gives it (the bridge's one naming rule).
    package var name: String
    /// A source's file: the index of its document, and its name there; nil for an added one.
    package var document: Int?
    package var original: String?
    /// An added one: its index in the names given.
    package var added: Int?
    package var description: String?
    package var mimeType: String?
    package var relationship: String?
    /// `/Params /Size`; nil when the file does not say.
    package var size: Int64?
    /// With `withData`: its bytes; nil when they could not be decoded.
    package var data: [UInt8]?
}

extension OpenedPDF {
    /// The document-level embedded files an export of `documents` (the sources
    /// of its pages in order of first appearance) writes: the documents' own but
    /// the `removed` ones (document index, name in its tree), then `added`, each
    /// name made unique as the export makes it (`pe_documents_read_attachments`).
    /// `withData`: each source file's bytes too, each at most `maxStreamBytes`
    /// (nil: no bound); more is `.overLimit`.
    package static func embeddedFiles(
        of documents: [OpenedPDF], removed: [(document: Int, name: String)] = [], added: [String] = [],
        withData: Bool = false, maxStreamBytes: Int? = nil
    ) throws(EngineError) -> [EmbeddedFileEntry] {
        var status = pe_status()
        let collected = EmbeddedFileEntries()
        let names = removed.map { strdup($0.name) } + added.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let gone = removed.enumerated().map { index, entry in
            pe_removed_attachment(source: Int32(clamping: entry.document), name: UnsafePointer(names[index]))
        }
        let addedNames: [UnsafePointer<CChar>?] = names[removed.count...].map { UnsafePointer($0) }
        let handles: [OpaquePointer?] = documents.map { $0.handle }
        let code = withExtendedLifetime((collected, documents)) {
            handles.withUnsafeBufferPointer { handles in
                gone.withUnsafeBufferPointer { gone in
                    addedNames.withUnsafeBufferPointer { addedNames in
                        pe_documents_read_attachments(
                            handles.baseAddress, Int32(clamping: handles.count), gone.baseAddress,
                            Int32(clamping: gone.count), addedNames.baseAddress, Int32(clamping: addedNames.count),
                            withData ? 1 : 0, Int64(maxStreamBytes ?? 0),
                            { context, entry in
                                guard let context, let entry else { return }
                                Unmanaged<EmbeddedFileEntries>.fromOpaque(context).takeUnretainedValue().add(entry.pointee)
                            }, Unmanaged.passUnretained(collected).toOpaque(), &status)
                    }
                }
            }
        }
        guard code == Int32(PE_OK) else {
            let index = Int(status.source_index)
            let file = documents.indices.contains(index) ? documents[index].path : documents.first?.path ?? "-"
            throw EngineError(status: status, about: BridgeFailure(file: file))
        }
        return collected.entries
    }
}

/// The entries `pe_documents_read_attachments` hands over, copied at once.
private final class EmbeddedFileEntries {
    var entries: [EmbeddedFileEntry] = []

    func add(_ entry: pe_listed_attachment) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        var data: [UInt8]?
        if let bytes = entry.data, entry.data_size >= 0 {
            data = Array(UnsafeBufferPointer(start: bytes, count: Int(entry.data_size)))
        }
        entries.append(
            EmbeddedFileEntry(
                name: text(entry.name) ?? "", document: entry.source >= 0 ? Int(entry.source) : nil,
                original: text(entry.original), added: entry.added >= 0 ? Int(entry.added) : nil,
                description: text(entry.description), mimeType: text(entry.mime_type),
                relationship: text(entry.relationship), size: entry.size >= 0 ? entry.size : nil, data: data))
    }
}
