#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// The rest of what the command line's session does, as methods: documents,
/// blank pages, boxes, paper, sheets, stamps off, labels and metadata. Each is
/// one undo step, all or nothing, and returns what it changed, as the edits
/// of `PageEditor.swift` do; the command of the same name documents each one.
extension PageEditor {
    // MARK: Documents

    /// A new empty document named `name`, which becomes the current one (`pdfedit new`).
    @discardableResult
    public mutating func newDocument(named name: String) throws(PDFEditError) -> ChangeSummary {
        try apply(.newDocument(name: name), label: "new \(name)")
    }

    /// Renames a document (`pdfedit rename`).
    @discardableResult
    public mutating func renameDocument(_ name: String, to newName: String) throws(PDFEditError) -> ChangeSummary {
        try apply(.renameDocument(from: name, to: newName), label: "rename \(name) \(newName)")
    }

    /// Closes a document: its items are gone, undo brings them back (`pdfedit close`).
    @discardableResult
    public mutating func closeDocument(_ name: String) throws(PDFEditError) -> ChangeSummary {
        try apply(.closeDocument(name: name), label: "close \(name)")
    }

    /// Makes `name` the document edits go to when they name none (`pdfedit use`).
    @discardableResult
    public mutating func useDocument(_ name: String) throws(PDFEditError) -> ChangeSummary {
        try apply(.useDocument(name: name), label: "use \(name)")
    }

