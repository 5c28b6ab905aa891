import PageModel

// Finishing a document for publication: `pdfedit flatten` and `pdfedit strip`.
// Each call is one undo step that records what the export will do; the pages'
// bytes change only when the document is written (`write`, `data`).

extension PageEditor {
    /// Adds `finish` to what export does to each selected page, after what it
    /// already does (`pdfedit flatten …`, `pdfedit strip annotations|links|fields|thumbnails`).
    /// The general form of ``flattenForms(_:in:)``, ``flattenAnnotations(_:in:)``,
    /// ``stripAnnotations(_:types:in:)`` and ``stripThumbnails(_:in:)``.
    @discardableResult
    public mutating func finish(_ pages: PageSelection = .all, _ finish: PageFinish, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try apply(.finish(pages, finish), in: document, label: "\(finish) \(pages)")
    }

    /// Draws the form fields' appearances on the selected pages into their
    /// content and removes the fields there (`pdfedit flatten forms`): the values
    /// stay visible and printable, and can no longer be edited. Fields without an
    /// appearance get one generated first (text and choice fields).
    @discardableResult
    public mutating func flattenForms(_ pages: PageSelection = .all, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try finish(pages, .flattenForms, in: document)
    }

    /// Draws every annotation of the selected pages that has an appearance
    /// (comments, highlights, stamps, form widgets) into the page content and
    /// removes it (`pdfedit flatten annotations`); links without an appearance stay links.
    @discardableResult
    public mutating func flattenAnnotations(_ pages: PageSelection = .all, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try finish(pages, .flattenAnnotations, in: document)
    }

    /// Removes the annotations of the selected pages whose subtype is one of
    /// `types` (PDF names without the slash: `Link`, `Highlight`, `Widget`…;
    /// empty: all of them) at export (`pdfedit strip annotations --type`).
    /// Removed widgets take their form fields with them.
    @discardableResult
    public mutating func stripAnnotations(
        _ pages: PageSelection = .all, types: [String] = [], in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try finish(pages, .stripAnnotations(types: types), in: document)
    }

    /// Removes the embedded thumbnail images (/Thumb) of the selected pages at
    /// export (`pdfedit strip thumbnails`).
    @discardableResult
    public mutating func stripThumbnails(_ pages: PageSelection = .all, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try finish(pages, .stripThumbnails, in: document)
    }

    /// Leaves a document-level part out of every export of the document
    /// (`pdfedit strip javascript|attachments|metadata|structure`); `.metadata`
    /// also forgets what ``setMetadata(title:author:subject:keywords:in:)`` set before.
    @discardableResult
    public mutating func strip(_ part: DocumentPart, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.strip(part), in: document, label: "strip \(part.rawValue)")
    }

    /// How every export of the document is written from now on (`pdfedit
    /// optimize [--linearize] [--images DPI[:QUALITY]]` in a session): losslessly
    /// smaller, linearized, images resampled; nil writes them as each export asks
    /// (`optimize --off`). An export's own settings add to these.
    @discardableResult
    public mutating func setOptimize(_ settings: OptimizeSettings?, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.optimize(settings), in: document, label: settings == nil ? "optimize --off" : "optimize")
    }
}
