import Foundation
import Testing

/// Issue 13, group B: a changed source is never read, text matching is
/// compatibility-normalised, pages poppler cannot read are named, failed renders
/// are not cached, and deep trees are refused before poppler walks them.
@Suite struct SourceTextTests {
    /// A two-page PDF whose first page reads `first` and second `second`. Codes
    /// 1…5 of its font are the ligatures ﬃ ﬁ ﬂ ﬀ ﬄ (glyph names and ToUnicode), so
    /// poppler extracts U+FB03… for them.
    static func writeTextPDF(_ path: String, first: String, second: String) throws {
        let cmap = """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /L def
            1 begincodespacerange <00> <FF> endcodespacerange
            5 beginbfchar <01> <FB03> <02> <FB01> <03> <FB02> <04> <FB00> <05> <FB04> endbfchar
            endcmap CMapName currentdict /CMap defineresource pop end end
            """
        func stream(_ text: String) -> String {
            "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream"
        }
        func page(_ content: Int) -> String {
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents \(content) 0 R "
                + "/Resources << /Font << /F1 5 0 R >> >> >>"
        }
        try LimitsTests.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>",
                2: "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
                3: page(4), 4: stream("BT /F1 12 Tf 20 100 Td (\(first)) Tj ET"),
                5: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 8 0 R "
                    + "/Encoding << /Type /Encoding /Differences [1 /ffi /fi /fl /ff /ffl] >> >>",
                6: page(7), 7: stream("BT /F1 12 Tf 20 100 Td (\(second)) Tj ET"), 8: stream(cmap),
            ], to: path)
    }

    // MARK: Item 2: a changed source

    @Test(
        "every command that reads a source refuses (75) one replaced after open, whatever the caches hold"
    )
    func changedSourceIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.pdf").path
        try Self.writeTextPDF(file, first: "Contents of the report", second: "Chapter one")
        try pdfeditOK("open", "a.pdf", in: dir)
        // Fill every cache: texts, labels, sizes, thumbnails.
        try pdfeditOK("list", in: dir)
        try pdfeditOK("show", "-o", "warm.png", in: dir)
        try pdfeditOK("thumbs", "warm", in: dir)
        let session = try sessionBytes(dir)
        // Another PDF of the same page count, its texts swapped.
        try Self.writeTextPDF(file, first: "Chapter one", second: "Contents of the report")
        let commands: [[String]] = [
            ["list"], ["list", "--no-text"], ["list", "--json"], ["find", "Contents"],
            ["remove", "text:Contents"],
            ["show", "-o", "sheet.png"], ["thumbs", "thumbs"], ["export", "out.pdf"],
            ["blank", "--after", "1"],
        ]
        for command in commands {
            let result = try pdfedit(args: command, in: dir)
            #expect(result.status == 75, "\(command): \(result.status) \(result.stdout) \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("a.pdf: changed since it was imported"),
                "\(command): \(result.stderr)")
        }
        #expect(try sessionBytes(dir) == session, "a refused command changed the session")
        for output in ["sheet.png", "thumbs", "out.pdf"] {
            #expect(
                !FileManager.default.fileExists(atPath: dir.appendingPathComponent(output).path),
                "\(output)")
        }
    }

    // MARK: Item 7: ligatures

    @Test("find and text: match ligatures and other compatibility forms (NFKC, case-folded)")
    func ligaturesMatch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // "The o\u{FB03}cer \u{FB01}le \u{FB02}ow \u{FB00} \u{FB04}" on page 1.
        try Self.writeTextPDF(
            dir.appendingPathComponent("l.pdf").path,
            first: "The o\\001cer \\002le \\003ow sta\\004 ba\\005e",
            second: "Nothing here")
        try pdfeditOK("open", "l.pdf", in: dir)
        let text = try pdfedit("list", "--json", in: dir).stdout
        #expect(text.contains("o\u{FB03}cer"), "the fixture must hold the ligature itself: \(text)")
        for query in ["officer", "OFFICER", "file", "flow", "staff", "baffle", "The officer file"] {
            let found = try pdfedit("find", query, "--json", in: dir)
            #expect(found.status == 0, "\(query): \(found.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
            let positions = (report?["matches"] as? [[String: Any]])?.compactMap {
                $0["position"] as? Int
            }
            #expect(positions == [1], "find \(query): \(found.stdout)")
        }
        let exact = try pdfedit("find", "officer", "--match-case", "--json", in: dir)
        #expect(exact.stdout.contains("\"position\" : 1"), "\(exact.stdout)")
        let removed = try pdfedit("remove", "text:Officer File", in: dir)
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = try pdfedit("list", "--json", in: dir).stdout
        #expect(left.contains("Nothing here") && !left.contains("cer"), "\(left)")
    }

    // MARK: Item 26: first listing

    /// Seconds a first `list --no-text` of an `pages`-page document takes (after `open`).
    static func firstListing(pages: Int) throws -> Double {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: pages, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        let start = Date()
        let listed = try pdfedit("list", "--no-text", in: dir)
        let seconds = Date().timeIntervalSince(start)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("big: \(pages) pages"))
        return seconds
    }

    @Test("a first list --no-text takes time linear in the page count (was quadratic: 4x pages, 16x time)")
    func firstListingIsLinear() throws {
        let small = Reliability.count(short: 3_000, long: 10_000)
        let small1 = try Self.firstListing(pages: small)
        let large1 = try Self.firstListing(pages: 4 * small)
        // Linear: about 4x; quadratic: 16x. Generous slack for a shared machine.
        #expect(large1 < 7 * small1 + 0.5, "\(small) pages: \(small1) s, \(4 * small) pages: \(large1) s")
    }

    // MARK: Items 21 and 23: pages that cannot be read or rendered

    /// Two pages reading "Page one words" and "Page two words"; `secondPage`
    /// (and `pagesNode`) can make page 2 one poppler cannot load.
    static func writeTwoPages(_ path: String, secondPage extra: String = "", count: String = "2") throws {
        func stream(_ text: String) -> String { "<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream" }
        func page(_ content: Int, _ extra: String) -> String {
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents \(content) 0 R "
                + "/Resources << /Font << /F1 7 0 R >> >> \(extra) >>"
        }
        try LimitsTests.writePDF(
            [
                1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count \(count) >>",
                3: page(4, ""), 4: stream("BT /F1 12 Tf 20 100 Td (Page one words) Tj ET"),
                5: page(6, extra), 6: stream("BT /F1 12 Tf 20 100 Td (Page two words) Tj ET"),
                7: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            ], to: path)
    }

    @Test(
        "a page poppler cannot load is named: find, list and show warn and go on, text: refuses with 65",
        arguments: [("annots", "/Annots 42", "2"), ("count", "", "4000000000")])
    func unreadablePage(_ name: String, _ extra: String, _ count: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeTwoPages(dir.appendingPathComponent("u.pdf").path, secondPage: extra, count: count)
        try pdfeditOK("open", "u.pdf", in: dir)
        // A /Count poppler does not believe loses it every page; bad /Annots only page 2.
        let named = name == "annots" ? "u.pdf: page 2:" : "u.pdf: page "
        let found = try pdfedit("find", "words", "--json", in: dir)
        #expect(found.status == 0 && Reliability.stderrProblem(found) == nil, "\(name): \(found.stderr)")
        #expect(found.stderr.contains("pdfedit: warning: ") && found.stderr.contains(named), "\(name): \(found.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
        let positions = (report?["matches"] as? [[String: Any]])?.compactMap { $0["position"] as? Int }
        if name == "annots" { #expect(positions == [1], "\(name): \(found.stdout)") }
        let listed = try pdfedit("list", in: dir)
        #expect(listed.status == 0 && listed.stderr.contains(named), "\(name): \(listed.stderr)")
        let removed = try pdfedit("remove", "text:two words", in: dir)
        #expect(removed.status == 65, "\(name): \(removed.status) \(removed.stderr)")
        #expect(Reliability.stderrProblem(removed) == nil && removed.stderr.contains(named), "\(removed.stderr)")
        let shown = try pdfedit("show", "-o", "s.png", "--json", in: dir)
        #expect(shown.status == 0 && Reliability.stderrProblem(shown) == nil, "\(name): \(shown.stderr)")
        #expect(shown.stderr.contains(named), "\(name): \(shown.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path))
        // info says so too: a warning naming the file, and the page in its JSON warnings.
        let info = try pdfedit("info", "u.pdf", "--json", in: dir)
        #expect(info.status == 0 && info.stderr.hasPrefix("pdfedit: warning: ") && info.stderr.contains("u.pdf"),
            "\(name): \(info.stderr)")
        let described = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let warnings = described?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("page ") && $0.contains("cannot read this page") }, "\(name): \(warnings)")
    }

    @Test("a render that fails is a warning and a marked frame, never cached: the next run renders the page")
    func failedRenderIsNotCached() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeTwoPages(dir.appendingPathComponent("r.pdf").path)
        try pdfeditOK("open", "r.pdf", in: dir)
        let failing = ["PDFEDIT_TEST_FAIL_RENDER": "1"]
        for command in [["show", "-o", "s.png"], ["thumbs", "t"]] {
            let result = try pdfedit(args: command + ["--json"], in: dir, environment: failing)
            #expect(result.status == 0 && Reliability.stderrProblem(result) == nil, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("r.pdf: page 1: rendering failed"), "\(command): \(result.stderr)")
            #expect(result.stdout.contains("\"rendered\" : 0"), "\(command): \(result.stdout)")
        }
        for command in [["show", "-o", "s.png"], ["thumbs", "t"]] {
            let result = try pdfedit(args: command + ["--json", "--force"], in: dir)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result.stderr)")
            // Both pages rendered now (the thumbs run after show finds them cached).
            let rendered = command[0] == "show" ? "\"rendered\" : 2" : "\"cached\" : 2"
            #expect(result.stdout.contains(rendered), "\(command): \(result.stdout)")
        }
    }

    // MARK: Items 16 and 22: trees poppler walks recursively

    /// A one-page PDF with `levels` nested levels of a page-label tree, a form-field
    /// tree or an outline.
    static func writeDeepTree(_ kind: String, levels: Int, to path: String) throws {
        var objects: [Int: String] = [
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << >> >>",
            4: LimitsTests.content,
        ]
        let first = 10
        let last = first + levels - 1
        for level in 0..<levels {
            let node = first + level
            let child = node < last ? node + 1 : nil
            switch kind {
            case "labels":
                objects[node] = child.map { "<< /Kids [\($0) 0 R] >>" } ?? "<< /Nums [0 << /S /r >>] >>"
            case "fields":
                let parent = level > 0 ? " /Parent \(node - 1) 0 R" : ""
                objects[node] =
                    child.map { "<< /T (f\(level)) /Kids [\($0) 0 R]\(parent) >>" }
                    ?? "<< /T (leaf) /FT /Tx /Subtype /Widget /Rect [10 10 100 30] /P 3 0 R\(parent) >>"
            default:
                let parent = level > 0 ? node - 1 : 5
                objects[node] =
                    "<< /Title (o\(level)) /Parent \(parent) 0 R"
                    + (child.map { " /First \($0) 0 R /Last \($0) 0 R /Count 1" } ?? " /Dest [3 0 R /Fit]") + " >>"
            }
        }
        switch kind {
        case "labels": objects[1] = "<< /Type /Catalog /Pages 2 0 R /PageLabels \(first) 0 R >>"
        case "fields":
            objects[1] = "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [\(first) 0 R] >> >>"
            objects[3] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Annots [\(last) 0 R] >>"
        default:
            objects[1] = "<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>"
            objects[5] = "<< /Type /Outlines /First \(first) 0 R /Last \(first) 0 R /Count 1 >>"
        }
        try LimitsTests.writePDF(objects, to: path)
    }

    @Test(
        "page-label, form-field and outline trees nested deeper than 1,024 levels are refused (65) before poppler walks them",
        arguments: ["labels", "fields", "outlines"])
    func deepTreesAreRefused(_ kind: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = dir.appendingPathComponent("deep.pdf").path
        try Self.writeDeepTree(kind, levels: kind == "fields" ? 1_100 : 50_000, to: deep)
        for (what, result) in try LimitsTests.everyEntry(deep, in: dir) {
            #expect(result.status == 65, "\(kind), \(what): \(result.status) \(result.stderr.prefix(300))")
            #expect(Reliability.stderrProblem(result) == nil, "\(kind), \(what): \(result.stderr.prefix(300))")
            #expect(
                result.stderr.contains("deep.pdf: over a limit:") && result.stderr.contains("more than 1024 levels"),
                "\(kind), \(what): \(result.stderr.prefix(300))")
        }
        // Within the limit the file works, through poppler too.
        let fine = dir.appendingPathComponent("fine.pdf").path
        try Self.writeDeepTree(kind, levels: kind == "fields" ? 200 : 1_000, to: fine)
        let info = try pdfedit("info", fine, in: dir)
        #expect(info.status == 0, "\(kind): \(info.stderr.prefix(300))")
        let session = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: session) }
        try pdfeditOK("open", fine, in: session)
        let shown = try pdfedit("show", "-o", "s.png", in: session)
        #expect(shown.status == 0, "\(kind): \(shown.stderr.prefix(300))")
    }

    @Test("PDFEDIT_MAX_DEPTH sets the tree limit for every walk: 40 levels pass by default and are refused under 20")
    func depthLimitFollowsTheEnvironment() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("forty.pdf").path
        for kind in ["labels", "outlines"] {
            try Self.writeDeepTree(kind, levels: 40, to: file)
            #expect(try pdfedit("info", file, in: dir).status == 0, "\(kind)")
            for arguments in [["info", file], ["export", "o.pdf", "--from", file, "--force"]] {
                let refused = try pdfedit(args: arguments, in: dir, environment: ["PDFEDIT_MAX_DEPTH": "20"])
                #expect(refused.status == 65, "\(kind) \(arguments): \(refused.stderr)")
                #expect(refused.stderr.contains("more than 20 levels"), "\(kind) \(arguments): \(refused.stderr)")
            }
        }
    }
}
