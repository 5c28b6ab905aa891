import Foundation
import PDFEngine
import Testing

/// Links by named destination on a real book (TeXbyTopic: pdfTeX's GoTo actions
/// naming entries of the /Names /Dests tree), checked link by link against what
/// qpdf --json says of the input: the name tree is walked here, in the test, from
/// qpdf's objects, never by the code under test.
@Suite(.enabled(if: ExportPaths.corpusAvailable, Comment(rawValue: ExportTests.corpusMissing)))
struct NamedDestinationLinksTests {
    /// The input's links: per 0-based page, the 0-based target page of each
    /// internal link whose destination resolves (nil: it does not).
    static func inputLinks(_ json: QPDFJSON) -> [[Int?]] {
        let pageIndex = Dictionary(uniqueKeysWithValues: json.pages.enumerated().map { ($1, $0) })
        let trailer = (json.objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let catalog = json.dictionary(trailer?["/Root"])
        var names: [String: Any] = [:]
        var pending: [Any] = [json.dictionary(catalog?["/Names"])?["/Dests"] as Any]
        while let node = pending.popLast() {
            guard let dict = json.dictionary(node) else { continue }
            pending += (json.resolve(dict["/Kids"]) as? [Any] ?? []).reversed()
            let pairs = json.resolve(dict["/Names"]) as? [Any] ?? []
            for i in stride(from: 0, to: pairs.count - 1, by: 2) {
                if let key = pairs[i] as? String, names[key] == nil { names[key] = pairs[i + 1] }
            }
        }
        func targetPage(_ dest: Any?) -> Int? {
            var value = json.resolve(dest)
            if let string = value as? String, !string.hasSuffix(" R") { value = json.resolve(names[string]) }
            if let dict = value as? [String: Any] { value = json.resolve(dict["/D"]) }
            guard let array = value as? [Any], let page = array.first as? String else { return nil }
            return pageIndex[page]
        }
        return json.pages.map { page in
            json.annotations(ofPage: page).compactMap { annotation -> Int?? in
                guard let dict = json.dictionary(annotation), dict["/Subtype"] as? String == "/Link" else { return nil }
                if let dest = dict["/Dest"] { return .some(targetPage(dest)) }
                guard let action = json.dictionary(dict["/A"]), action["/S"] as? String == "/GoTo" else { return nil }
                return .some(targetPage(action["/D"]))
            }
        }
    }

    @Test func linksAfterARemovedRangeGoWhereTheInputsNamesSay() throws {
        let path = ExportPaths.corpusFile("tbt-TeXbyTopic.pdf")
        let input = try QPDFJSON(path)
        let links = Self.inputLinks(input)
        #expect(links.count == 327)
        #expect(links.joined().count > 1_500, "the book's internal links")
        #expect(links.joined().allSatisfy { $0 != nil }, "every name resolves in the input")
        // `remove 81..163`: the kept source pages in order, and where each lands.
        let kept = Array(0..<80) + Array(163..<327)
        let position = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
        let scratch = try ExportScratch()
        let output = scratch.path("out.pdf")
        _ = try FidelityTests.export(
            [ExportSource(path: path)], kept.map { .page(source: 0, index: $0) }, to: output)
        let json = try QPDFJSON(output)
        #expect(json.pages.count == kept.count)
        var expectedTotal = 0
        for (at, source) in kept.enumerated() {
            // A link to a removed page is removed; the others are explicit
            // destinations to the output's copy of their page, in the same order.
            let expected = links[source].compactMap { $0.flatMap { position[$0] } }
            expectedTotal += expected.count
            let got = json.annotations(ofPage: json.pages[at]).compactMap { annotation -> Int? in
                guard json.dictionary(annotation)?["/Subtype"] as? String == "/Link",
                    let target = json.destinationTarget(ofAnnotation: annotation) as? String
                else { return nil }
                return json.pages.firstIndex(of: target) ?? -1
            }
            #expect(got == expected, "output page \(at + 1) (source page \(source + 1))")
        }
        #expect(expectedTotal > 1_000)
        #expect(json.internalLinks.count == expectedTotal)
    }
}
