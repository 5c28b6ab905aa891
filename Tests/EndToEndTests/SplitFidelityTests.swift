import Foundation
import Testing

/// The parts of a split carry the same links and form as extracting each part's
/// pages on its own: the parts reuse what was read from the source once (one
/// object of the source through which every part's annotations are copied, the
/// values copied without being made objects of the source), so a later part must
/// not see an earlier part's leftovers. Checked with `qpdf --json=2`.
@Suite struct SplitFidelityTests {
    /// A file as `qpdf --json=2` shows it: its page objects and its objects.
    struct Shown {
        var pages: [String] = []
        var objects: [String: Any] = [:]
        var root: [String: Any] = [:]

        init(_ file: String) throws {
            let result = try run("qpdf", ["--json=2", "--json-key=pages", "--json-key=qpdf", file])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
            pages = (json["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
            let qpdf = json["qpdf"] as? [Any] ?? []
            objects = qpdf.count > 1 ? qpdf[1] as? [String: Any] ?? [:] : [:]
            let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
            root = dictionary(trailer?["/Root"]) ?? [:]
        }

        func resolve(_ value: Any?) -> Any? {
            if let reference = value as? String, reference.hasSuffix(" R") {
                return (objects["obj:\(reference)"] as? [String: Any])?["value"]
            }
            return value
        }

        func dictionary(_ value: Any?) -> [String: Any]? { resolve(value) as? [String: Any] }

        /// Each link as "page->target page" (1-based, in this file) or "page->URI".
        func links() -> [String] {
            var result: [String] = []
            for (index, page) in pages.enumerated() {
                let annotations = resolve(dictionary(page)?["/Annots"]) as? [Any] ?? []
                for annotation in annotations {
                    guard let link = dictionary(annotation), link["/Subtype"] as? String == "/Link" else { continue }
                    let action = dictionary(link["/A"])
                    if let uri = action?["/URI"] as? String {
                        result.append("\(index + 1)->\(uri)")
                        continue
                    }
                    let destination = resolve(link["/Dest"] ?? action?["/D"]) as? [Any]
                    let target = (destination?.first as? String).flatMap { pages.firstIndex(of: $0) }
                    result.append("\(index + 1)->\(target.map { "p\($0 + 1)" } ?? "?")")
                }
            }
            return result
        }

        /// The names of the fields of /AcroForm /Fields and the fonts of its /DR.
        func form() -> (fields: [String], fonts: [String]) {
            let form = dictionary(root["/AcroForm"])
            let fields = (resolve(form?["/Fields"]) as? [Any] ?? []).compactMap { dictionary($0)?["/T"] as? String }
            let fonts = dictionary(dictionary(form?["/DR"])?["/Font"])?.keys.sorted() ?? []
            return (fields.sorted(), fonts)
        }
    }

    @Test func partsCarryWhatEachExtractCarries() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: dir.appendingPathComponent("features.pdf"))
        let split = try pdfedit(args: ["export", "--split", "parts", "--every", "3", "--from", "features.pdf"], in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)
            .sorted().map { dir.appendingPathComponent("parts").appendingPathComponent($0).path }
        #expect(parts.count == 2)
        guard parts.count == 2 else { return }
        for (part, range) in zip(parts, ["1..3", "4..6"]) {
            let alone = dir.appendingPathComponent("alone-\(range).pdf").path
            #expect(try pdfedit(args: ["export", alone, range, "--from", "features.pdf"], in: dir).status == 0)
            let (fromSplit, fromExtract) = (try Shown(part), try Shown(alone))
            #expect(fromSplit.links() == fromExtract.links(), "\(range)")
            #expect(fromSplit.form().fields == fromExtract.form().fields, "\(range)")
            #expect(fromSplit.form().fonts == fromExtract.form().fonts, "\(range)")
            #expect(try qpdfCheck(part).status == 0)
        }
        // What the fixture holds (Fixtures/README.md): part 1 keeps page 2's URI link
        // (page 1's link aims at page 5, in the other part), the text field of page
        // 2 and the checkbox of page 3 with the form's fonts; part 2 keeps page 6's
        // link back to page 4, now its page 1, and no form.
        let first = try Shown(parts[0])
        let second = try Shown(parts[1])
        #expect(first.links() == ["2->u:https://example.org/pdfedit"])
        #expect(second.links() == ["3->p1"])
        #expect(first.form().fields == ["u:agree", "u:name"])
        #expect(second.form().fields.isEmpty)
        #expect(first.form().fonts == ["/Helv", "/ZaDb"])
        #expect(try Data(contentsOf: dir.appendingPathComponent("features.pdf")) == before)
    }

    @Test func everyPageOfATaggedFileStaysTagged() throws {
        let dir = try scratchDirectory(with: "tagged.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let split = try pdfedit(args: ["export", "--split", "parts", "--from", "tagged.pdf"], in: dir)
        #expect(split.status == 0, "\(split.stderr)")
        let folder = dir.appendingPathComponent("parts")
        let parts = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(parts.count == 2)
        for (index, name) in parts.enumerated() {
            let path = folder.appendingPathComponent(name).path
            #expect(try qpdfCheck(path).status == 0)
            let shown = try Shown(path)
            #expect(shown.dictionary(shown.root["/StructTreeRoot"]) != nil, "\(name)")
            #expect(try pageText(path, 1).contains("TAG-P\(index + 1)"))
        }
    }
}
