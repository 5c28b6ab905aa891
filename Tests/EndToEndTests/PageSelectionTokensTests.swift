import Foundation
import Testing

/// Issue 46, "Selections that look at the pages": `landscape`, `portrait`,
/// `size:`, `annotated`, `image-only`, `label:`, `outline:` and `dup`, each
/// checked against what independent tools (pdfinfo, qpdf's JSON, pdftotext)
/// say the pages are.
@Suite struct PageSelectionTokensTests {
    /// Positions `list SEL --json` gives in the session of `dir`.
    private func listed(_ selection: String, in dir: URL, doc: String? = nil) throws -> [Int] {
        var arguments = ["list", selection, "--json", "--no-text"]
        if let doc { arguments += ["--doc", doc] }
        let result = try pdfedit(args: arguments, in: dir)
        guard result.status == 0 else { return [] }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let items = object?["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["position"] as? Int }
    }

    /// Each page's displayed width and height as pdfinfo reads them (crop box, /Rotate applied).
    private func pdfinfoSizes(_ file: String) throws -> [(Double, Double)] {
        let info = try run("pdfinfo", ["-f", "1", "-l", "9999", file]).stdout
        var sizes: [Int: (Double, Double)] = [:]
        var rotations: [Int: Int] = [:]
        for line in info.split(separator: "\n") {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count >= 4, words[0] == "Page", let page = Int(words[1]) else { continue }
            if words[2] == "size:", let width = Double(words[3]), let height = Double(words[5]) {
                sizes[page] = (width, height)
            } else if words[2] == "rot:", let rotation = Int(words[3]) {
                rotations[page] = rotation
            }
        }
        return sizes.keys.sorted().map { page in
            let (width, height) = sizes[page]!
            return (rotations[page] ?? 0) % 180 == 0 ? (width, height) : (height, width)
        }
    }

    @Test("landscape and portrait pick what pdfinfo shows wider or taller; rotate landscape makes every page portrait")
    func orientation() throws {
        let dir = try scratchDirectory(with: "sizes.pdf", "beta.pdf", "rotated.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("merge", "sizes.pdf", "beta.pdf", "rotated.pdf", "-o", "all.pdf", in: dir)
        let all = dir.appendingPathComponent("all.pdf").path
        let sizes = try pdfinfoSizes(all)
        #expect(sizes.count == 13)
        let wide = sizes.indices.filter { sizes[$0].0 > sizes[$0].1 }.map { $0 + 1 }
        let tall = sizes.indices.filter { sizes[$0].1 > sizes[$0].0 }.map { $0 + 1 }
        #expect(!wide.isEmpty && !tall.isEmpty)

        try pdfeditOK("open", "all.pdf", in: dir)
        #expect(try listed("landscape", in: dir) == wide)
        #expect(try listed("portrait", in: dir) == tall)
        // An item's own rotation counts: turning page 1 makes it landscape.
        try pdfeditOK("rotate", "1", "--by", "90", in: dir)
        #expect(try listed("landscape", in: dir) == ([1] + wide).sorted())

        // Direct mode: rotate every landscape page; pdfinfo then sees no wide page.
        try pdfeditOK("rotate", "landscape", "--by", "90", "all.pdf", "-o", "upright.pdf", in: dir)
        let upright = try pdfinfoSizes(dir.appendingPathComponent("upright.pdf").path)
        #expect(upright.count == 13 && upright.allSatisfy { $0.1 >= $0.0 }, "\(upright)")
        #expect(try qpdfCheck(dir.appendingPathComponent("upright.pdf").path).status == 0)
    }

    @Test("size:a4 picks A4 pages either way round, within the stated tolerance; size:WxH in units too")
    func sizes() throws {
        let dir = try scratchDirectory(with: "sizes.pdf", "beta.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("merge", "sizes.pdf", "beta.pdf", "alpha.pdf", "-o", "all.pdf", in: dir)
        let all = dir.appendingPathComponent("all.pdf").path
        let sizes = try pdfinfoSizes(all)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(2, b * 0.01) }
        let a4 = sizes.indices.filter { index in
            let (w, h) = sizes[index]
            return (near(w, 595.28) && near(h, 841.89)) || (near(w, 841.89) && near(h, 595.28))
        }.map { $0 + 1 }
        #expect(a4.count >= 4, "\(sizes)")

        try pdfeditOK("export", "a4.pdf", "size:a4", "--from", "all.pdf", in: dir)
        let exported = try pdfinfoSizes(dir.appendingPathComponent("a4.pdf").path)
        #expect(exported.count == a4.count)
        #expect(exported.allSatisfy { Set([Int($0.0.rounded()), Int($0.1.rounded())]) == [595, 842] }, "\(exported)")
        // Letter pages, named in millimetres and in inches.
        try pdfeditOK("open", "all.pdf", in: dir)
        let letter = try listed("size:letter", in: dir)
        #expect(letter == (try listed("size:8.5x11in", in: dir)))
        #expect(letter == (try listed("size:215.9x279.4mm", in: dir)))
        #expect(letter.count == 7, "\(letter)")
        // like:P is a --size word, not a size to match.
        let like = try pdfedit("list", "size:like:1", in: dir)
        #expect(like.status == 64 && like.stderr.contains("\"size:like:1\" is not a selection token"), "\(like.stderr)")
    }

    /// Pages (1-based) carrying annotations other than popups, read from qpdf's JSON.
    private func annotatedPages(_ file: String) throws -> [Int] {
        let script = """
            import json, sys
            d = json.load(open(sys.argv[1]))
            objs = {}
            for part in d["qpdf"][1:]:
                objs.update(part)
            def value(ref):
                if isinstance(ref, str) and ref.endswith(" R"):
                    o = objs.get("obj:" + ref, {})
                    return o.get("value", o.get("stream", {}).get("dict"))
                return ref
            out = []
            for i, page in enumerate(d["pages"]):
                annots = value(value(page["object"]).get("/Annots", [])) or []
                real = [a for a in annots if (value(a) or {}).get("/Subtype") != "/Popup"]
                if real:
                    out.append(i + 1)
            print(" ".join(map(str, out)))
            """
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("annots-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let dump = try run("qpdf", ["--json=2", file, json.path])
        #expect(dump.status == 0 || dump.status == 3, "\(dump.stderr)")
        let result = try run("python3", ["-c", script, json.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    @Test("annotated picks the pages qpdf's JSON shows with annotations; remove annotated leaves none")
    func annotated() throws {
        let dir = try scratchDirectory(with: "features.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("merge", "alpha.pdf", "features.pdf", "-o", "all.pdf", in: dir)
        let all = dir.appendingPathComponent("all.pdf").path
        let expected = try annotatedPages(all)
        #expect(expected.count >= 3 && expected.allSatisfy { $0 > 7 }, "\(expected)")
        try pdfeditOK("open", "all.pdf", in: dir)
        #expect(try listed("annotated", in: dir) == expected)

        try pdfeditOK("remove", "annotated", "all.pdf", "-o", "plain.pdf", in: dir)
        let plain = dir.appendingPathComponent("plain.pdf").path
        #expect(try qpdfPageCount(plain) == 13 - expected.count)
        #expect(try annotatedPages(plain).isEmpty)
    }

    @Test("annotated on corpus files: each page's annotations as qpdf's JSON counts them", .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func annotatedCorpus() throws {
        for name in ["pdfjs-comments.pdf", "sample-pdflatex-outline.pdf", "pdfjs-annotation-link-text-popup.pdf"] {
            let dir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            try pdfeditOK("open", Paths.corpus(name), in: dir)
            #expect(try listed("annotated", in: dir) == (try annotatedPages(Paths.corpus(name))), "\(name)")
        }
    }

    @Test("image-only picks pages pdftotext finds no text on, and image items")
    func imageOnly() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "photo.jpg")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "photo.jpg", "--at", "3", in: dir)
        try pdfeditOK("blank", "--at", "1", in: dir)
        // The blank page has no text but is no image: not picked.
        #expect(try listed("image-only", in: dir) == [4])
        try pdfeditOK("export", "out.pdf", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let textless = try (1...9).filter { try pageText(out, $0).allSatisfy(\.isWhitespace) }
        #expect(textless == [1, 4])
    }

    @Test("label: picks by the label list shows; label:A..B runs from A to the next B", .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone)"))
    func labels() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Paths.corpus("pdfjs-labelled_pages.pdf")
        // The labels as qpdf reads them: i ii iii iv 1 2 3 a b 4 5.
        try pdfeditOK("open", source, in: dir)
        #expect(try listed("label:iii", in: dir) == [3])
        #expect(try listed("label:ii..2", in: dir) == [2, 3, 4, 5, 6])
        #expect(try listed("label:\"b\"", in: dir) == [9])
        #expect(try listed("label:iv,label:a..b", in: dir) == [4, 8, 9])
        try pdfeditOK("export", "front.pdf", "label:i..iv", in: dir)
        let front = dir.appendingPathComponent("front.pdf").path
        #expect(try qpdfPageCount(front) == 4)
        let json = try run("qpdf", ["--json", "--json-key=pagelabels", front]).stdout
        #expect(json.contains("\"/S\": \"/r\""), "\(json)")
        let none = try pdfedit("remove", "label:xx", in: dir)
        #expect(none.status == 0 && none.stderr.contains("\"label:xx\" matches no page"), "\(none.stderr)")
        #expect(try pdfedit("list", "label:", in: dir).status == 64)
    }

    @Test("outline: picks the pages under a bookmark, up to the next one outside it")
    func outline() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("merge", "alpha.pdf", "beta.pdf", "-o", "book.pdf", "--outline", "per-source", in: dir)
        try pdfeditOK("open", "book.pdf", in: dir)
        // Bookmarks per source: "alpha" at 1, "beta" at 8.
        #expect(try listed("outline:beta", in: dir) == Array(8...12))
        #expect(try listed("outline:\"ALPHA\"", in: dir) == Array(1...7))
        try pdfeditOK("export", "beta-part.pdf", "outline:beta", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("beta-part.pdf")) == (1...5).map { "BETA-P\($0)" })
        // A top-level bookmark of our own at 10 ends beta's section before it.
        try pdfeditOK("outline", "add", "Rates, 2026", "10", in: dir)
        #expect(try listed("outline:\"rates,  2026\"", in: dir) == [10, 11, 12])
        #expect(try listed("outline:beta", in: dir) == [8, 9])
    }

    @Test("dup picks later copies, in one file or across files; a rotated copy is not one; undo gives them back")
    func duplicates() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The same pages written again by qpdf: other object numbers, same content.
        let copy = try run("qpdf", ["--object-streams=generate", "alpha.pdf", "again.pdf"], in: dir)
        #expect(copy.status == 0)
        try pdfeditOK("merge", "alpha.pdf", "beta.pdf", "again.pdf", "-o", "all.pdf", in: dir)
        try pdfeditOK("remove", "dup", "all.pdf", "-o", "once.pdf", in: dir)
        let once = dir.appendingPathComponent("once.pdf")
        #expect(try pageTokens(once) == (1...7).map { "ALPHA-P\($0)" } + (1...5).map { "BETA-P\($0)" })
        #expect(try qpdfCheck(once.path).status == 0)

        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("duplicate", "2,5", in: dir)
        try pdfeditOK("copy", "1", "--to", "last", in: dir)
        try pdfeditOK("rotate", "10", "--by", "90", in: dir)  // the copy of page 1, turned
        try pdfeditOK("blank", "--at", "1", "--count", "2", in: dir)
        // 1-2 blanks, 3 A1, 4 A2, 5 A2', 6 A3, 7 A4, 8 A5, 9 A5', 10 A6, 11 A7, 12 A1 turned.
        #expect(try listed("dup", in: dir) == [2, 5, 9])
        try pdfeditOK("remove", "dup", in: dir)
        #expect(try listed("all", in: dir).count == 9)
        try pdfeditOK("undo", in: dir)
        #expect(try listed("dup", in: dir) == [2, 5, 9])
    }

    @Test("dup on a tiny file whose objects repeat a million times over and loop: fast, and its copies found")
    func duplicatesOfHostileFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Objects 5..8: each an array of 200 references to the next (200^3 paths
        // to object 8); 9 refers to itself; pages 1 and 2 draw the same content
        // from separate stream objects, page 3 another.
        let script = #"""
            import sys
            objs = {}
            objs[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
            objs[2] = b"<< /Type /Pages /Kids [3 0 R 4 0 R 10 0 R] /Count 3 >>"
            for n, c in ((3, 11), (4, 12), (10, 13)):
                objs[n] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 14 0 R >> /X 5 0 R /L 9 0 R >> /Contents %d 0 R >>" % c
            for n in (5, 6, 7):
                objs[n] = b"[" + b" ".join(b"%d 0 R" % (n + 1) for _ in range(200)) + b"]"
            objs[8] = b"<< /Leaf true >>"
            objs[9] = b"[9 0 R]"
            for n, text in ((11, b"same"), (12, b"same"), (13, b"other")):
                body = b"BT /F1 12 Tf 20 100 Td (" + text + b") Tj ET"
                objs[n] = b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"
            objs[14] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
            out = bytearray(b"%PDF-1.4\n")
            offsets = {}
            for n in sorted(objs):
                offsets[n] = len(out)
                out += b"%d 0 obj\n" % n + objs[n] + b"\nendobj\n"
            xref = len(out)
            size = max(objs) + 1
            out += b"xref\n0 %d\n0000000000 65535 f \n" % size
            for n in range(1, size):
                out += b"%010d 00000 n \n" % offsets[n] if n in offsets else b"0000000000 65535 f \n"
            out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
            open(sys.argv[1], "wb").write(out)
            """#
        let file = dir.appendingPathComponent("repeat.pdf").path
        #expect(try run("python3", ["-c", script, file]).status == 0)
        #expect(try qpdfCheck(file).status == 0)
        let start = Date()
        try pdfeditOK("remove", "dup", "repeat.pdf", "-o", "once.pdf", in: dir)
        #expect(Date().timeIntervalSince(start) < 20)
        let once = dir.appendingPathComponent("once.pdf").path
        #expect(try qpdfPageCount(once) == 2)
        #expect(try pageText(once, 1).contains("same") && (try pageText(once, 2).contains("other")))
    }

    @Test("a quoted value may hold commas; text: takes quotes off too")
    func quotedValues() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        #expect(try listed("text:\"ALPHA-P3\",7", in: dir) == [3, 7])
        // An unclosed quote: the rest is one token, whose words match no page.
        let open = try pdfedit("list", "text:\"ALPHA-P3,7", in: dir)
        #expect(open.status == 64 && open.stderr.contains("matches no page"), "\(open.stderr)")
        #expect(try pdfedit("list", "outline:", in: dir).status == 64)
    }
}
