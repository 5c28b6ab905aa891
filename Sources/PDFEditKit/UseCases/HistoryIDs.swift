#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// `history --script`: an id (`@p17`, this session's name for an item) said
/// the way another file can understand, where the session knows how: the
/// page's label (`label:"iv"`) when no other page of the document has it, else
/// a line of its text that no other page holds (`text:"Annual report 2026"`),
/// each checked on the document as it was before the step, where the id was
/// given: it must pick that item and nothing else.
final class HistoryIDs {
    private let session: Session
    private let baseDirectory: String
    private let cacheDirectory: String?
    private let passwords: PasswordBook
    private var states: [Int: Session] = [:]
    private var accesses: [Int: SourceAccess] = [:]

    /// The ids of `editor`'s history.
    init(editor: PageEditor) {
        session = editor.session
        baseDirectory = editor.baseDirectory
        cacheDirectory = editor.cacheDirectory
        passwords = editor.passwords
    }

    /// The selection token naming item `id` as it was before step `step`
    /// (1-based) in document `doc` (nil: the document current then); nil when
    /// no label or text picks exactly it.
    func selection(for id: ItemID, beforeStep step: Int, doc: String?) -> String? {
        guard let (state, access) = self.state(beforeStep: step),
            let document = state.document(named: doc ?? state.current),
            document.items.contains(where: { $0.id == id })
        else { return nil }
        let labels = document.outputLabelValues(sourceLabels: { access.pageLabels(of: $0) })
        if let label = labels[id]?.text, !label.isEmpty, !label.contains("\""), !label.contains(".."), !label.contains(","),
            document.items.filter({ labels[$0.id]?.text == label }).map(\.id) == [id]
        {
            return Self.token("label:", label)
        }
        var texts: [ItemID: String] = [:]
        for item in document.items {
            texts[item.id] = (try? access.text(of: item)).flatMap { $0 } ?? ""
        }
        let text: String = texts[id] ?? ""
        let lines: [String] = text.split(whereSeparator: { (c: Character) in c.isNewline }).map { (line: Substring) in
            String(line.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
        }.filter { !$0.isEmpty && !$0.contains("\"") }.prefix(30).map { $0 }
        // A line, else two lines together (text matching counts a line break as a space).
        let phrases = lines.filter { $0.count >= 3 && $0.count <= 80 }
            + zip(lines, lines.dropFirst()).map { "\($0) \($1)" }.filter { $0.count <= 120 }
        for line in phrases {
            let matching = document.items.filter { TextMatch.matches(texts[$0.id] ?? "", line, caseSensitive: false) }
            if matching.map(\.id) == [id] { return Self.token("text:", line) }
        }
        return nil
    }

    /// `text:WORDS`, in double quotes when the words hold a comma (which would end the token).
    private static func token(_ keyword: String, _ value: String) -> String {
        value.contains(",") ? keyword + "\"" + value + "\"" : keyword + value
    }

    private func state(beforeStep step: Int) -> (Session, SourceAccess)? {
        if let state = states[step], let access = accesses[step] { return (state, access) }
        guard let state = (try? session.state(afterStep: step - 1)) ?? nil else { return nil }
        let access = SourceAccess(
            session: state, baseDirectory: baseDirectory, passwords: passwords, cacheDirectory: cacheDirectory)
        states[step] = state
        accesses[step] = access
        return (state, access)
    }
}
