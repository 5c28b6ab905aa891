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
        let signatures = try opened.signatures()
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
    /// an image, or when they cannot be read (damage is reported where the file
    /// is used). A changed source is kept for `surfacingLookupFailure` (75).
    /// `opened`: the source as this process already opened it (direct mode's
    /// input), enough to see that it has none without opening and parsing the
    /// file again (a tenth of `optimize`'s time on a 300-page book).
    package func signatures(of source: SourceID) -> [DigitalSignature] { signatures(of: source, opened: nil) }

    func signatures(of source: SourceID, opened given: OpenedPDF?) -> [DigitalSignature] {
        recordingLookupFailure { () throws(PDFEditError) -> [DigitalSignature]? in
            guard let known = self.source(source), known.kind == .pdf else { return [] }
            try checked(source)
            if let cached = pageFacts.record(known.sha256).signatures { return cached }
            if let given, (try? given.signatures())?.isEmpty == true {
                pageFacts.update(known.sha256) { $0.signatures = [] }
                return []
            }
            let opened = try document(source)
            let password = try password(for: source)
            let found: [DigitalSignature]
            do throws(EngineError) {
                found = try DigitalSignature.read(opened, password: password)
            } catch {
                return []
            }
            pageFacts.update(known.sha256) { $0.signatures = found }
            return found
        } ?? []
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
