import PDFEditKit
import PageModel

/// One line per digital signature, as `info` and `list` print them:
/// `"Signature1" by Alice Example, 2024-05-01T07:30:00Z, covers the whole file, certifies: form filling and signing only (DocMDP 2)`.
func signatureLine(_ signature: DigitalSignature) -> String {
    var parts = ["\"\(shown(signature.field))\""]
    parts[0] += " by " + (signature.signer.map(shown) ?? "an unknown signer")
    if let time = signature.signingTime { parts.append(time) }
    parts.append(signature.coversWholeFile ? "covers the whole file" : "covers an earlier revision (changed since)")
    if let permission = signature.docMDP {
        parts.append("certifies: \(DigitalSignature.permissionPhrase(permission)) (DocMDP \(permission))")
    }
    return parts.joined(separator: ", ")
}

/// `list`'s lines after its table: each signed source and its signatures.
func signatureLines(_ sources: [SourceSignatures]) -> [String] {
    sources.flatMap { source in
        ["Signed: \(shown(Paths.name(of: source.source)))"] + source.signatures.map { "  " + signatureLine($0) }
    }
}
