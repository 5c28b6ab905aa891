import PageModel

/// What an export is made of: the input files, the output pages in order, and
/// how the output is written. Plain values; `PDFExporter` carries them out.

/// An input PDF of an export, opened once however many of its pages are used.
package struct ExportSource: Sendable, Equatable {
    package var path: String
    /// The user (or owner) password of an encrypted file; nil or empty when none.
    package var password: String?
    /// Passwords to try after `password`, in order (the candidates of a password
    /// book), so that nobody has to open the file once more just to find its password.
    package var alternatives: [String]
    /// A short name (the file stem): the title of the source's top-level outline
    /// entry when several sources contribute outlines.
    package var name: String?
    /// `path` already opened by the loader in this process: used instead of
    /// reading and checking the file again.
    package var document: OpenedPDF?
    /// This export is the last use of `document`: it may free what it read
    /// before writing (the document cannot be exported from again).
    package var lastUseOfDocument = false
    /// How many pages the file has (the session's count, checked by its
    /// fingerprint); nil: not known, and the export copies (an appended update
    /// or an in-place rewrite must know which pages it leaves out,
    /// `ExportStrategy.allowed`).
    package var pageCount: Int?
    /// The file whose modification time dates the output instead of `path`'s:
    /// an image's own file, not the one-page PDF made of it (made at import, so
    /// its time would make two exports of one session differ).
    package var datedPath: String?

    package init(
        path: String, password: String? = nil, alternatives: [String] = [], name: String? = nil,
        document: OpenedPDF? = nil, pageCount: Int? = nil
    ) {
        self.pageCount = pageCount ?? document?.pageCount
        self.path = path
        self.password = password
        self.alternatives = alternatives
        self.name = name
        self.document = document
    }
}

/// One page of the output.
package enum ExportItem: Sendable, Equatable {
    /// Page `index` (0-based) of `sources[source]`, turned clockwise by
    /// `quarterTurns` × 90° on top of its own (possibly inherited) /Rotate.
    /// `boxes`: set on the output page (`crop`), in its default user space.
    /// `resize`: the page becomes a new paper showing what the item showed (see
    /// `ExportResize`); `quarterTurns` and `boxes` then apply to the new page.
    case page(
        source: Int, index: Int, quarterTurns: Int = 0, boxes: PageBoxes = PageBoxes(), resize: ExportResize? = nil)
    /// An empty page with MediaBox [0 0 width height] (points).
    case blank(width: Double, height: Double, quarterTurns: Int = 0, boxes: PageBoxes = PageBoxes())
    /// A sheet (`nup`, `booklet`): a new page with MediaBox [0 0 width height]
    /// (points), turned and boxed like a blank page, drawing its cells.
    case sheet(width: Double, height: Double, quarterTurns: Int = 0, boxes: PageBoxes = PageBoxes(), cells: [ExportCell])
}

/// A resized page as export writes it: the new paper (points) and where the
/// source page is drawn on it, both worked out by the model
/// (`PageResize.placement(for:)`) from the source page's geometry.
package struct ExportResize: Sendable, Equatable {
    package var size: PageSize
    package var placement: FormPlacement

    package init(size: PageSize, placement: FormPlacement) {
        self.size = size
        self.placement = placement
    }
}

/// One cell of a sheet: page `index` (0-based) of `sources[source]` (nil: an
/// empty cell) drawn at `placement` (sheet user space, worked out by the model:
/// `Imposition.cellPlacement`). `quarterTurns` and `crop` are the item's, which
/// the copy of the page its stamps are drawn on carries.
package struct ExportCell: Sendable, Equatable {
    package var source: Int?
    package var index: Int
    package var quarterTurns: Int
    package var crop: BoxRect?
    package var placement: FormPlacement
    /// Drawn onto the cell's page as onto an item's (`item`: the sheet's index).
    package var stamps: [ExportStamp]
    /// The cell's item's `flatten`/`strip` steps: flattened appearances are drawn
    /// over the cell, what they remove is not placed on the sheet.
    package var finish: [PageFinish]

    package init(
        source: Int?, index: Int, quarterTurns: Int = 0, crop: BoxRect? = nil, placement: FormPlacement,
        stamps: [ExportStamp] = [], finish: [PageFinish] = []
    ) {
        self.stamps = stamps
        self.finish = finish
        self.source = source
        self.index = index
        self.quarterTurns = quarterTurns
        self.crop = crop
        self.placement = placement
    }
}

/// The engine's names for the model's export choices (one type each, shared
/// with the kit's public API).
package typealias ExportPermission = OutputPermission
package typealias ExportEncryption = OutputEncryption
package typealias LabelMode = PageLabelPolicy

