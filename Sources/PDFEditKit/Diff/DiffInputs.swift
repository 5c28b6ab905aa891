#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

extension DocumentDiff {
    /// `diff A.pdf B.pdf`: two files compared page by page. Each is read by the
    /// one loader (a missing file 66, a file that is not a PDF or image 65, the
    /// first failing one in argument order), into an in-memory session of two
    /// documents; nothing is written but the sheet.
    package static func files(
        _ a: String, _ b: String, passwords: PasswordBook, sheet: DiffSheetRequest?
    ) throws(PDFEditError) -> DocumentDiff {
        let base = FileNames.currentDirectory
        let files = try Importer(baseDirectory: base, passwords: passwords).load([a, b])
        let session = try Session.opening(imported: files)
        let access = SourceAccess(session: session, baseDirectory: base, passwords: passwords)
        let scratch = try ScratchDirectory.forImages(of: session, shared: nil)
        let writer = ExportWriter(session: session, access: access, cacheDirectory: scratch?.path)
        let imagePDF = { (source: SourceID, fit: PageSize?) throws(PDFEditError) -> String in
            try writer.imagePDF(source, fit: fit)
        }
        let sides = [a, b].enumerated().map { index, name in
            DiffSide(
                name: name, items: session.documents[index].items, labels: nil, access: access, imagePDF: imagePDF,
                stampTexts: [:])
        }
        return try withExtendedLifetime(scratch) { () throws(PDFEditError) in
            try compared(sides[0], sides[1], sheet: sheet, protected: [])
        }
    }

    /// The comparison, and the sheet when asked for.
    static func compared(_ left: DiffSide, _ right: DiffSide, sheet: DiffSheetRequest?, protected: [String])
        throws(PDFEditError) -> DocumentDiff
    {
        let (diff, _) = try compare(left, right)
        if let sheet { try drawSheet(diff, left: left, right: right, request: sheet, protected: protected) }
        return diff
    }
}

extension PageEditor {
    /// `diff --history N..M`: a document of the session as it was after step N
    /// and after step M (0: before the first step; `N` alone: against now). A
    /// document missing at one of them is empty there.
    package func diff(history steps: String, doc: String?, sheet: DiffSheetRequest?) throws(PDFEditError)
        -> DocumentDiff
    {
        let session = session
        let count = session.historyEntries.count
        let now = session.historyEntries.filter { !$0.isUndone }.count
        let (first, last) = try Self.stepRange(steps, count: count, now: now)
        let name = doc ?? session.current
        if session.document(named: name) == nil && doc != nil {
            _ = try session.chosenDocument(doc)  // the usual message, 64
        }
        var sides: [DiffSide] = []
        for step in [first, last] {
            let state: Session?
            do throws(EditError) { state = try session.state(afterStep: step) } catch { throw .edit(error) }
            guard let state else { throw PDFEditError.usage("the history has no step \(step)") }
            sides.append(try side(of: state, document: name, called: "step \(step)"))
        }
        return try DocumentDiff.compared(sides[0], sides[1], sheet: sheet, protected: protectedFiles)
    }

    /// `diff --sources`: the files the document's pages come from, as they are
    /// on disk now (each read again by the loader, one after the other), against
    /// the document as export would write it.
    package func diffSources(doc: String?, sheet: DiffSheetRequest?) throws(PDFEditError) -> DocumentDiff {
        let session = session
        let document = try session.chosenDocument(doc)
        let access = SourceAccess(
            session: session, baseDirectory: baseDirectory, passwords: passwords,
            cacheDirectory: cacheDirectory)
        var used: [SourceID] = []
        for item in document.items {
            for source in item.content.sources where !used.contains(source) { used.append(source) }
        }
        let paths = used.compactMap { access.path(of: $0) }
        let files = try Importer(baseDirectory: baseDirectory, passwords: passwords).load(paths)
        let onDisk = try Session.opening(imported: files)
        let diskAccess = SourceAccess(session: onDisk, baseDirectory: baseDirectory, passwords: passwords)
        var items: [PageItem] = []
        var labels: [String] = []
        for (index, file) in onDisk.documents.enumerated() {
            items += file.items
            let name = used.indices.contains(index) ? (session.source(used[index])?.path ?? file.name) : file.name
            labels += file.items.indices.map { "\(name):\($0 + 1)" }
        }
        let scratch = try ScratchDirectory.forImages(of: onDisk, shared: nil)
        let writer = ExportWriter(session: onDisk, access: diskAccess, cacheDirectory: scratch?.path)
        let left = DiffSide(
            name: "sources", items: items, labels: labels, access: diskAccess,
            imagePDF: { (source, fit) throws(PDFEditError) in try writer.imagePDF(source, fit: fit) }, stampTexts: [:])
        let right = DiffSide(
            name: document.name, items: document.items, labels: nil, access: access,
            imagePDF: try view.imagePDFs(session: session, access: access),
            stampTexts: OutputLabels.stampTexts(of: document, access: access))
        return try withExtendedLifetime(scratch) { () throws(PDFEditError) in
            try DocumentDiff.compared(left, right, sheet: sheet, protected: protectedFiles)
        }
    }

    /// A document of a state of the session as one side (empty when it has none).
    private func side(of state: Session, document name: String, called: String) throws(PDFEditError) -> DiffSide {
        let document = state.document(named: name) ?? Document(name: name)
        let access = SourceAccess(
            session: state, baseDirectory: baseDirectory, passwords: passwords,
            cacheDirectory: cacheDirectory)
        return DiffSide(
            name: called, items: document.items, labels: nil, access: access,
            imagePDF: try view.imagePDFs(session: state, access: access),
            stampTexts: OutputLabels.stampTexts(of: document, access: access))
    }

    /// `N..M` or `N` (then M is the state now, `now` steps done) among steps 0…`count`.
    static func stepRange(_ text: String, count: Int, now: Int) throws(PDFEditError) -> (Int, Int) {
        let parts = text.components(separatedBy: "..")
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count),
            numbers.allSatisfy({ (0...count).contains($0) })
        else {
            throw PDFEditError.usage(
                "--history \(escapingControlCharacters(text)): give N..M or N, steps 0…\(count) (0: before the first step)")
        }
        return (numbers[0], numbers.count == 2 ? numbers[1] : now)
    }
}
