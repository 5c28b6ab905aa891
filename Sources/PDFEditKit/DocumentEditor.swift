#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// The Document Editor in process: documents made of pages of PDF files and
/// images, edited with undo and redo, and exported as PDF — what `pdfedit` does,
/// for a Swift program (a server, an app) that links the kit.
///
/// An editor works on one session file, which holds the documents, their edit
/// history and the fingerprints of their sources. Every call loads the session
/// under its lock, does one thing and saves it atomically, so several editors
/// (and `pdfedit` itself) may share a session; nothing is kept in memory between
/// calls. Source files are only read: edits change the session, an export writes
/// a new PDF.
///
/// ```swift
/// let editor = DocumentEditor(sessionPath: "/tmp/job/session.json")
/// try editor.open(["report.pdf"])
/// try editor.move("3-4", to: .before(.number(1)))
/// try editor.rotate("1", degrees: 90)
/// try editor.remove("last")
/// try editor.undo()                      // the page is back
/// let result = try editor.export(to: "/tmp/job/out.pdf")
/// print(result.pageCount)
/// ```
///
/// Every failure is a ``PDFEditError``; its `exitCode` and `description` are what
/// the command line would report.
package struct DocumentEditor: Sendable {
    /// The session-mode use cases this editor calls.
    package let workspace: Workspace

    /// An editor of the session at `sessionPath` (created by ``open(_:replacing:progress:)``).
    ///
    /// - Parameters:
    ///   - sessionPath: The session file. Source paths are stored relative to its
    ///     folder when they are below it; caches go beside it.
    ///   - passwords: Passwords to try on encrypted sources (none by default, and
    ///     never a prompt unless the book allows one).
    package init(sessionPath: String, passwords: PasswordBook = PasswordBook()) {
        workspace = Workspace(sessionPath: sessionPath, passwords: passwords)
    }

    /// The session file this editor works on (symbolic links followed).
    package var sessionPath: String { workspace.store.path }

    /// Whether the session file exists.
    package var exists: Bool { workspace.store.exists }

    /// The session as it is now on disk: documents, items, sources, history.
    package func session() throws(PDFEditError) -> Session { try workspace.read() }

    // MARK: Opening

    /// Starts a new session with one document per file, named after the file
    /// (`report.pdf` becomes document `report`); the first is current.
    ///
    /// - Parameters:
    ///   - files: PDF, JPEG or PNG files.
    ///   - replacing: Replace an existing session (never anything that is not a session).
    ///   - progress: Told of each file read (from worker threads).
    /// - Returns: The warnings about damaged files that were recovered, one per file.
    /// - Throws: ``PDFEditError``: every unusable file is reported (`.several`), an
    ///   existing session without `replacing` is `.outputExists`.
    @discardableResult
    package func open(
        _ files: [String], replacing: Bool = false, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> [Warning] {
        try workspace.open(files, force: replacing, progress: progress).warnings
    }

    /// Inserts the pages of more files into a document as one undo step
    /// (`pdfedit insert FILE... --at/--before/--after POS`): every page of a PDF,
    /// one page for a JPEG or PNG.
    ///
    /// - Parameters:
    ///   - files: PDF, JPEG or PNG files; all are read before anything changes.
    ///   - destination: Where the first inserted page goes; nil: after the last item.
    ///   - document: The document's name; nil: the current one.
    /// - Returns: What changed, and one warning per damaged file that was recovered.
    /// - Throws: ``PDFEditError``: every unusable file is reported (`.several`).
    @discardableResult
    package func insert(_ files: [String], at destination: Destination? = nil, document: String? = nil)
        throws(PDFEditError) -> (change: ChangeSummary, warnings: [Warning])
    {
        let (edit, outcome) = try workspace.importer().insertEdit(files, at: destination, fit: nil, keepGoing: false)
        let change = try apply(edit, document: document, label: "insert \(files.joined(separator: " "))")
        return (change, outcome.warnings)
    }

    // MARK: Editing

    /// Applies one edit to a document as one undo step.
    ///
    /// - Parameters:
    ///   - edit: The edit (see `Edit`); selections and positions are resolved
    ///     against the document as it is now.
    ///   - document: The document's name; nil: the current one.
    ///   - label: How the step is named in the history (`undo` returns it).
    /// - Returns: What changed: positions, ids, the new page count.
    @discardableResult
    package func apply(_ edit: Edit, document: String? = nil, label: String) throws(PDFEditError) -> ChangeSummary {
        try workspace.apply(edit, doc: document, label: label)
    }

    /// Applies several edits as one all-or-nothing undo step (as `pdfedit run` does).
    @discardableResult
    package func applyAll(_ edits: [(edit: Edit, document: String?)], label: String) throws(PDFEditError)
        -> [ChangeSummary]
    {
        try workspace.applyAll(edits.map { (edit: $0.edit, doc: $0.document) }, label: label)
    }

    /// Moves the selected items to `destination` (`pdfedit move SEL --to/--before/--after POS`).
    ///
    /// - Parameters:
    ///   - selection: The selection grammar of the command line: `3-5,9`, `odd`,
    ///     `last`, `@p12`, `text:word` (the same for every method taking one).
    ///   - destination: A position (`.position(.number(1))`, `.position(.last)`),
    ///     or before or after an item that is not moved.
    ///   - document: The document's name; nil: the current one.
    @discardableResult
    package func move(_ selection: String, to destination: Destination, document: String? = nil)
        throws(PDFEditError) -> ChangeSummary
    {
        let chosen = try Self.parse(selection)
        return try apply(.move(chosen, to: destination), document: document, label: "move \(selection) \(destination)")
    }

    /// Turns the selected items clockwise by `degrees` (a multiple of 90, may be negative).
    @discardableResult
    package func rotate(_ selection: String, degrees: Int, document: String? = nil) throws(PDFEditError)
        -> ChangeSummary
    {
        let chosen = try Self.parse(selection)
        let turns: Int
        do throws(EditError) { turns = try Edit.quarterTurns(degrees: degrees) } catch { throw .edit(error) }
        return try apply(
            .rotate(chosen, quarterTurns: turns), document: document, label: "rotate \(selection) \(degrees)")
    }

    /// Removes the selected items from the document (their sources stay untouched).
    @discardableResult
    package func remove(_ selection: String, document: String? = nil) throws(PDFEditError) -> ChangeSummary {
        let chosen = try Self.parse(selection)
        return try apply(.remove(chosen), document: document, label: "remove \(selection)")
    }

    /// Undoes the last `steps` undo steps; returns their labels, most recent first.
    @discardableResult
    package func undo(_ steps: Int = 1) throws(PDFEditError) -> [String] { try workspace.undo(steps) }

    /// Redoes `steps` undone steps; returns their labels, in the order redone.
    @discardableResult
    package func redo(_ steps: Int = 1) throws(PDFEditError) -> [String] { try workspace.redo(steps) }

    // MARK: Exporting

    /// Writes a document (or the selected items) as one PDF.
    ///
    /// - Parameters:
    ///   - output: The file to write; written under a temporary name and renamed
    ///     when complete. A source, or an existing file without `settings.force`,
    ///     is refused (the session's own earlier exports may be replaced).
    ///   - selection: Which items, in the selection grammar; nil: all.
    ///   - document: The document's name; nil: the current one.
    ///   - settings: Force, placeholders, encryption, page labels, title.
    @discardableResult
    package func export(
        to output: String, selection: String? = nil, document: String? = nil,
        settings: ExportSettings = .defaults
    ) throws(PDFEditError) -> ExportResult {
        try workspace.export(
            to: output, selection: selection.map { s throws(PDFEditError) in try Self.parse(s) }, doc: document,
            settings: settings)
    }

    /// Writes a document (or the selected items) as several PDFs in `directory`
    /// (`pdfedit export --split`); see ``SplitRequest`` for the part names.
    ///
    /// - Parameters:
    ///   - directory: Where the parts go (created when missing).
    ///   - grouping: One part per item, per K items, per bookmark, or at selected items.
    ///   - nameTemplate: The part names (`{doc}-{n}.pdf` when nil; `{n}-{title}.pdf` at outlines).
    ///   - selection: Which items, in the selection grammar; nil: all.
    ///   - document: The document's name; nil: the current one.
    ///   - settings: Force, placeholders, encryption, page labels, title (for every part).
    ///   - outlineLevel: With `.atOutlines`: split at bookmarks of levels 1 to this.
    ///   - maxSize: Cut the parts further so each file is at most this many bytes
    ///     (alone: the whole export is cut by size).
    /// - Returns: One result per part, in order.
    @discardableResult
    package func exportSplit(
        into directory: String, grouping: SplitGrouping = .each, nameTemplate: String? = nil,
        selection: String? = nil, document: String? = nil, settings: ExportSettings = .defaults,
        outlineLevel: Int = 1, maxSize: Int64? = nil
    ) throws(PDFEditError) -> [ExportResult] {
        try workspace.exportSplit(
            SplitRequest(
                directory: directory, grouping: grouping, template: nameTemplate, outlineLevel: outlineLevel,
                maxSize: maxSize),
            selection: selection.map { s throws(PDFEditError) in try Self.parse(s) }, doc: document,
            settings: settings)
    }

    // MARK: Inspecting

    /// The items of a document (or the selected ones): position, id, source page,
    /// size, rotation, label and, when `includeText`, the page text.
    package func list(
        _ selection: String? = nil, document: String? = nil, includeText: Bool = false
    ) throws(PDFEditError) -> Listing {
        try workspace.list(
            doc: document, selection: selection.map { s throws(PDFEditError) in try Self.parse(s) },
            includeText: includeText)
    }

    /// The session's documents, undo and redo depths, and whether each source is
    /// still the file that was imported.
    package func status() throws(PDFEditError) -> SessionStatus { try workspace.status() }

    /// Describes a PDF file on disk without a session (`pdfedit info`).
    package static func info(of file: String, passwords: PasswordBook = PasswordBook(), includeText: Bool = false)
        throws(PDFEditError) -> FileInfo
    {
        try FileInfo.describe(path: file, passwords: passwords, includeText: includeText)
    }

    static func parse(_ selection: String) throws(PDFEditError) -> PageSelection {
        do throws(SelectionError) { return try PageSelection.parse(selection) } catch { throw .selection(error) }
    }
}
