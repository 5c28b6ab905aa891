internal import PDFEngine
import PageModel

/// A signed source an export reads: its index in the engine plan, its session
/// id and its signatures.
struct SignedPlanSource {
    var index: Int
    var id: SourceID
    var signatures: [DigitalSignature]
}

extension ExportWriter {
    /// The plan's sources that carry digital signatures (images never do).
    /// A source whose signature fields cannot be read stops the export (its error).
    func signedSources(of plan: EnginePlan) throws(PDFEditError) -> [SignedPlanSource] {
        var signed: [SignedPlanSource] = []
        for (index, id) in plan.sessionSources.enumerated() {
            guard let id else { continue }
            let signatures = try access.readSignatures(of: id, opened: access.path(of: id).flatMap { preopened[$0] })
            if !signatures.isEmpty { signed.append(SignedPlanSource(index: index, id: id, signatures: signatures)) }
        }
        return signed
    }

    /// The source as the session stores it (as the user named it).
    private func shownSource(_ id: SourceID) -> String { session.source(id)?.path ?? id.description }

    /// `--keep-signatures`: refuses (64, saying why) an export that cannot be the
    /// signed source's bytes plus an appended update, or that the source's
    /// certification forbids. What the file itself must be (not damaged, not
    /// encrypted, an end an update can follow) the bridge checks as it writes
    /// (`PE_STRATEGY_REQUIRED`).
    func requireKeptSignatures(_ signed: [SignedPlanSource], plan: EnginePlan, options: ExportOptions) throws(PDFEditError) {
        guard let first = signed.first else { return }
        let source = shownSource(first.id)
        func refuse(_ reason: String) -> PDFEditError {
            .usage("\(source): --keep-signatures: \(reason)")
        }
        guard let (index, changes) = ExportStrategy.changes(
            sources: plan.sources, items: plan.items, stamps: plan.stamps, options: options), index == first.index
        else {
            throw refuse(
                "the output must be this file's pages alone, turned or reordered at most"
                    + " (no other files, blank pages, sheets, stamps, crops or resizes, attachments, flatten, strip,"
                    + " --compress or --linearize)")
        }
        if changes.contains(.leftOutPages) {
            throw refuse("pages of the file are left out, and would stay readable in its signed bytes")
        }
        if changes.contains(.metadata) { throw refuse("the metadata is changed (meta, --title)") }
        if changes.contains(.encryption) { throw refuse("the output is encrypted anew (--encrypt)") }
        let allowed = ExportStrategy.allowed(
            sources: plan.sources, items: plan.items, stamps: plan.stamps, options: options)
        guard allowed.contains(.appendedUpdate) else {
            let repeated = ExportStrategy.placedTwice(plan.items, source: index)
            let held = (try? plan.sources[index].document?.contents(pages: !repeated.isEmpty))?
                .changes(keepScripts: options.keepScripts, repeatedPages: repeated) ?? []
            if held.contains(.droppedContents) { throw refuse("the file holds scripts, XFA or a portfolio the output drops") }
            if held.contains(.repeatedFields) { throw refuse("a page with form fields is used twice (copying gives each its own)") }
            throw refuse("this export cannot be written as an appended update")
        }
        for signature in first.signatures {
            guard let permission = signature.docMDP, permission == 1 || !changes.isEmpty else { continue }
            throw refuse(
                "signature \(signature.shownName) certifies the document allowing "
                    + "\(DigitalSignature.permissionPhrase(permission)) (DocMDP \(permission)): "
                    + (permission == 1 ? "no update is allowed" : "turning, reordering or relabelling pages is not"))
        }
    }

    /// One warning per signed source whose bytes the output does not start
    /// with (`appendedTo`: the source the engine appended the update to), naming
    /// its signatures.
    func signatureWarnings(
        _ signed: [SignedPlanSource], plan: EnginePlan, appendedTo: String?, output: String
    ) -> [Warning] {
        signed.compactMap { source in
            if let appendedTo, plan.sources[source.index].path == appendedTo { return nil }
            return .signaturesInvalidated(
                source: shownSource(source.id), output: output, signatures: source.signatures.map(\.shownName))
        }
    }
}