    /// Merges `other`'s pages alternately into the document (1, O1, 2, O2, …;
    /// `reversed`: `other` taken from its end, for scans of back sides); `other`
    /// is left empty (`pdfedit interleave`).
    @discardableResult
    public mutating func interleave(
        with other: String, reversed: Bool = false, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.interleave(other: other, reversed: reversed), in: document, label: "interleave \(other)")
    }

    // MARK: Pages without a source

    /// `count` blank pages at `destination` (nil: at the end), of `size` (nil:
    /// the size of the page before them, or after, or A4) (`pdfedit blank`).
    @discardableResult
    public mutating func blank(
        at destination: Destination? = nil, count: Int = 1, size: PageSize? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.blank(at: destination, count: count, size: size.map { .fixed($0) }), in: document, label: "blank")
    }

    /// A blank page after each selected page (`pdfedit blank --after-each`).
    @discardableResult
    public mutating func blankAfterEach(
        _ pages: PageSelection, size: PageSize? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.blankAfterEach(pages, size: size.map { .fixed($0) }), in: document, label: "blank after \(pages)")
    }

    /// Blank pages at the end (or, `perSource`, after each run of one source's
    /// pages) so that the count becomes a multiple of `multiple` (`pdfedit pad`).
    @discardableResult
    public mutating func pad(
        toMultipleOf multiple: Int, perSource: Bool = false, size: PageSize? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(
            .pad(multipleOf: multiple, perSource: perSource, size: size.map { .fixed($0) }), in: document,
            label: "pad \(multiple)")
    }

    // MARK: Boxes and paper

    /// Crops the selected pages by margins in points, inward from what each page
    /// shows, on the page as displayed (`pdfedit crop --margins`). Cropping
    /// hides, it does not remove: use it for layout, never to hide content.
    @discardableResult
    public mutating func crop(
        _ pages: PageSelection, top: Double, right: Double, bottom: Double, left: Double, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        let margins = Margins(top: top, right: right, bottom: bottom, left: left)
        return try apply(.crop(pages, .margins(margins)), in: document, label: "crop \(pages)")
    }

    /// Gives the selected pages back their source's own crop box (`pdfedit crop --reset`).
    @discardableResult
    public mutating func resetCrop(_ pages: PageSelection, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.crop(pages, .reset), in: document, label: "crop \(pages) reset")
    }

    /// Each selected page becomes `columns` × `rows` pages, each showing one cell
    /// of it, in reading order as displayed (`pdfedit split-page`).
    @discardableResult
    public mutating func splitPages(
        _ pages: PageSelection, columns: Int, rows: Int, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.splitPage(pages, columns: columns, rows: rows), in: document, label: "split-page \(pages)")
    }

    /// Puts each selected page on paper of `size` showing what it showed, inside
    /// it (or, `filling`, covering it) with its aspect ratio kept (`pdfedit resize`).
    @discardableResult
    public mutating func resize(
        _ pages: PageSelection, to size: PageSize, filling: Bool = false, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.resize(pages, to: size, mode: filling ? .fill : .fit), in: document, label: "resize \(pages)")
    }

    /// Replaces the selected pages, in order, by sheets of `columns` × `rows`
    /// cells filled row by row (`byColumns`: column by column), on paper of
    /// `size` (nil: the first page's as displayed), `gutter` points between
    /// cells (`pdfedit nup`).
    @discardableResult
    public mutating func nUp(
        _ pages: PageSelection, columns: Int, rows: Int, size: PageSize? = nil, byColumns: Bool = false,
        gutter: Double = 0, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(
            .nup(
                pages, columns: columns, rows: rows, size: size.map { .fixed($0) }, order: byColumns ? .columns : .rows,
                gutter: gutter), in: document, label: "nup \(pages) \(columns)x\(rows)")
    }

    /// Replaces the selected pages by saddle-stitch sheets, two pages side by
    /// side in folding order (`pdfedit booklet`).
    @discardableResult
    public mutating func booklet(
        _ pages: PageSelection, size: PageSize? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.booklet(pages, size: size.map { .fixed($0) }), in: document, label: "booklet \(pages)")
    }

    // MARK: Stamps, labels, metadata

    /// Draws page `page` of the PDF (or the image) at `url` onto each selected
    /// page at export, centred, over its content or `under` it, at `opacity`,
    /// scaled down to fit the page when `fit` (`pdfedit stamp`).
    @discardableResult
    /// With `each`, page `page` goes on the first selected page, the next on the
    /// second, and so on; past the file's end `each` says what happens
    /// (`pdfedit stamp --each`).
    public mutating func stamp(
        _ pages: PageSelection, with url: URL, page: Int = 1, under: Bool = false, fit: Bool = false,
        opacity: Double = 1, each: StampEach? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        guard Stamp.isValidOpacity(opacity) else {
            throw PDFEditError.usage("an opacity is above 0 and at most 1, not \(opacity)")
        }
        let edit = try importer.stampEdit(
            pages, file: url.path, page: page, under: under, fit: fit, opacity: opacity, each: each)
        return try apply(edit, in: document, label: "stamp \(pages) \(url.lastPathComponent)")
    }

    /// Bates numbers on the selected pages: `prefix` and a number counted from
    /// `start` across the document, zero-padded to `digits` (`pdfedit bates`);
    /// `font`, `size`, `margin` and the colours as for
    /// ``number(_:format:start:size:position:margin:font:color:background:outline:in:)``.
    @discardableResult
    public mutating func bates(
        _ pages: PageSelection = .all, prefix: String = "", start: Int = 1, digits: Int = 6, size: StampLength = 10,
        position: StampPosition = .bottomRight, margin: StampLength = 24, font: String? = nil, color: TextColor? = nil,
        background: TextColor? = nil, outline: TextColor? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try TextMark.checkBatesDigits(digits)
        var mark = TextMark(kind: .bates, format: prefix + "{n}", start: start, digits: digits, size: 10)
        try mark.setLook(size: size, font: font, color: color, background: background, outline: outline)
        let placement = try StampPlacement.with(position: position, margin: margin)
        return try apply(.textStamp(pages, Stamp(text: mark, placement: placement)), in: document, label: "bates \(pages)")
    }

    /// Replaces the document's page label ranges (`pdfedit labels`): each range
    /// from its position to the next one's; nil removes every label.
    @discardableResult
    public mutating func setPageLabels(_ ranges: [LabelSpec]?, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.labels(ranges), in: document, label: ranges.map { "labels \($0.map(\.description).joined(separator: " "))" } ?? "labels --clear")
    }

    /// Takes every stamp (numbers, watermarks, overlays) off the selected pages (`pdfedit unstamp`).
    @discardableResult
    public mutating func unstamp(_ pages: PageSelection = .all, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.unstamp(pages), in: document, label: "unstamp \(pages)")
    }

    /// Sets the document's title, author, subject and keywords: nil keeps a
    /// field, "" removes it (`pdfedit meta`).
    @discardableResult
    public mutating func setMetadata(
        title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
        in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        let fields = DocumentMetadata(title: title, author: author, subject: subject, keywords: keywords)
        return try apply(.metadata(fields), in: document, label: "meta")
    }
}