package struct ExportOptions: Sendable, Equatable {
    /// The same inputs give a byte-identical file. Ignored for encrypted output,
    /// for which qpdf cannot make a deterministic /ID.
    package var deterministicID: Bool
    /// nil: the output is not encrypted, unless `keepEncryptionOf` says otherwise.
    package var encryption: ExportEncryption?
    /// Without `encryption`: the index of the source whose encryption the output
    /// keeps when that source is encrypted (method, permissions, both passwords);
    /// nil: the output is not encrypted, whatever the sources were (the report
    /// names the encrypted sources, see `ExportReport.decryptedSources`).
    package var keepEncryptionOf: Int?
    /// What page labels the output carries.
    package var labels: LabelMode
    /// The output's title (Info /Title and XMP dc:title); nil keeps the first source's.
    package var title: String?
    /// The output's author, subject and keywords (Info and XMP alike): nil keeps
    /// the first source's, "" removes it. A title of "" removes it too.
    package var author: String?
    package var subject: String?
    package var keywords: String?
    /// One per item of the plan: the labels the kit worked out (`OutputLabels`:
    /// the document's own ranges, or the sources' continued over blank pages),
    /// written with `.keep` (a nil entry: no label); nil: the sources' (none
    /// has any).
    package var pageLabels: [PageLabelValue?]?
    /// What one stream the export decodes (a stamp page's contents, the XMP
    /// packet) may inflate to (`Limits.inflatedStreamBytes`); more is refused
    /// with `.overLimit` naming the source. nil: no bound.
    package var maxStreamBytes: Int?
    /// Told how far the writing got, `done` of `total`: the percent of the file
    /// written, or the parts of a split written (from any thread, one call at a
    /// time). Not part of equality.
    package var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    /// How many threads a split export writes parts on, and `compress`
    /// recompresses streams on, 1 (none) to 64; nil (or another number): as
    /// many as the CPUs this process may run on, at most 4.
    package var threads: Int?
    /// Whether the export may rearrange its source in place instead of copying
    /// its pages, where `ExportStrategy.allowed` lets it; the output is the same
    /// document either way. False: never (`PDFEDIT_NO_IN_PLACE`).
    package var inPlace: Bool
    /// Whether the export may be written as its source's bytes plus an
    /// incremental update, where `ExportStrategy.allowed` lets it; the output
    /// shows the same document. False: never (`PDFEDIT_NO_APPEND`).
    package var appendUpdate = true
    /// The output must be the appended update (`--keep-signatures`: a signed
    /// source's bytes kept): with `ExportStrategy.allowed` holding it, a file
    /// that cannot take one fails (`.library`, its message starting
    /// `PE_MESSAGE_NOT_APPENDED`) instead of being copied. The caller checks
    /// that the strategy is allowed before it asks.
    package var requireAppendedUpdate = false
    /// Keep the sources' JavaScript (merged under unique names) and the first
    /// source's open action and document actions; false leaves them out with a
    /// warning (an open action that only shows a page is kept either way).
    package var keepScripts: Bool
    /// The bookmarks to write (items indexing the export's items); nil: the
    /// sources' own, merged (see `pe_export`). Only `PDFExporter.write` uses it.
    package var outline: [ExportedOutlineEntry]?
    /// Raised from another thread: a split export starts no further part and fails
    /// (its parts removed). Not part of equality.
    package var cancel: CancelFlag?
    /// Written as small as it losslessly can be (`--compress`): identical streams
    /// once, Flate at zlib's best level, object streams (Compress.cpp). Only on
    /// the whole-file strategy's list (every page of one source in order);
    /// otherwise copied.
    package var compress = false
    /// Linearized for fast web view (`--linearize`); written whole or copied, as `compress`.
    package var linearize = false
    /// Raster images drawn finer than this resampled (`--images`, Images.cpp),
    /// before `compress`, which the bridge then applies too; written whole or copied, as `compress`.
    package var images: ImageResampling?
    /// The samples of one image the `images` pass decodes (nil: no bound).
    package var maxPixels: Int?
    /// One per item of the plan: what `flatten` and `strip` do to its page, in
    /// order; nil when no item has anything. Not on any strategy's list: such
    /// an output is always copied (the appended update would keep the removed
    /// annotations readable in the source's bytes).
    package var finish: [[PageFinish]]?
    /// The document-level parts every output leaves out (`strip`); copied, as `finish`.
    package var stripped: [DocumentPart] = []
    /// Files attached to the output (`pe_attachment`), after the sources' own;
    /// on no strategy's list: such an output is copied.
    package var attachments: [ExportAttachment] = []
    /// Sources' embedded files left out (`pe_removed_attachment`); copied, as `attachments`.
    package var removedAttachments: [ExportRemovedAttachment] = []
    /// The texts `redact --text` removed: where the output still writes one
    /// outside the pages' content (link URIs, annotation contents, attachment
    /// names, page label prefixes) the export warns (`pe_export_options.redacted_texts`),
    /// and with `scrub` removes it.
    package var redactedTexts: [String] = []
    package var scrub = false

    package init(
        deterministicID: Bool = true, encryption: ExportEncryption? = nil, keepEncryptionOf: Int? = nil,
        labels: LabelMode = .keep, title: String? = nil, maxStreamBytes: Int? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil, threads: Int? = nil, inPlace: Bool = true,
        keepScripts: Bool = false
    ) {
        self.deterministicID = deterministicID
        self.encryption = encryption
        self.keepEncryptionOf = keepEncryptionOf
        self.labels = labels
        self.title = title
        self.maxStreamBytes = maxStreamBytes
        self.progress = progress
        self.threads = threads
        self.inPlace = inPlace
        self.keepScripts = keepScripts
    }

    package static func == (lhs: ExportOptions, rhs: ExportOptions) -> Bool {
        lhs.deterministicID == rhs.deterministicID && lhs.encryption == rhs.encryption && lhs.labels == rhs.labels
            && lhs.title == rhs.title && lhs.maxStreamBytes == rhs.maxStreamBytes && lhs.threads == rhs.threads
            && lhs.inPlace == rhs.inPlace && lhs.appendUpdate == rhs.appendUpdate
            && lhs.requireAppendedUpdate == rhs.requireAppendedUpdate
            && lhs.keepEncryptionOf == rhs.keepEncryptionOf
            && lhs.pageLabels == rhs.pageLabels && lhs.author == rhs.author && lhs.subject == rhs.subject
            && lhs.keywords == rhs.keywords && lhs.outline == rhs.outline
            && lhs.compress == rhs.compress && lhs.linearize == rhs.linearize && lhs.images == rhs.images
            && lhs.maxPixels == rhs.maxPixels
            && lhs.finish == rhs.finish && lhs.stripped == rhs.stripped
            && lhs.attachments == rhs.attachments && lhs.removedAttachments == rhs.removedAttachments
            && lhs.redactedTexts == rhs.redactedTexts && lhs.scrub == rhs.scrub
    }
}

