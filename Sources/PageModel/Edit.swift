/// Where a block of items goes.
public enum Destination: Codable, Equatable, Sendable, CustomStringConvertible {
    /// `--to N` / `--at N`: the first item of the block ends at position N of
    /// the resulting document; `last` is the largest valid N.
    case position(Position)
    /// `--before P`: right before the existing item P.
    case before(Position)
    /// `--after P`: right after the existing item P.
    case after(Position)

    public var description: String {
        switch self {
        case .position(let p): "position \(p)"
        case .before(let p): "before \(p)"
        case .after(let p): "after \(p)"
        }
    }
}

/// One editing command as a value, exactly as the user gave it: selections
/// and positions are kept unresolved and are resolved against the session
/// when the edit is applied, so a script line sees the positions left by the
/// line before. `doc` (passed to `Session.apply`) picks the document the
/// selection is in; nil means the current one.
package enum Edit: Codable, Equatable, Sendable {
    /// Take the items out and put them back as one block (`--into`: in another document).
    case move(PageSelection, to: Destination, into: String? = nil)
    /// Like move, but the originals stay; the copies get new ids.
    case copy(PageSelection, to: Destination, into: String? = nil)
    /// Copy each item right after itself.
    case duplicate(PageSelection)
    case remove(PageSelection)
    /// Quarter turns clockwise (negative: counter-clockwise); see `Edit.quarterTurns(degrees:)`.
    case rotate(PageSelection, quarterTurns: Int)
    /// The selected items swap places among their own slots.
    case reverse(PageSelection)
    /// Merge `other`'s items alternately into the document (1, O1, 2, O2, …);
    /// `reversed` takes `other` from its end. `other` is left empty.
    case interleave(other: String, reversed: Bool)
    /// `count` blank pages; size nil = the page before (or after, or A4).
    /// Destination nil = at the end.
    case blank(at: Destination?, count: Int, size: PageSizeSpec?)
    /// `count` placeholders, sized like `blank`.
    case placeholder(at: Destination?, count: Int, size: PageSizeSpec?, label: String?)
    /// New items (from `insert`). `newSources` carry provisional ids, referred
    /// to by `contents`: the session gives them their real `s<n>` ids (or
    /// reuses an identical source it already has) and rewrites the contents.
    /// `outlines`: the bookmarks of the new sources (by their provisional ids),
    /// attached to the new items (see `Session.outline(of:adding:items:)`).
    case insertItems(contents: [ItemContent], at: Destination?, newSources: [Source], outlines: [SourceOutline] = [])
    /// Replace the placeholder at the position with the contents (one slot may become many pages).
    /// `outlines`: the new sources' bookmarks, attached to the new items as `insertItems` attaches them.
    case fill(Position, contents: [ItemContent], newSources: [Source], outlines: [SourceOutline] = [])
    /// A new empty document, which becomes the current one.
    case newDocument(name: String)
    case renameDocument(from: String, to: String)
    case closeDocument(name: String)
    /// Make a document current. Alone it is not an undo step; inside a batch it is part of the batch's step.
    case useDocument(name: String)
    /// Point a source at another file (moved, or replaced by a new version).
    case relink(source: SourceID, path: String, size: Int64, sha256: String, pageCount: Int)
    /// Draw a page onto each selected item at export (after its other stamps).
    /// `stamp.source` may be a provisional id of one of `newSources`, as for `insertItems`.
    /// `each` (`stamp --each`): the k-th selected item gets the stamp's page + k
    /// instead, and past the file's last page what `each` says.
    case stamp(PageSelection, Stamp, newSources: [Source], each: StampEach? = nil)
    /// Draw a generated text (`number`, `bates`, `watermark`) onto each selected
    /// item (after its other stamps); the stamp's run is set to a new one.
    case textStamp(PageSelection, Stamp)
    /// Take every stamp off the selected items.
    case unstamp(PageSelection)
    /// `labels SPEC...`: replace the document's page label ranges; nil
    /// (`labels --clear`): the document has no page labels.
    case labels([LabelSpec]?)
    /// `meta --title …`: set the fields given (non-nil; "" removes one).
    case metadata(DocumentMetadata)
    /// An outline command. `sources`: the outlines of the document's sources
    /// (real ids), needed only when the document has no outline in the model
    /// yet (a document of an older session): they become its outline first.
    case outline(OutlineEdit, sources: [SourceOutline]? = nil)
    /// `crop SEL --margins … | --rect … | --reset [--box KIND]`: sets (or resets) box `box` of each item.
    case crop(PageSelection, CropSpec, box: PageBoxKind = .crop)
    /// `split-page SEL --grid CxR`: each item becomes `columns` × `rows` items,
    /// each showing one cell of it (its crop box), in reading order as displayed.
    case splitPage(PageSelection, columns: Int, rows: Int)
    /// `pad --multiple-of K [--per-source] [--size SIZE]`: blank pages at the end
    /// (or after each run of one source's items) so the count is a multiple of K.
    case pad(multipleOf: Int, perSource: Bool, size: PageSizeSpec?)
    /// `blank --after-each SEL [--size SIZE]`: a blank page after every selected item.
    case blankAfterEach(PageSelection, size: PageSizeSpec?)
    /// `resize SEL --to SIZE [--fit|--fill]`: each item's page becomes `size`,
    /// showing what the item showed (rotation and crop frozen into the resize).
    case resize(PageSelection, to: PageSize, mode: ResizeMode = .fit)
    /// `nup SEL --grid CxR [--size SIZE] [--order rows|columns] [--gutter L]`:
    /// the items are replaced, in order, by sheets of `columns` × `rows` cells
    /// (size nil: the first item's size as displayed), at the first one's place.
    case nup(PageSelection, columns: Int, rows: Int, size: PageSizeSpec?, order: SheetOrder, gutter: Double)
    /// `booklet SEL [--size SIZE]`: saddle-stitch sheets, two pages side by side
    /// in folding order (size nil: 2W×H of the first item as displayed).
    case booklet(PageSelection, size: PageSizeSpec?)
    /// `edit`: the document becomes these lines, in order (see `ArrangedItem`).
    case rearrange([ArrangedItem])
    /// `flatten annotations|forms [SEL]`, `strip annotations|links|fields|thumbnails
    /// [--type …] [SEL]`: what export does to each selected item's page, added
    /// after what the item already has (see `PageFinish`).
    case finish(PageSelection, PageFinish)
    /// `strip javascript|attachments|metadata|structure`: a part every export of
    /// the document leaves out (`metadata` also drops the values `meta` set).
    case strip(DocumentPart)
    /// `attach add FILE...`: files (stored by the kit, see `Attachment`) attached
    /// under their names, at document level or, with `page`, on that item's page.
    case attach([Attachment], page: Position? = nil)
    /// `attach remove NAME...`: the attachments of these names (added ones, or the
    /// sources' embedded files, as `EditContext.attachments` lists them) are left out.
    case detach([String])
    /// `redact SEL --rect …|--text …`: regions each selected item's page loses
    /// at export (see `Redaction`), resolved per item when applied: a
    /// rectangle on the page as displayed, or the occurrences of a text.
    case redact(PageSelection, RedactTarget, fill: TextColor, label: String?)
    /// `optimize [--linearize] [--images DPI[:QUALITY]]` in a session: how every
    /// export of the document is written (`Document.optimize`); nil
    /// (`optimize --off`) writes them as before.
    case optimize(OptimizeSettings?)

    /// `--by` degrees → quarter turns: 90, 180, 270, -90 (and -180, -270).
    package static func quarterTurns(degrees: Int) throws(EditError) -> Int {
        guard degrees != 0, degrees % 90 == 0, (-270...270).contains(degrees) else {
            throw .invalidRotation(degrees: degrees)
        }
        return degrees / 90
    }
}

