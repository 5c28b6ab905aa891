internal import PDFEngine

/// What an export does with page labels (`export --labels`).
public enum PageLabelPolicy: String, Sendable, Equatable, CaseIterable {
    /// Each page keeps the label it had in its source (plain numbers in their
    /// source for pages of sources without labels); none when no source has any.
    case keep
    /// Plain 1…n.
    case renumber
    /// No page labels.
    case none
}

extension ExportSettings {
    /// Settings for an export.
    ///
    /// - Parameters:
    ///   - force: Replace an existing output (never a source or the session's own files).
    ///   - placeholders: Refuse placeholders (the default) or write them as blank pages.
    ///   - encryption: Encrypt the output; nil writes it unencrypted (and byte-for-byte reproducible).
    ///   - pageLabels: What becomes of the sources' page labels.
    ///   - title: The output's title; nil takes the first source's.
    @_disfavoredOverload
    public init(
        force: Bool = false, placeholders: PlaceholderPolicy = .refuse, encryption: OutputEncryption? = nil,
        pageLabels: PageLabelPolicy = .keep, title: String? = nil
    ) {
        self.init(force: force, placeholders: placeholders, title: title)
        self.outputEncryption = encryption
        self.pageLabels = pageLabels
    }

    /// The defaults: no `force`, placeholders refused, not encrypted, labels kept, the first source's title.
    public static var defaults: ExportSettings { ExportSettings() }

    /// What the export does with page labels.
    public var pageLabels: PageLabelPolicy {
        get {
            switch labels {
            case .keep: .keep
            case .renumber: .renumber
            case .none: .none
            }
        }
        set {
            switch newValue {
            case .keep: labels = .keep
            case .renumber: labels = .renumber
            case .none: labels = .none
            }
        }
    }

    /// The passwords the output is encrypted with; nil: not encrypted.
    public var outputEncryption: OutputEncryption? {
        get { encryption.map(OutputEncryption.init) }
        set { encryption = newValue?.engine }
    }
}