/// A file an export attaches (see `pe_attachment`).
package struct ExportAttachment: Sendable, Equatable {
    package var name: String
    package var data: [UInt8]
    package var mimeType: String
    package var description: String?
    /// `/AFRelationship` without the slash ("Data", …); nil: none.
    package var relationship: String?
    /// A PDF date for /CreationDate and /ModDate; nil: none.
    package var date: String?
    /// Page level: the index into the export's items of the page that shows it; nil: document level.
    package var item: Int?

    package init(
        name: String, data: [UInt8], mimeType: String, description: String? = nil, relationship: String? = nil,
        date: String? = nil, item: Int? = nil
    ) {
        self.name = name
        self.data = data
        self.mimeType = mimeType
        self.description = description
        self.relationship = relationship
        self.date = date
        self.item = item
    }
}

/// A source's embedded file an export leaves out: entry `name` of the /EmbeddedFiles
/// tree of the export's source `source` (an index into its sources).
package struct ExportRemovedAttachment: Sendable, Equatable, Hashable {
    package var source: Int
    package var name: String

    package init(source: Int, name: String) {
        self.source = source
        self.name = name
    }
}


/// One file of a split export: the items `items` (indices into the plan) go to `path`.
package struct ExportPart: Sendable, Equatable {
    package var items: Range<Int>
    package var path: String
    /// The part's bookmarks (items indexing the part's own), used when
    /// `ExportOptions.outline` is given (non-nil).
    package var outline: [ExportedOutlineEntry]

    package init(items: Range<Int>, path: String, outline: [ExportedOutlineEntry] = []) {
        self.items = items
        self.path = path
        self.outline = outline
    }
}

/// A top-level bookmark of an export's output and the first item it points to.
package struct OutlineStart: Sendable, Equatable {
    package var title: String
    package var itemIndex: Int

    package init(title: String, itemIndex: Int) {
        self.title = title
        self.itemIndex = itemIndex
    }
}

/// A problem qpdf recovered from (or data it dropped) while exporting.
package struct ExportWarning: Sendable, Equatable, CustomStringConvertible {
    /// What the export got past.
    package enum Kind: Sendable, Equatable {
        /// qpdf recovered from damage in the source; its first message, "(offset N): …".
        case recoveredDamage(detail: String)
        /// Anything else: data dropped, permissions overridden.
        case notice(String)
    }

    /// The source the warning is about; nil for the output itself.
    package var file: String?
    package var kind: Kind

    package init(file: String?, kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// The warning's text without the file.
    package var message: String {
        switch kind {
        case .recoveredDamage(let detail): "damaged, recovered (\(detail))"
        case .notice(let text): text
        }
    }

    package var description: String { "\(file ?? "output"): \(message)" }
}

package struct ExportReport: Sendable, Equatable {
    package var warnings: [ExportWarning]
    /// The encrypted sources (paths as given) whose pages went into an output
    /// written unencrypted (no `encryption`, no kept encryption), in plan order.
    package var decryptedSources: [String]
    /// The source (path as given) whose bytes the output starts with, an
    /// update appended (`PE_WARNING_APPENDED`); nil: written another way.
    package var appendedTo: String? = nil
    /// What `ExportOptions.compress` did (`write` only); nil without it.
    package var savings: StreamSavings?

    package init(warnings: [ExportWarning] = [], decryptedSources: [String] = [], savings: StreamSavings? = nil) {
        self.warnings = warnings
        self.decryptedSources = decryptedSources
        self.savings = savings
    }
}
