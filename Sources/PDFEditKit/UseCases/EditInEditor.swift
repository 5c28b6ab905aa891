import Glibc
internal import PDFEngine
import PageModel

/// `pdfedit edit`: the document's items written to a file, the file opened in
/// the user's editor (the `open` closure: running a program on the terminal is
/// the command line's), the edited file applied as one `rearrange` step. A file
/// that cannot be read back is kept, with its line and why, for `--continue`.
package enum EditInEditor {
    /// What came of one `edit`.
    package enum Outcome: Sendable {
        /// The file asked for nothing (unchanged, or every line removed).
        case unchanged
        /// The edit was applied (and, in direct mode, written).
        case changed(ChangeSummary, ExportResult?)
    }

    /// Where a session's edit file is kept: beside the session file.
    package static func keptPath(of store: SessionStore) -> String { store.path + ".edit" }

    /// Where direct mode keeps it: beside what it writes.
    package static func keptPath(output: String) -> String { output + ".edit" }

    /// The file `lines` make (or, when `resume`, the one kept at `path`), opened
    /// with `open`, read back against `knownIDs`. nil: nothing to change.
    static func edited(
        _ lines: [EditFile.Line], document: String, knownIDs: Set<ItemID>, currentOrder: [ItemID], at path: String,
        resume: Bool, open: (String) throws(PDFEditError) -> Void
    ) throws(PDFEditError) -> [ArrangedItem]? {
        if resume {
            guard Files.exists(path) else {
                throw PDFEditError.usage("no edit to continue: \(path) does not exist (run pdfedit edit)")
            }
        } else {
            let text = EditFile.text(lines, document: document)
            // A fresh file of our own: never through a link someone left at the name.
            unlink(path)
            let failure = Array(text.utf8).withUnsafeBytes {
                Files.create(path, holding: $0, exclusive: true, mode: 0o600)
            }
            if let failure { throw PDFEditError.engine(.cannotWrite(file: path, reason: failure.description)) }
        }
        try open(path)
        guard let bytes = Files.contents(path, limit: 64 << 20) else {
            throw PDFEditError.engine(.missing(file: path))
        }
        let arranged: [ArrangedItem]
        do throws(EditFile.Problem) {
            arranged = try EditFile.read(String(decoding: bytes, as: UTF8.self), knownIDs: knownIDs, document: document)
        } catch {
            throw PDFEditError.usage(
                "\(path):\(error.line): \(error.reason) (the file is kept: fix it and run pdfedit edit --continue)")
        }
        unlink(path)
        let unchanged = arranged == currentOrder.map { ArrangedItem.item($0, quarterTurns: 0) }
        return arranged.isEmpty || unchanged ? nil : arranged
    }
}

extension PageEditor {
    /// `pdfedit edit [--doc NAME] [--continue]` on the session file at `path`:
    /// read, then the editor is run with the session unlocked, then the new
    /// order applied (``rearrange(_:in:)``) under the lock.
    package static func editInEditor(
        session path: String?, passwords: PasswordBook, doc: String?, resume: Bool,
        open: (String) throws(PDFEditError) -> Void
    ) throws(PDFEditError) -> EditInEditor.Outcome {
        let listing = try reading(session: path, passwords: passwords) { (editor) throws(PDFEditError) in
            try editor.list(doc: doc, selection: nil, includeText: true)
        }
        let ids = listing.items.compactMap { ItemID($0.id) }
        guard let arranged = try EditInEditor.edited(
            EditFile.lines(of: listing), document: listing.document, knownIDs: Set(ids), currentOrder: ids,
            at: EditInEditor.keptPath(of: Workspace(sessionPath: path, passwords: passwords).store), resume: resume,
            open: open)
        else { return .unchanged }
        let summary = try editing(session: path, passwords: passwords) { (editor) throws(PDFEditError) in
            try editor.rearrange(arranged, in: listing.document)
        }
        return .changed(summary, nil)
    }
}

extension DirectMode {
    /// `pdfedit edit FILE -o OUT [--continue]`: the file's pages are the items
    /// `p1` … `pN`, as direct mode numbers them.
    package func editInEditor(
        resume: Bool, open: (String) throws(PDFEditError) -> Void
    ) throws(PDFEditError) -> EditInEditor.Outcome {
        guard input != StandardStreams.name, output != StandardStreams.name else {
            throw PDFEditError.usage("edit opens an editor on the terminal: give files, not - (standard input or output)")
        }
        let info = try FileInfo.describe(path: input, passwords: passwords, includeText: true)
        let ids = (1...max(1, info.pageCount)).prefix(info.pageCount).map { ItemID(number: $0) }
        let kept = EditInEditor.keptPath(output: inPlace ? input : output ?? input)
        guard let arranged = try EditInEditor.edited(
            EditFile.lines(of: info), document: Paths.stem(of: input), knownIDs: Set(ids), currentOrder: ids,
            at: kept, resume: resume, open: open)
        else { return .unchanged }
        let (summary, result) = try run { (editor, _, _) throws(PDFEditError) in
            guard editor.session.documents.first?.items.map(\.id) == ids else {
                throw PDFEditError.usage("\(input) changed while it was being edited: run pdfedit edit again")
            }
            return .rearrange(arranged)
        }
        return .changed(summary, result)
    }
}
