import CPoppler
import Glibc
import PageModel
import QPDFCore

extension OpenedPDF {
    /// The signed signature fields of the document (`pe_document_read_signatures`):
    /// name, /Name, /M, what /ByteRange covers of the file as it is on disk now,
    /// and the DocMDP permission. The signer's certificate is poppler's to read
    /// (`PopplerPDF.signers`); `signer` and `signingTime` here come from /Name and /M.
    package func signatures() throws(EngineError) -> [DigitalSignature] {
        var file = stat()
        guard stat(path, &file) == 0 else { throw EngineError.unreadable(file: path, reason: "cannot be examined") }
        var status = pe_status()
        let collected = SignatureRecords()
        let code = withExtendedLifetime(collected) {
            pe_document_read_signatures(
                handle, Int64(file.st_size),
                { context, signature in
                    guard let context, let signature else { return }
                    Unmanaged<SignatureRecords>.fromOpaque(context).takeUnretainedValue().add(signature.pointee)
                }, Unmanaged.passUnretained(collected).toOpaque(), &status)
        }
        guard code == Int32(PE_OK) else { throw EngineError(status: status, about: BridgeFailure(file: path)) }
        return collected.signatures
    }
}

private final class SignatureRecords {
    var signatures: [DigitalSignature] = []

    func add(_ record: pe_signature) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        let range = record.byte_range
        signatures.append(
            DigitalSignature(
                field: text(record.field) ?? "", signer: text(record.name),
                signingTime: text(record.time).flatMap(DigitalSignature.isoDate(fromPDFDate:)),
                coversWholeFile: record.covers_file != 0, docMDP: record.doc_mdp > 0 ? Int(record.doc_mdp) : nil,
                byteRange: record.byte_range_valid != 0 ? [range.0, range.1, range.2, range.3].map { Int($0) } : nil))
    }
}

extension PopplerPDF {
    /// Who signed each signed field and when, by fully qualified field name, as
    /// poppler reads the signature's CMS data (NSS): the signer certificate's
    /// common name and the signed signing time. The certificate is not checked
    /// against any trust store (nothing is looked up on the network or in the
    /// user's keys). A field poppler cannot read is left out.
    package func signers() -> [String: (name: String?, time: String?)] {
        var found: [String: (name: String?, time: String?)] = [:]
        guard let list = poppler_document_get_signature_fields(handle) else { return found }
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            defer { node = current.pointee.next }
            guard let raw = current.pointee.data else { continue }
            let field = OpaquePointer(raw)
            guard let namePointer = poppler_form_field_get_name(field) else { continue }
            let name = String(cString: namePointer)
            g_free(namePointer)
            var error: UnsafeMutablePointer<GError>?
            let validated = poppler_form_field_signature_validate_sync(
                field, PopplerSignatureValidationFlags(rawValue: 0), nil, &error)
            Self.awaitWorkerRelease(of: field)
            guard let info = validated else {
                _ = Self.take(error)
                continue
            }
            defer { poppler_signature_info_free(info) }
            let signer = poppler_signature_info_get_signer_name(info).map { String(cString: $0) }.flatMap {
                $0.isEmpty ? nil : $0
            }
            var time: String?
            if let date = poppler_signature_info_get_local_signing_time(info) {
                time = DigitalSignature.isoDate(secondsSince1970: Int(g_date_time_to_unix(date)))
            }
            found[name] = (signer, time)
        }
        return found
    }

    /// Waits (a few microseconds, at most about a second) until the GLib worker
    /// that ran a `validate_sync` has dropped its reference to `field`: GLib wakes
    /// the caller first and releases its task (which holds the field, which holds
    /// the document) afterwards, on the worker. Without the wait the document
    /// could be finalized on that thread while the process exits, and poppler's
    /// global teardown then raced `exit` (a crash in about one run of twenty
    /// of an export refused with `--keep-signatures`). The field's one other
    /// reference is the list `poppler_document_get_signature_fields` gave.
    private static func awaitWorkerRelease(of field: OpaquePointer) {
        // The count is written by the worker thread, so it is read atomically
        // (`g_atomic_int_get`, as GLib itself reads it), never as a plain field.
        guard let offset = MemoryLayout<GObject>.offset(of: \GObject.ref_count) else { return }
        let count = UnsafeMutableRawPointer(field).advanced(by: offset).assumingMemoryBound(to: gint.self)
        var waits = 0
        while g_atomic_int_get(count) > 1 && waits < 100_000 {
            usleep(10)
            waits += 1
        }
    }
}

extension DigitalSignature {
    /// `signatures` with each one's signer and signing time from the CMS data
    /// where poppler read them (`PopplerPDF.signers`), else /Name and /M as they were.
    package static func merged(
        _ signatures: [DigitalSignature], signers: [String: (name: String?, time: String?)]
    ) -> [DigitalSignature] {
        signatures.map { signature in
            var merged = signature
            if let found = signers[signature.field] {
                merged.signer = found.name ?? signature.signer
                merged.signingTime = found.time ?? signature.signingTime
            }
            return merged
        }
    }
}
