#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// A page whose text holds what ``PageEditor/find(_:caseSensitive:in:)``
/// looked for: what `pdfedit find` prints, one line each.
public struct PageMatch: Equatable, Sendable {
    /// The page's 1-based position in the document.
    public var position: Int
    /// The item's stable id (`p3`).
    public var id: ItemID
    /// The page's label, when its source has labels.
    public var label: String?
    /// The text around the first occurrence, on one line.
    public var excerpt: String
}

/// One step of an editor's history, oldest first.
public struct HistoryStepInfo: Equatable, Sendable {
    /// What made the step: the method and its arguments, or the command line.
    public var label: String
    /// Whether the step is undone (``PageEditor/redo(_:)`` replays it).
    public var isUndone: Bool
}

extension PageEditor {
    /// The text of each selected page (all pages when `pages` is nil) of a
    /// document (nil: the current one), in document order, as poppler extracts
    /// it (what `pdfedit find`, `text:` selections and `list` read). A page that
    /// is not a PDF page (a blank, a placeholder, an image) has no text: "".
    /// A sheet's text is its cells' texts, one after another.
    public func text(of pages: PageSelection? = nil, in document: String? = nil) throws(PDFEditError) -> [String] {
        let chosen = try session.chosenDocument(document)
        let access = access
        let picked = try Workspace.items(of: chosen, selection: pages, access: access)
        access.prefetchTexts(of: picked.items)
        var texts: [String] = []
        for item in picked.items {
            try CancellationToken.check()
            texts.append(try access.text(of: item) ?? "")
        }
        return texts
    }

    /// The pages of a document (nil: the current one) whose text contains
    /// `query`, in document order: white space matches any run of white space,
    /// case is ignored unless `caseSensitive` (`pdfedit find`).
    public func find(_ query: String, caseSensitive: Bool = false, in document: String? = nil) throws(PDFEditError)
        -> [PageMatch]
    {
        try find(query, doc: document, caseSensitive: caseSensitive).matches.map { match in
            PageMatch(
                position: match.position, id: ItemID(match.id) ?? ItemID(number: match.position), label: match.label,
                excerpt: match.excerpt)
        }
    }

    /// The editor's history, oldest first: the steps ``undo(_:)`` can take
    /// back, then those it took back (``redo(_:)`` replays them) — what
    /// `pdfedit history` lists.
    public var history: [HistoryStepInfo] {
        session.historyEntries.map { HistoryStepInfo(label: $0.label, isUndone: $0.isUndone) }
    }
}

// MARK: Files on disk

extension PageEditor {
    /// Describes the PDF at `url` without opening it in an editor: its pages
    /// (size of the visible area in points, common paper name, rotation, label
    /// and, with `includeText`, the first words of its text), its version,
    /// encryption, document information, form, bookmarks, labels, tags and
    /// digital signatures — what `pdfedit info` reports. A damaged file is
    /// described as far as it goes, the damage in ``FileInfo/warnings``.
    ///
    /// - Throws: ``PDFEditError``: not a PDF, unreadable, or encrypted without a
    ///   password in `passwords` that opens it (`.engine`).
    public static func info(of url: URL, passwords: PasswordBook = PasswordBook(), includeText: Bool = true)
        throws(PDFEditError) -> FileInfo
    {
        try info(ofPath: url.path, passwords: passwords, includeText: includeText)
    }

    /// ``info(of:passwords:includeText:)`` of a path as the command line gives it (messages name it so).
    package static func info(ofPath path: String, passwords: PasswordBook, includeText: Bool) throws(PDFEditError)
        -> FileInfo
    {
        try FileInfo.describe(path: path, passwords: passwords, includeText: includeText)
    }
}

// MARK: History as a script

/// An editor's history as a script that `pdfedit run` and `pdfedit apply`
/// accept (``PageEditor/historyScript(steps:isScriptLine:)``, `pdfedit history
/// --script`): one command line per step, to replay a session's fix-ups on
/// another version of its files.
public struct ReplayScript: Equatable, Sendable {
    /// The script's lines: a heading comment, then one line per step, with
    /// comments saying what was converted, what cannot be replayed, and
    /// warnings above steps that still name items by id.
    public var lines: [String]

    /// The script as text, one line each.
    public var text: String { lines.joined(separator: "\n") }

    /// How many steps name items by id (`@p12`), which name nothing in another
    /// file: each is kept under a `# warning:` comment.
    public var warnings: Int { lines.filter { $0.hasPrefix("# warning:") }.count }
}

extension PageEditor {
    /// The steps done (or `steps`, counted from 1 among them) as a script for
    /// `pdfedit run` and `apply`. Each step's label is the command line that
    /// made it; a step whose label is not a script line (`isScriptLine` says;
    /// nil: any label that splits into words, but `edit`) or that used a
    /// password is written as a comment. An id (`@p12`) in a selection becomes
    /// the page's label (`label:"iv"`) or a line of its text (`text:"Annual
    /// report"`) when that picks exactly the same page before the step, said in
    /// a comment; otherwise the step is kept under a warning comment.
    ///
    /// Steps made by this library's methods are labelled with the method's
    /// arguments, not with a command line: pass an `isScriptLine` that knows
    /// the command line's grammar (as `pdfedit` does) to leave them out.
    ///
    /// - Throws: ``PDFEditError`` `.usage` when `steps` is not within the steps done.
    public func historyScript(steps: ClosedRange<Int>? = nil, isScriptLine: ((String) -> Bool)? = nil)
        throws(PDFEditError) -> ReplayScript
    {
        try historyScript(of: .range(steps), isScriptLine: isScriptLine)
    }

    /// Which steps `history --script` prints: a range, or the command line's `N..M` text.
    package enum ScriptSteps {
        case range(ClosedRange<Int>?)
        case text(String?)
    }

    /// ``historyScript(steps:isScriptLine:)`` with the steps as the command line gives them.
    package func historyScript(of steps: ScriptSteps, isScriptLine: ((String) -> Bool)?) throws(PDFEditError)
        -> ReplayScript
    {
        let replayable = isScriptLine ?? { label in (try? ScriptText.words(label)).map { !$0.isEmpty } ?? false }
        let ids = HistoryIDs(editor: self)
        let selection = { (id: ItemID, step: Int, doc: String?) in ids.selection(for: id, beforeStep: step, doc: doc) }
        switch steps {
        case .range(let range):
            return ReplayScript(
                lines: try HistoryScript.lines(
                    of: session.historyEntries, range: range, replayable: replayable, selection: selection))
        case .text(let text):
            return ReplayScript(
                lines: try HistoryScript.lines(
                    of: session.historyEntries, steps: text, replayable: replayable, selection: selection))
        }
    }
}
