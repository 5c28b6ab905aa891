import PageModel

/// A bookmark (outline entry) of a document, as export writes it with
/// `OutlinePolicy.keep`: what `pdfedit outline` prints.
public struct Bookmark: Equatable, Sendable {
    /// The title shown in a viewer's sidebar.
    public var title: String
    /// The 1-based position of the page it opens, in the document's current
    /// order; nil for a heading (an entry that opens no page).
    public var position: Int?
    /// The item it points at: bookmarks follow their page through every edit.
    public var id: ItemID?
    /// The entries under it.
    public var children: [Bookmark]

    /// A bookmark to give ``PageEditor/setBookmarks(_:in:)``: `position` is
    /// read in the document's order at that moment (nil: a heading).
    public init(title: String, position: Int?, children: [Bookmark] = []) {
        self.title = title
        self.position = position
        id = nil
        self.children = children
    }

    init(_ listing: OutlineListing) {
        title = listing.title
        position = listing.position
        id = listing.id
        children = listing.children.map(Bookmark.init)
    }

    /// What ``PageEditor/setBookmarks(_:in:)`` hands the model: the id when there
    /// is one (it survives edits), else the position.
    var draft: OutlineDraft {
        OutlineDraft(
            title: title, position: id.map { .item($0) } ?? position.map { .number($0) },
            children: children.map(\.draft))
    }
}

extension PageEditor {
    /// The bookmarks of a document (nil: the current one): the ones edited here,
    /// or those its sources bring, each pointing at the page it opens now.
    public func bookmarks(of document: String? = nil) throws(PDFEditError) -> [Bookmark] {
        let chosen = try session.chosenDocument(document)
        let outline = try access.outline(of: chosen, in: session)
        return OutlineListing.listing(outline, in: chosen).map(Bookmark.init)
    }

    /// Adds a bookmark titled `title` opening the page at `position`: the last
    /// child of the entry at `parent` (titles joined by "/", a "/" inside a
    /// title written "\/"), or the last top-level entry.
    @discardableResult
    public mutating func addBookmark(
        _ title: String, at position: Position, parent: String? = nil, in document: String? = nil
    ) throws(PDFEditError) -> ChangeSummary {
        try apply(.outline(.add(title: title, at: position, parent: parent)), in: document, label: "add bookmark \(title)")
    }

    /// Removes the bookmark at `path` and the entries under it.
    @discardableResult
    public mutating func removeBookmark(_ path: String, in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        try apply(.outline(.remove(path: path)), in: document, label: "remove bookmark \(path)")
    }

    /// Gives the bookmark at `path` a new title.
    @discardableResult
    public mutating func renameBookmark(_ path: String, to title: String, in document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        try apply(.outline(.rename(path: path, title: title)), in: document, label: "rename bookmark \(path)")
    }

    /// Replaces the document's bookmarks with `bookmarks` (an empty array
    /// removes them all), as `pdfedit outline import` does.
    @discardableResult
    public mutating func setBookmarks(_ bookmarks: [Bookmark], in document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        let edit: OutlineEdit = bookmarks.isEmpty ? .clear : .replace(bookmarks.map(\.draft))
        return try apply(.outline(edit), in: document, label: bookmarks.isEmpty ? "clear bookmarks" : "set bookmarks")
    }
}
