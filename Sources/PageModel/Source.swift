/// What kind of file a source is; it decides which item contents may refer to it.
package enum SourceKind: String, Codable, Equatable, Sendable {
    case pdf
    case image
}

/// A file the user imported. It is read, never written; its fingerprint
/// (size and SHA-256) lets the kit notice a source that changed or vanished.
package struct Source: Codable, Equatable, Sendable {
    package var id: SourceID
    /// Stored exactly as the caller gives it (the kit makes it relative to the session folder).
    package var path: String
    package var size: Int64
    package var sha256: String
    /// Number of pages; 1 for an image.
    package var pageCount: Int
    package var kind: SourceKind

    package init(id: SourceID, path: String, size: Int64, sha256: String, pageCount: Int, kind: SourceKind) {
        self.id = id
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.pageCount = pageCount
        self.kind = kind
    }

    /// Two imports are the same file when path and fingerprint agree; such a
    /// file is imported once and shared.
    func isSameFile(as other: Source) -> Bool {
        path == other.path && size == other.size && sha256 == other.sha256 && kind == other.kind
    }
}

extension Session {
    /// The same session with each source's stored path replaced by `path(source)`
    /// (the files themselves unchanged): for a program that keeps its sources'
    /// paths from another folder than the session file's.
    /// The history's record of sources is relocated too, so that undo and redo
    /// still find them as they were recorded.
    package func relocatingSources(_ path: (Source) throws -> String) rethrows -> Session {
        func moved(_ source: Source) throws -> Source {
            var source = source
            source.path = try path(source)
            return source
        }
        var session = self
        session.sources = try sources.map(moved)
        for step in session.history.steps.indices {
            for index in session.history.steps[step].changes.indices {
                switch session.history.steps[step].changes[index] {
                case .addSources(let added): session.history.steps[step].changes[index] = .addSources(try added.map(moved))
                case .removeSources(let removed):
                    session.history.steps[step].changes[index] = .removeSources(try removed.map(moved))
                case .replaceSource(let old, let new):
                    session.history.steps[step].changes[index] = .replaceSource(old: try moved(old), new: try moved(new))
                default: break
                }
            }
        }
        return session
    }
}
