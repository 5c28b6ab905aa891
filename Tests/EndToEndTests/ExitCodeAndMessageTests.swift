import Foundation
import Testing

/// The contract of exit codes and messages (DESIGN.md's table): a script line fails
/// exactly as the same command on the command line, a password problem is 77 at
/// every entry point, usage errors are one `pdfedit:` line.
@Suite struct ExitCodeAndMessageTests {
    /// Each line fails in a script with the code and message the command line gives,
    /// prefixed with `stdin:LINE: `, and leaves the session as it was.
    @Test func scriptLinesFailLikeTheCommandLine() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("encrypted.pdf"), toPath: dir.appendingPathComponent("encrypted.pdf").path)
        try Data("not a pdf at all\n".utf8).write(to: dir.appendingPathComponent("notes.pdf"))
        let cases: [(line: [String], code: Int32)] = [
            (["insert", "missing.pdf"], 66),
            (["insert", "notes.pdf"], 65),
            (["insert", "encrypted.pdf"], 77),
            (["insert", "encrypted.pdf", "--password", "wrong"], 77),
            (["insert", "missing.pdf", "encrypted.pdf"], 66),
            (["mv", "1", "--to", "2"], 64),
            (["move", "1", "--bogus"], 64),
            (["move"], 64),
            (["remove", "99"], 64),
        ]
        let before = try sessionBytes(dir)
        for (line, code) in cases {
            let direct = try pdfedit(args: line, in: dir)
            #expect(direct.status == code, "\(line): \(direct.stderr)")
            #expect(direct.stderrLines.allSatisfy { $0.hasPrefix("pdfedit: ") && !$0.hasPrefix("pdfedit: stdin") })
            let script = try pdfedit("run", "-", in: dir, stdin: "# first line\n" + line.joined(separator: " ") + "\n")
            #expect(script.status == code, "\(line) in a script: \(script.stderr)")
            let expected = direct.stderrLines.map { "pdfedit: stdin:2: " + $0.dropFirst("pdfedit: ".count) }
            #expect(script.stderrLines == expected, "\(line)")
            #expect(try sessionBytes(dir) == before, "\(line)")
        }
    }

    @Test func unknownCommandIsNamedWithTheClosestOne() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let typo = try pdfedit("mv", "1", "--to", "2", in: dir)
        #expect(typo.status == 64)
        #expect(typo.stderr == "pdfedit: unknown command 'mv'; did you mean 'move'?\n")
        let unknown = try pdfedit("frobnicate", in: dir)
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "pdfedit: unknown command 'frobnicate'; see 'pdfedit --help'\n")
    }

    /// ArgumentParser's "Error: …" + usage + "See …" becomes one `pdfedit:` line with the hint.
    @Test func usageErrorsAreOnePdfeditLine() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["move"], ["move", "1", "--bogus"], ["rotate", "1", "--by"], ["--bogus"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("pdfedit: ") && !result.stderr.contains("Error:"), "\(result.stderr)")
        }
        let missing = try pdfedit("move", in: dir)
        #expect(missing.stderr == "pdfedit: missing expected argument '<selection>'; see 'pdfedit move --help'\n")
        let help = try pdfedit("move", "--help", in: dir)
        #expect(help.status == 0 && help.stdout.contains("USAGE: pdfedit move"))
        let helpCommand = try pdfedit("help", "move", in: dir)
        #expect(helpCommand.status == 0 && helpCommand.stdout.contains("USAGE: pdfedit move"))
        try pdfeditOK("--version", in: dir)
    }

    /// 77, not 65, for a missing or wrong password: direct mode, sessions, info,
    /// insert (several failing: the first input decides), scripts, export.
    @Test func passwordProblemsExit77Everywhere() throws {
        let dir = try scratchDirectory(with: "encrypted.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for password in [[], ["--password", "wrong"]] {
            let info = try pdfedit(args: ["info", "encrypted.pdf"] + password, in: dir)
            #expect(info.status == 77, "\(info.stderr)")
            #expect(info.stderr.contains("encrypted.pdf"))
            let direct = try pdfedit(args: ["reverse", "all", "encrypted.pdf", "-o", "out.pdf"] + password, in: dir)
            #expect(direct.status == 77, "\(direct.stderr)")
            let inserted = try pdfedit(args: ["insert", "encrypted.pdf", "--at", "1", "alpha.pdf", "-o", "out.pdf"] + password, in: dir)
            #expect(inserted.status == 77, "\(inserted.stderr)")
            let opened = try pdfedit(args: ["open", "encrypted.pdf"] + password, in: dir)
            #expect(opened.status == 77, "\(opened.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for password in [[], ["--password", "wrong"]] {
            let insert = try pdfedit(args: ["insert", "encrypted.pdf"] + password, in: dir)
            #expect(insert.status == 77, "\(insert.stderr)")
            let script = try pdfedit(args: ["run", "-"] + password, in: dir, stdin: "insert encrypted.pdf\n")
            #expect(script.status == 77, "\(script.stderr)")
        }
        // Several failing inputs: the first in argument order decides; --keep-going keeps 3.
        #expect(try pdfedit("insert", "encrypted.pdf", "missing.pdf", in: dir).status == 77)
        #expect(try pdfedit("insert", "missing.pdf", "encrypted.pdf", in: dir).status == 66)
        let partial = try pdfedit("insert", "encrypted.pdf", "alpha.pdf", "--keep-going", in: dir)
        #expect(partial.status == 3, "\(partial.stderr)")
        // A session source that needs a password at export.
        try pdfeditOK("undo", in: dir)
        try pdfeditOK("insert", "encrypted.pdf", "--password", "secret", in: dir)
        let export = try pdfedit("export", "out.pdf", in: dir)
        #expect(export.status == 77, "\(export.stderr)")
        let wrongExport = try pdfedit("export", "out.pdf", "--password", "wrong", in: dir)
        #expect(wrongExport.status == 77, "\(wrongExport.stderr)")
        try pdfeditOK("export", "out.pdf", "--password", "secret", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        let tokens = try pageTokens(out)
        #expect(tokens.filter { $0.hasPrefix("ENC-") } == ["ENC-P1", "ENC-P2"], "\(tokens)")
        #expect(tokens.filter { $0.hasPrefix("ALPHA-") } == (1...7).map { "ALPHA-P\($0)" }, "\(tokens)")
    }

    /// A script line's own --password is used for that line.
    @Test func scriptLinePasswordIsUsed() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("encrypted.pdf"), toPath: dir.appendingPathComponent("encrypted.pdf").path)
        let result = try pdfedit("run", "-", in: dir, stdin: "insert encrypted.pdf --password secret --at 1\n")
        #expect(result.status == 0, "\(result.stderr)")
        try pdfeditOK("export", "out.pdf", "--password", "secret", in: dir)
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try qpdfPageCount(out) == 9)
        #expect(try pageText(out, 1).contains("ENC-P1"))
    }

    @Test func crlfScriptsAreReadLineByLine() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("run", "-", in: dir, stdin: "# reorder\r\nmove 7 --to 1\r\nremove 2\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("applied 2 commands as one step"))
        try pdfeditOK("export", "out.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("out.pdf"))
            == ["ALPHA-P7", "ALPHA-P2", "ALPHA-P3", "ALPHA-P4", "ALPHA-P5", "ALPHA-P6"])
        let bad = try pdfedit("run", "-", in: dir, stdin: "move 1 --to 2\r\nremove 99\r\n")
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("pdfedit: stdin:2: "))
    }

    /// `use` is not an undo step, alone or in a script; undo after a script that
    /// used a document and then edited it keeps that document current, as the
    /// same commands one by one do.
    @Test func useInAScriptIsNoUndoStep() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        struct Entry: Decodable { var index: Int }
        struct Docs: Decodable { var current: String }
        let before = try decode([Entry].self, try pdfedit("history", "--json", in: dir)).count
        try pdfeditOK("run", "-", in: dir, stdin: "use beta\n")
        #expect(try decode([Entry].self, try pdfedit("history", "--json", in: dir)).count == before)
        #expect(try decode(Docs.self, try pdfedit("docs", "--json", in: dir)).current == "beta")
        try pdfeditOK("run", "-", in: dir, stdin: "use alpha\nremove 1\n")
        #expect(try decode([Entry].self, try pdfedit("history", "--json", in: dir)).count == before + 1)
        try pdfeditOK("undo", in: dir)
        #expect(try decode(Docs.self, try pdfedit("docs", "--json", in: dir)).current == "alpha")
    }

    @Test func nameTemplateWithAControlCharacterIsRefused() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for template in ["part\n{n}", "part{n}\t.pdf", "a\u{7F}{n}"] {
            let result = try pdfedit("export", "--split", "parts", "--name", template, in: dir)
            #expect(result.status == 64, "\(template): \(result.stderr)")
            #expect(result.stderr.contains("a part needs a plain file name"))
            #expect(result.stderrLines.count == 1)
            let made = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)) ?? []
            #expect(made.isEmpty, "\(made)")
        }
    }

    /// An APNG is refused (65) rather than silently cut to its first frame; the same
    /// picture as a still PNG is imported.
    @Test func animatedPNGIsRefused() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let maker = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            width = height = 8
            raw = b"".join(b"\\0" + b"\\x80\\x20\\x20" * width for _ in range(height))
            head = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            body = chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
            animation = chunk(b"acTL", struct.pack(">II", 2, 0))
            png = b"\\x89PNG\\r\\n\\x1a\\n"
            open(sys.argv[1], "wb").write(png + head + animation + body)
            open(sys.argv[2], "wb").write(png + head + body)
            """
        let made = try run("python3", ["-c", maker, dir.appendingPathComponent("anim.png").path, dir.appendingPathComponent("still.png").path])
        try #require(made.status == 0, "\(made.stderr)")
        let animated = try pdfedit("insert", "anim.png", in: dir)
        #expect(animated.status == 65)
        #expect(animated.stderr == "pdfedit: anim.png: unusable image: an animated PNG (APNG) of 2 frames; only still images can be pages\n")
        try pdfeditOK("insert", "still.png", in: dir)
    }

    /// Every key the manual documents for `info --json` is present, null when unknown.
    @Test func infoJSONWritesDocumentedNulls() throws {
        // qpdf --empty writes no /Info: no title, producer or creator.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bare = dir.appendingPathComponent("bare.pdf").path
        try #require(try run("qpdf", ["--empty", "--pages", Paths.fixture("alpha.pdf"), "1", "--", bare]).status == 0)
        let result = try pdfedit("info", bare, "--json", "--no-text")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in ["file", "pageCount", "pdfVersion", "encrypted", "producer", "creator", "title", "hasForm",
            "hasOutlines", "hasPageLabels", "tagged", "warnings", "pages"]
        {
            #expect(object[key] != nil, "missing \(key)")
        }
        for key in ["title", "producer", "creator"] { #expect(object[key] is NSNull, "\(key)") }
        let page = try #require((object["pages"] as? [[String: Any]])?.first)
        for key in ["number", "width", "height", "sizeName", "rotation", "label", "text"] {
            #expect(page[key] != nil, "missing pages[].\(key)")
        }
        #expect(page["label"] is NSNull)
        #expect(page["text"] is NSNull)
    }

    /// The keys the manual's table documents without `?` are always there.
    @Test func documentedJSONKeysArePresent() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        func object(_ arguments: String...) throws -> Any {
            let result = try pdfedit(args: arguments + ["--json"], in: dir)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        }
        func expectKeys(_ value: Any?, _ keys: [String], _ what: String) {
            let dictionary = value as? [String: Any] ?? [:]
            for key in keys { #expect(dictionary[key] != nil, "\(what): no \(key)") }
        }
        let edit = try object("rotate", "1", "--by", "90")
        expectKeys(edit, ["action", "description", "document", "pageCount", "positions", "ids", "newSources"], "edit")
        expectKeys(try object("docs"), ["session", "current", "documents"], "docs")
        expectKeys(((try object("docs")) as? [String: Any])?["documents"].flatMap { ($0 as? [Any])?.first }, ["name", "pageCount", "current"], "docs entry")
        expectKeys(try object("status"), ["session", "current", "documents", "undoSteps", "redoSteps", "sources"], "status")
        expectKeys((try object("history") as? [Any])?.first, ["index", "label", "isUndone"], "history")
        let list = try object("list")
        expectKeys(list, ["document", "pageCount", "items"], "list")
        expectKeys(((list as? [String: Any])?["items"] as? [Any])?.first, ["position", "id", "kind", "rotation"], "list item")
        let find = try object("find", "ALPHA-P2")
        expectKeys(find, ["document", "query", "caseSensitive", "matches"], "find")
        expectKeys(((find as? [String: Any])?["matches"] as? [Any])?.first, ["position", "id", "excerpt"], "find match")
        expectKeys((try object("export", "out.pdf") as? [Any])?.first, ["output", "document", "pageCount", "warnings"], "export")
        expectKeys(try object("undo"), ["action", "steps"], "undo")
    }

    @Test func directModeMessages() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = try pdfedit("remove", "2..7", "alpha.pdf", "-o", "one.pdf", in: dir)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.hasSuffix("wrote one.pdf (1 page)\n"), "\(one.stdout)")
        let over = try pdfedit("reverse", "all", "alpha.pdf", "-o", "alpha.pdf", in: dir)
        #expect(over.status == 73)
        #expect(over.stderr.hasPrefix("pdfedit: alpha.pdf: is the input file;"), "\(over.stderr)")
        #expect(!over.stderr.contains("session"))
    }

    /// The `*` of the current document is a column of its own: names line up.
    @Test func docsColumnsStayAligned() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try pdfedit("docs", in: dir).stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        let columns = lines.compactMap { line in line.range(of: line.contains("DOCUMENT") ? "DOCUMENT" : line.contains("alpha") ? "alpha" : "beta").map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
        #expect(Set(columns).count == 1, "\(lines)")
        #expect(lines[1].hasPrefix("*"))
    }

    /// A one-item sheet is as wide as its header needs: a longer document name
    /// makes a wider sheet (it used to be cut to the width of one thumbnail).
    @Test func oneItemContactSheetFitsItsTitle() throws {
        let dir = try sessionDirectory(opening: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        struct Sheet: Decodable { var width: Int }
        struct Report: Decodable { var thumbnailSize: Int; var sheets: [Sheet] }
        let short = try decode(Report.self, try pdfedit("show", "1", "-o", "short.png", "--json", "--size", "100", in: dir))
        try pdfeditOK("rename", "alpha", "a-rather-long-document-name", in: dir)
        let long = try decode(Report.self, try pdfedit("show", "1", "-o", "long.png", "--json", "--size", "100", in: dir))
        #expect(short.sheets[0].width > short.thumbnailSize + 2 * 12)
        #expect(long.sheets[0].width > short.sheets[0].width + 100)
        #expect(try Pixels.pngSize(dir.appendingPathComponent("long.png").path).width == long.sheets[0].width)
    }
}
