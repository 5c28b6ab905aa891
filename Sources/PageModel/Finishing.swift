/// What `flatten` and `strip` do to one page at export, kept on its item in
/// the order given (a strip given after a flatten finds the annotations the
/// flatten left; one given before it removes them first). The model records the
/// intent only: export carries it out on the output page (QPDFCore/Finishing.cpp).
public enum PageFinish: Codable, Hashable, Sendable, CustomStringConvertible {
    /// `flatten annotations`: every annotation with an appearance (form
    /// widgets included) is drawn into the page's content and removed;
    /// annotations without one (most links) stay.
    case flattenAnnotations
    /// `flatten forms`: the form fields' widgets are drawn into the page's
    /// content (appearances generated first where a field has none) and their
    /// fields leave the form.
    case flattenForms
    /// `strip annotations|links|fields [--type …]`: the annotations of these
    /// subtypes (PDF names without the slash, e.g. `Link`, `Widget`; empty:
    /// every annotation) are removed, with their pop-ups; removed widgets take
    /// their fields with them.
    case stripAnnotations(types: [String])
    /// `strip thumbnails`: the page's embedded thumbnail image (/Thumb) goes.
    case stripThumbnails
    /// `redact`: what the page draws in the region is removed and the region
    /// filled (see `Redaction`).
    case redact(Redaction)

    public var description: String {
        switch self {
        case .flattenAnnotations: "flatten annotations"
        case .flattenForms: "flatten forms"
        case .stripAnnotations(let types):
            switch types {
            case []: "strip annotations"
            case ["Link"]: "strip links"
            case ["Widget"]: "strip fields"
            default: "strip annotations --type \(types.joined(separator: ","))"
            }
        case .stripThumbnails: "strip thumbnails"
        case .redact(let redaction): redaction.description
        }
    }

    /// The subtype names `--type` accepts: a PDF name's characters, no slash,
    /// no white space or delimiter (`Link`, `Highlight`, `FileAttachment`…).
    package static func isValidSubtype(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 127
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && scalar.value < 0x7F && !"/()<>[]{}%#".unicodeScalars.contains(scalar)
            }
    }
}

/// A document-level part `strip` removes from every export of a document
/// (whatever pages are exported), recorded on the document.
public enum DocumentPart: String, Codable, CaseIterable, Comparable, Sendable {
    /// Document JavaScript (/Names /JavaScript), open and document actions, and
    /// the JavaScript actions of pages, annotations, form fields and bookmarks.
    case javascript
    /// Embedded files (/Names /EmbeddedFiles, /AF, a portfolio's /Collection)
    /// and file attachment annotations on every page.
    case attachments
    /// The document information dictionary (/Info) and the XMP packets of the
    /// document and its pages. Values `meta` sets after the strip are written anew.
    case metadata
    /// The structure tree (tags: /StructTreeRoot, /MarkInfo, /StructParents).
    case structure

    public static func < (lhs: DocumentPart, rhs: DocumentPart) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