extension TextMark {
    /// Bates numbers are zero-padded to 1 … `maximumDigits` digits; anything else
    /// is a usage error (64), for `bates --digits` and ``PageEditor/bates(_:prefix:start:digits:size:position:margin:font:in:)`` alike.
    package static func checkBatesDigits(_ digits: Int) throws(PDFEditError) {
        guard (1...maximumDigits).contains(digits) else {
            throw PDFEditError.usage("--digits takes 1 to \(maximumDigits), not \(digits)")
        }
    }
}

extension PageEditor {
    /// The public method that makes each edit of the model, nil where the
    /// library does not offer one yet (and why). The switch is exhaustive: a new
    /// `Edit` does not compile until it is given a method here or a reason, and
    /// `PageEditorCoverageTests` holds each name against docs/public-api.txt, so
    /// the library cannot fall behind the command line unseen.
    package static func method(for edit: Edit) -> String? {
        switch edit {
        case .move: "move(_:to:in:into:)"
        case .copy: "copy(_:to:in:into:)"
        case .duplicate: "duplicate(_:in:)"
        case .remove: "remove(_:in:)"
        case .rotate: "rotate(_:by:in:)"
        case .reverse: "reverse(_:in:)"
        case .interleave: "interleave(with:reversed:in:)"
        case .blank: "blank(at:count:size:in:)"
        case .placeholder: "placeholder(at:count:label:in:)"
        case .insertItems: "insert(_:at:in:)"
        case .fill: "fill(_:with:in:)"
        case .newDocument: "newDocument(named:)"
        case .renameDocument: "renameDocument(_:to:)"
        case .closeDocument: "closeDocument(_:)"
        case .useDocument: "useDocument(_:)"
        case .relink: "relink(_:to:force:)"
        case .stamp: "stamp(_:with:page:under:fit:opacity:each:in:)"
        case .textStamp: "bates(_:prefix:start:digits:size:position:margin:font:color:background:outline:in:)"
        case .unstamp: "unstamp(_:in:)"
        case .labels: "setPageLabels(_:in:)"
        case .metadata: "setMetadata(title:author:subject:keywords:in:)"
        case .outline: "addBookmark(_:at:parent:in:)"
        case .crop: "crop(_:top:right:bottom:left:in:)"
        case .splitPage: "splitPages(_:columns:rows:in:)"
        case .pad: "pad(toMultipleOf:perSource:size:in:)"
        case .blankAfterEach: "blankAfterEach(_:size:in:)"
        case .resize: "resize(_:to:filling:in:)"
        case .nup: "nUp(_:columns:rows:size:byColumns:gutter:in:)"
        case .booklet: "booklet(_:size:in:)"
        case .rearrange: "rearrange(_:in:)"
        case .finish: "finish(_:_:in:)"
        case .strip: "strip(_:in:)"
        case .attach: "attach(_:name:page:description:relationship:in:)"
        case .detach: "removeAttachments(_:in:)"
        case .redact: "redact(_:x:y:width:height:units:fill:label:in:)"
        case .optimize: "setOptimize(_:in:)"
        }
    }
}
