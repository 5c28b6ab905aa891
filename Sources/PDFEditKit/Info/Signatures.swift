internal import PDFEngine
import PageModel

/// The digital signatures of one source file: what `info`, `list` and the
/// library's `PageEditor.signatures(in:)` report.
public struct SourceSignatures: Codable, Equatable, Sendable {
    /// The source's path, as the session stores it (or as the user named it).
    public var source: String
    /// Its signed signature fields, in the order of its form's field tree.
    public var signatures: [DigitalSignature]

    /// The signatures `signatures` of the source at `source`.
    public init(source: String, signatures: [DigitalSignature]) {
        self.source = source
        self.signatures = signatures
    }
}

extension DigitalSignature {
    /// The signed fields of `opened` (qpdf: names, byte ranges, DocMDP), with
    /// the signer and signing time poppler reads from each one's CMS data when
    /// there are any (`poppler`: the file already open in poppler, else opened
    /// here with `password`).
    static func read(
        _ opened: OpenedPDF, password: String?, poppler: PopplerPDF? = nil
    ) throws(EngineError) -> [DigitalSignature] {
        withSigners(try opened.signatures(), of: opened, password: password, poppler: poppler)
    }

    /// `signatures` (the signed fields `opened` holds) with the signer and
    /// signing time poppler reads from each one's CMS data, as `read` gives them.
    static func withSigners(
        _ signatures: [DigitalSignature], of opened: OpenedPDF, password: String?, poppler: PopplerPDF? = nil
    ) -> [DigitalSignature] {
        guard !signatures.isEmpty else { return [] }
        // A file poppler cannot open keeps what the dictionaries say (/Name, /M).
        guard let reader = poppler ?? (try? PopplerPDF(path: opened.path, password: password)) else {
            return signatures
        }
        return merged(signatures, signers: reader.signers())
    }
}

extension SourceAccess {
    /// The digital signatures of a PDF source (cached by its SHA-256); empty for
    /// an image. A changed source, or signature fields that cannot be read, is
    /// kept for `surfacingLookupFailure` (75, or the file's own error); an
    /// export reads them with `readSignatures`, which throws it.
    /// With `opened` (the source already open for this command: direct mode's
    /// export), that handle is read instead of opening the file a second time;
    /// the password is looked up (which opens the file through the book) only
    /// when there are signatures.
    package func signatures(of source: SourceID) -> [DigitalSignature] { signatures(of: source, opened: nil) }

    /// `signatures(of:)`, reading `opened` when the command has the source open.
    func signatures(of source: SourceID, opened: OpenedPDF?) -> [DigitalSignature] {
        recordingLookupFailure { () throws(PDFEditError) -> [DigitalSignature]? in
            try readSignatures(of: source, opened: opened)
        } ?? []
    }

    /// `signatures(of:opened:)`, throwing what stops it: an export must not
    /// take a file whose signature fields cannot be read for an unsigned one
    /// (it would be rewritten with no word that its signatures break).
    func readSignatures(of source: SourceID, opened: OpenedPDF?) throws(PDFEditError) -> [DigitalSignature] {
        guard let known = self.source(source), known.kind == .pdf else { return [] }
        try checked(source)
        if let cached = pageFacts.record(known.sha256).signatures { return cached }
        let reader: OpenedPDF
        if let opened { reader = opened } else { reader = try document(source) }
        let fields: [DigitalSignature]
        do throws(EngineError) { fields = try reader.signatures() } catch { throw .engine(error) }
        let found =
            fields.isEmpty
            ? [] : DigitalSignature.withSigners(fields, of: reader, password: try password(for: source))
        pageFacts.update(known.sha256) { $0.signatures = found }
        return found
    }

    /// The signed sources among `ids` (in that order, each once), named as the session stores them.
    package func signedSources(_ ids: [SourceID]) -> [SourceSignatures] {
        var seen: Set<SourceID> = []
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let stored = self.source(id) else { return nil }
            let found = signatures(of: id)
            return found.isEmpty ? nil : SourceSignatures(source: stored.path, signatures: found)
        }
    }
}