/// What the model asks of the outside world while applying an edit: page
/// text for `text:` tokens, page sizes for blank pages and placeholders.
/// Both are plain lookups, so the model stays pure.
package struct EditContext {
    /// Whether an item's page text contains these words, as `find` matches them
    /// (false when it has no text, or none could be extracted).
    package var pageText: ((PageItem, String) -> Bool)?
    /// The size of a `.page` or `.image` item as its source displays it (the
    /// page's own /Rotate applied, the item's rotation not). Blank pages and
    /// placeholders know their size without it.
    package var pageSize: ((PageItem) -> PageSize?)?
    /// The geometry of a `.page` or `.image` item's source page (MediaBox,
    /// visible box, own /Rotate), for `crop --margins`. Blank pages and
    /// placeholders know theirs without it.
    package var pageFrame: ((PageItem) -> PageFrame?)?
    /// The ink of an item's source page, found by rendering (`crop --auto`);
    /// nil: it could not be found.
    package var pageInk: ((PageItem) -> PageInk?)?
    /// The share (0…1) of dark pixels of an item's page as it is shown (its
    /// crop box), for `empty` selections; nil: not known (never empty).
    package var darkShare: ((PageItem) -> Double?)?
    /// Whether an item's page has extractable text (`EmptyPage.isText`), for
    /// `empty` selections: such a page is not empty unless judged by ink only.
    package var pageHasText: ((PageItem) -> Bool)?
    /// How many annotations an item's source page carries, popups aside (`annotated`); nil: not known.
    package var annotationCount: ((PageItem) -> Int?)?
    /// What a `.page` or `.image` item's source page draws, as a string equal
    /// for equal pages in one file or two (`dup`; the kit's content digest); nil: not known.
    package var contentFingerprint: ((PageItem) -> String?)?
    /// A source's own page labels (`label:` when the document has none of its own).
    package var sourceLabels: ((SourceID) -> SourcePageLabels?)?
    /// The documented limits (items per document) edits are checked against.
    package var limits: Limits
    /// The embedded files an export of the document writes, named as it names
    /// them (the sources' and the added ones; `attach`, `detach`); nil: not
    /// known (then only the added ones are).
    package var attachments: ((Document) -> [ListedAttachmentName]?)?
    /// The occurrences of a text on an item's page (`redact --text`: words,
    /// regex, case-sensitive), boxes in the page's default user space; nil:
    /// the page's text could not be read.
    package var textHits: ((PageItem, String, Bool, Bool) -> [TextHit]?)?

    package init(
        pageText: ((PageItem, String) -> Bool)? = nil, pageSize: ((PageItem) -> PageSize?)? = nil,
        limits: Limits = .standard, pageFrame: ((PageItem) -> PageFrame?)? = nil,
        pageInk: ((PageItem) -> PageInk?)? = nil, darkShare: ((PageItem) -> Double?)? = nil,
        pageHasText: ((PageItem) -> Bool)? = nil, annotationCount: ((PageItem) -> Int?)? = nil,
        contentFingerprint: ((PageItem) -> String?)? = nil, sourceLabels: ((SourceID) -> SourcePageLabels?)? = nil,
        attachments: ((Document) -> [ListedAttachmentName]?)? = nil,
        textHits: ((PageItem, String, Bool, Bool) -> [TextHit]?)? = nil
    ) {
        self.textHits = textHits
        self.attachments = attachments
        self.annotationCount = annotationCount
        self.contentFingerprint = contentFingerprint
        self.sourceLabels = sourceLabels
        self.pageInk = pageInk
        self.pageHasText = pageHasText
        self.darkShare = darkShare
        self.pageText = pageText
        self.pageSize = pageSize
        self.pageFrame = pageFrame
        self.limits = limits
    }
}
