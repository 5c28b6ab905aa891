#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

extension PageEditor {
    /// Attaches the file at `url` to a document (`pdfedit attach add`): at
    /// document level (the EmbeddedFiles name tree and the catalog's /AF), or,
    /// with `page`, as a file attachment annotation on that item's page, which
    /// moves with it. Its bytes are read now and kept by the editor.
    ///
    /// - Parameters:
    ///   - url: The file to attach.
    ///   - name: Its name in the PDF (default: the file's name); a name the
    ///     document already has is refused.
    ///   - page: The item whose page shows it; nil: document level.
    ///   - description: Its `/Desc`.
    ///   - relationship: Its `/AFRelationship`: "Source", "Data", "Alternative",
    ///     "Supplement" or "Unspecified"; nil: none.
    ///   - document: The document (nil: the current one).
    @discardableResult
    public mutating func attach(
        _ url: URL, name: String? = nil, page: Position? = nil, description: String? = nil,
        relationship: String? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        var related: AttachmentRelationship?
        if let relationship {
            guard let parsed = AttachmentRelationship(parsing: relationship) else {
                throw PDFEditError.usage(
                    "a relationship is Source, Data, Alternative, Supplement or Unspecified, not \"\(relationship)\"")
            }
            related = parsed
        }
        let edit = try attachmentImporter.attachEdit(
            [url.path], name: name, page: page, description: description, relationship: related)
        return try apply(edit, in: document, label: "attach add \(url.path)")
    }

    /// Removes attachments by name (`pdfedit attach remove`): files added with
    /// ``attach(_:name:page:description:relationship:in:)``, or the sources' own
    /// embedded files, which exports then leave out.
    @discardableResult
    public mutating func removeAttachments(_ names: [String], in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.detach(names), in: document, label: "attach remove \(names.joined(separator: " "))")
    }

    /// A document's attachments as a write of all its pages names them
    /// (`pdfedit attach list`): the sources' embedded files and the added ones.
    public func attachments(in document: String? = nil) throws(PDFEditError) -> [AttachmentInfo] {
        let chosen: Document
        chosen = try session.chosenDocument(document)
        let access = access
        return try access.surfacingLookupFailure { () throws(PDFEditError) in
            try access.attachmentInfos(of: chosen, session: session, opened: openedFiles?.opened ?? [:])
        }
    }

    /// Writes a document's attachments (all, or those `names` names) into the
    /// folder `directory` (`pdfedit attach extract`), each under a plain file
    /// name (a name's "/" and "\" become "_": nothing lands outside the folder),
    /// atomically; an existing file is replaced only with `force`. Returns the
    /// paths written.
    @discardableResult
    public func extractAttachments(
        _ names: [String] = [], to directory: URL, force: Bool = false, in document: String? = nil
    ) throws(PDFEditError) -> [String] {
        try extractAttachments(names, toPath: directory.path, force: force, in: document)
    }

    /// ``extractAttachments(_:to:force:in:)`` with the folder as the command line gives it.
    package func extractAttachments(_ names: [String], toPath directory: String, force: Bool, in document: String?)
        throws(PDFEditError) -> [String]
    {
        let chosen: Document
        chosen = try session.chosenDocument(document)
        let access = access
        // Direct mode's editor: a refusal to write over a source names it as the input file.
        let checks = OutputChecks(
            sources: session.sources.map { access.absolutePath($0.path) }, protected: protectedFiles, force: force,
            direct: openedFiles != nil)
        return try access.extractAttachments(
            of: chosen, names: names, to: directory, force: force, checks: checks, opened: openedFiles?.opened ?? [:])
    }
}

extension PageEditor {
    /// The digital signatures of the sources a document's pages come from
    /// (`pdfedit list` shows them): for each signed source, in order of first
    /// use, its signed fields, signers, signing times, whether each covers the
    /// whole file, and the certification (DocMDP) permission. A write keeps
    /// them valid only with `ExportSettings.keepSignatures`.
    public func signatures(in document: String? = nil) throws(PDFEditError) -> [SourceSignatures] {
        let chosen = try session.chosenDocument(document)
        let access = access
        return try access.surfacingLookupFailure { () throws(PDFEditError) in
            access.signedSources(chosen.items.flatMap(\.content.sources))
        }
    }
}
