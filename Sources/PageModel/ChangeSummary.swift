/// What an edit did: one line for people, fields for `--json`.
public struct ChangeSummary: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The command's verb: "move", "copy", "rotate", "new", …
    public var action: String
    /// One line, e.g. `moved 3 pages to position 1 (now 7 pages)`.
    public var description: String
    /// The document the result is in (the target of `--into`).
    public var document: String
    /// Its page count afterwards.
    public var pageCount: Int
    /// 1-based positions, in `document` afterwards, of the items the edit
    /// placed or changed (the moved block, the copies, the inserted items…).
    public var positions: [Int]
    /// The ids of those items, in the same order.
    public var ids: [ItemID]
    /// The other document involved (source of a move `--into`, interleave's OTHER, a rename's old name).
    public var otherDocument: String?
    public var otherPageCount: Int?
    /// Sources the edit added to the session.
    public var newSources: [SourceID]
    /// The page-dependent tokens (`text:`, `empty`) that matched no page, when
    /// the edit changed nothing because of them; nil otherwise (and absent from
    /// the JSON).
    public var unmatched: [String]?

    public init(
        action: String, description: String, document: String, pageCount: Int, positions: [Int] = [],
        ids: [ItemID] = [], otherDocument: String? = nil, otherPageCount: Int? = nil, newSources: [SourceID] = []
    ) {
        self.action = action
        self.description = description
        self.document = document
        self.pageCount = pageCount
        self.positions = positions
        self.ids = ids
        self.otherDocument = otherDocument
        self.otherPageCount = otherPageCount
        self.newSources = newSources
    }
}
