#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PDFEngine
import PageModel

/// What `find` found. The JSON shape is documented in docs/manual.md.
package struct FindReport: Codable, Equatable, Sendable {
    /// One page where the text was found.
    package struct Match: Codable, Equatable, Sendable {
        /// 1-based position in the document.
        package var position: Int
        /// The item's stable id.
        package var id: String
        /// The source file as stored in the session, and the page in it.
        package var source: String?
        /// 1-based page in the source.
        package var sourcePage: Int?
        /// The page label, when the source has labels.
        package var label: String?
        /// The text around the first occurrence, on one line.
        package var excerpt: String
    }
    /// The document searched.
    package var document: String
    /// The text searched for, and whether case mattered.
    package var query: String
    /// Whether case mattered.
    package var caseSensitive: Bool
    /// The pages that contain it, in document order.
    package var matches: [Match]
}

/// How `find` and the `text:` selection token match page text, the one rule:
/// both sides compared as Unicode compatibility-normalised (NFKC) text, so a
/// ligature such as "ﬃ" (U+FB03) matches "ffi"; case-folded unless
/// case-sensitive ("ß" matches "SS"); any run of whitespace counting as one
/// space. The Unicode forms are GLib's (`SearchText`).
package enum TextMatch {
    package static func matches(_ pageText: String, _ query: String, caseSensitive: Bool) -> Bool {
        let needle = searchForm(query, caseSensitive: caseSensitive)
        return !needle.isEmpty && searchForm(pageText, caseSensitive: caseSensitive).contains(needle)
    }

    /// Text as it is compared: NFKC, case-folded unless `caseSensitive`,
    /// whitespace runs collapsed to one space.
    package static func searchForm(_ text: String, caseSensitive: Bool) -> String {
        collapsed(SearchText.normalized(text, caseFolded: !caseSensitive))
    }

    /// Up to `context` characters either side of the first occurrence, "…" where
    /// cut, from the compatibility-normalised text (where the match was found).
    package static func excerpt(
        _ pageText: String, _ query: String, caseSensitive: Bool, context: Int = 40
    ) -> String {
        let text = collapsed(SearchText.normalized(pageText, caseFolded: false))
        let needle = collapsed(SearchText.normalized(query, caseFolded: false))
        guard let found = range(of: needle, in: text, caseSensitive: caseSensitive) else {
            return String(text.prefix(2 * context))
        }
        let start = text.index(found.lowerBound, offsetBy: -context, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(found.upperBound, offsetBy: context, limitedBy: text.endIndex) ?? text.endIndex
        return (start > text.startIndex ? "…" : "") + String(text[start..<end]) + (end < text.endIndex ? "…" : "")
    }

    /// Where `needle` first occurs in `text`, case-folded unless `caseSensitive`:
    /// each character of `text` is folded on its own (folding may lengthen it,
    /// "ß" to "ss"), so a match maps back to the characters it came from.
    static func range(of needle: String, in text: String, caseSensitive: Bool) -> Range<String.Index>? {
        guard !needle.isEmpty else { return nil }
        if caseSensitive { return text.firstRange(of: needle) }
        let target = Array(SearchText.folded(needle))
        var folded: [Character] = []
        var origin: [String.Index] = []
        for index in text.indices {
            for character in SearchText.folded(String(text[index])) {
                folded.append(character)
                origin.append(index)
            }
        }
        guard let match = folded.firstRange(of: target), !match.isEmpty else { return nil }
        return origin[match.lowerBound]..<text.index(after: origin[match.upperBound - 1])
    }

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension PageEditor {
    /// Refuses (64) a query of only white space: checked before a session is read.
    package static func checkFind(_ query: String) throws(PDFEditError) {
        guard !TextMatch.collapsed(query).isEmpty else { throw PDFEditError.usage("find needs some text to look for") }
    }

    /// `find TEXT`: the items of a document whose page text contains `query`
    /// (see `TextMatch`), in document order. Texts come from the session's text
    /// cache; pages not cached yet are extracted on every core and cached.
    package func find(
        _ query: String, doc: String?, caseSensitive: Bool, progress: ProgressHandler? = nil
    ) throws(PDFEditError) -> FindReport {
        try Self.checkFind(query)
        let session = session
        let access = access
        let document = try session.chosenDocument(doc)
        let name = document.name
        try access.verify(document.items.compactMap(\.content.source))
        access.prefetchTexts(of: document.items, progress: progress)
        try CancellationToken.check()
        let labels = OutputLabels(document: document, access: access)
        var matches: [FindReport.Match] = []
        for (index, item) in document.items.enumerated() {
            if index % 64 == 0 { try CancellationToken.check() }
            guard let text = try access.textOrWarning(of: item),
                TextMatch.matches(text, query, caseSensitive: caseSensitive)
            else {
                continue
            }
            var match = FindReport.Match(
                position: index + 1, id: item.id.description, label: labels.label(of: item),
                excerpt: TextMatch.excerpt(text, query, caseSensitive: caseSensitive))
            if case .page(let source, let page) = item.content {
                match.source = access.source(source)?.path
                match.sourcePage = page
            }
            matches.append(match)
        }
        access.saveCaches()
        return FindReport(document: name, query: query, caseSensitive: caseSensitive, matches: matches)
    }
}

extension SourceAccess {
    /// Extracts the texts of `items`' pages that are not cached yet, on every core
    /// (one poppler document per worker), and saves them to the cache. A few pages
    /// are left to `text(of:)`, which extracts them one by one.
    package func prefetchTexts(of items: [PageItem], progress: ProgressHandler? = nil) {
        var missing: [SourcePage] = []
        var seen = Set<SourcePage>()
        for item in items {
            guard let page = SourcePage.ofPDF(item), let sha256 = source(page.source)?.sha256,
                pageFacts.record(sha256).texts[String(page.page)] == nil, seen.insert(page).inserted
            else { continue }
            missing.append(page)
        }
        guard missing.count > 4 else { return }
        var openings: [SourceID: SourceOpening] = [:]
        for id in Set(missing.map(\.source)) {
            openings[id] = try? openingDetails(id)
        }
        let found = Slots<String>(count: missing.count)
        let counter = ProgressCounter(total: missing.count, unit: "pages", phase: "reading text", handler: progress)
        let jobs = missing
        let sources = openings
        // Cancelled (a `CancellationToken`): what was found is kept; `find` then fails.
        try? WorkerPool().run(jobCount: jobs.count) { job, worker in
            defer { counter.advance() }
            guard let opening = sources[jobs[job].source] else { return }
            found[job] = try? worker.poppler(opening).text(ofPage: jobs[job].page - 1)
        }
        for (page, text) in zip(jobs, found.removeAll()) {
            guard let text, let sha256 = source(page.source)?.sha256 else { continue }
            pageFacts.update(sha256) { $0.texts[String(page.page)] = text }
        }
        saveCaches()
    }
}
