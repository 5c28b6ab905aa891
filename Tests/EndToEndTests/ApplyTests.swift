import Foundation
import Testing

/// `pdfedit apply`: one script over many files in one process. Inputs are made
/// from the committed fixtures with qpdf; every output is checked with qpdf,
/// pdfinfo and pdftotext.
@Suite struct ApplyTests {
    /// The 2-line script the batch tests use: a quarter turn of page 1, page 2 removed.
    static let script = "# turn the cover, drop page 2\nrotate 1 --by 90\nremove 2\n"

    /// What `script` makes of a file whose pages carry `tokens`.
    static func edited(_ tokens: [String]) -> [String] { tokens.enumerated().filter { $0.offset != 1 }.map(\.element) }

    /// `count` inputs in `dir/folder`, named f1.pdf…, made by qpdf from alpha,
    /// beta and gamma in turn (each a different document); returns their paths
    /// relative to `dir`.
    static func makeInputs(_ count: Int, in dir: URL, folder: String = "in") throws -> [String] {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        let fixtures = ["alpha.pdf", "beta.pdf", "gamma.pdf"]
        return try (1...count).map { number in
            let name = "\(folder)/f\(number).pdf"
            let made = try run(
                "qpdf", ["--empty", "--pages", Paths.fixture(fixtures[(number - 1) % 3]), "1-z", "--", name], in: dir)
            #expect(made.status == 0, "\(made.stderr)")
            return name
        }
    }

    /// pdfinfo's rotation of each page.
    static func rotations(_ file: String) throws -> [Int] {
        let info = try run("pdfinfo", ["-f", "1", "-l", "9999", file]).stdout
        return info.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains(" rot:") }.compactMap {
            $0.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// Every file below `dir` whose name marks it as a pdfedit temporary.
    static func temporaries(below dir: URL) -> [String] {
        let names = FileManager.default.subpaths(atPath: dir.path) ?? []
        return names.filter { $0.contains(".pdfedit-tmp-") }
    }

    /// Checks that `output` is `input` with the script's edits, with independent tools.
    static func expectEdited(_ output: URL, from input: URL) throws {
        #expect(try qpdfCheck(output.path).status == 0, "\(output.lastPathComponent)")
        let tokens = try pageTokens(input)
        #expect(try pageTokens(output) == edited(tokens), "\(output.lastPathComponent)")
        #expect(try rotations(output.path) == [90] + Array(repeating: 0, count: tokens.count - 2))
    }

    @Test func aScriptAndEditLinesApplyToEachFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(5, in: dir)
        let before = try inputs.map { try Data(contentsOf: dir.appendingPathComponent($0)) }
        try Self.script.write(to: dir.appendingPathComponent("fix.txt"), atomically: true, encoding: .utf8)
        let result = try pdfeditOK(args: ["apply", "fix.txt"] + inputs + ["-o", "out/{name}"], in: dir)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        for (index, input) in inputs.enumerated() {
            #expect(lines[index].hasPrefix("ok "), "\(lines[index])")
            #expect(lines[index].contains("\(input) -> out/f\(index + 1).pdf"), "\(lines[index])")
            try Self.expectEdited(dir.appendingPathComponent("out/f\(index + 1).pdf"), from: dir.appendingPathComponent(input))
        }
        #expect(try inputs.map { try Data(contentsOf: dir.appendingPathComponent($0)) } == before)

        // The same lines with -e give the same files, byte for byte.
        try pdfeditOK(
            args: ["apply", "-e", "rotate 1 --by 90", "--edit", "remove 2"] + inputs + ["-o", "again/{name}"], in: dir)
        for number in 1...5 {
            #expect(
                try Data(contentsOf: dir.appendingPathComponent("again/f\(number).pdf"))
                    == Data(contentsOf: dir.appendingPathComponent("out/f\(number).pdf")))
        }
        #expect(Self.temporaries(below: dir) == [])
    }

    /// Authoring lines (page labels, metadata, bookmarks) apply to every file of a batch.
    @Test func labelsAndMetadataApplyToEachFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(2, in: dir)
        try pdfeditOK(
            args: ["apply", "-e", "labels 1:r 3:D", "-e", "meta --title Batch", "-e", "outline add \"Start here\" 2"] + inputs
                + ["-o", "out/{name}"], in: dir)
        for name in ["f1.pdf", "f2.pdf"] {
            let out = dir.appendingPathComponent("out/\(name)").path
            let labels = try run("qpdf", ["--json=2", "--json-key=pagelabels", out]).stdout
            let ranges = (try JSONSerialization.jsonObject(with: Data(labels.utf8)) as? [String: Any])?["pagelabels"] as? [[String: Any]]
            #expect(ranges?.map { $0["index"] as? Int } == [0, 2], "\(labels)")
            #expect(ranges?.map { ($0["label"] as? [String: Any])?["/S"] as? String } == ["/r", "/D"])
            #expect(try run("pdfinfo", [out]).stdout.contains("Title:           Batch"))
            let outline = try run("qpdf", ["--json=2", "--json-key=outlines", out]).stdout
            let entries = (try JSONSerialization.jsonObject(with: Data(outline.utf8)) as? [String: Any])?["outlines"] as? [[String: Any]]
            #expect(entries?.map { $0["title"] as? String } == ["Start here"], "\(outline)")
            #expect(entries?.first?["destpageposfrom1"] as? Int == 2)
        }
    }

    @Test func templateFieldsAndCreatedFolders() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(1, in: dir, folder: "a") + Self.makeInputs(2, in: dir, folder: "b/c")
        let result = try pdfeditOK(
            args: ["apply", "-e", "rotate 1 --by 90", "-e", "remove 2"] + inputs + ["-o", "{dir}/made/{n}-{stem}.x/{name}"],
            in: dir)
        #expect(result.stdout.split(separator: "\n").count == 3)
        let expected = ["a/made/1-f1.x/f1.pdf", "b/c/made/2-f1.x/f1.pdf", "b/c/made/3-f2.x/f2.pdf"]
        for (input, output) in zip(inputs, expected) {
            try Self.expectEdited(dir.appendingPathComponent(output), from: dir.appendingPathComponent(input))
        }
        // Nothing appended: a template without .pdf gives a name without it.
        try pdfeditOK(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "plain/{n}"], in: dir)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("plain").path).sorted()
                == ["1", "2", "3"])
    }

    @Test func aWrongBatchIsRefusedBeforeAnythingIsWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(1, in: dir, folder: "a") + Self.makeInputs(1, in: dir, folder: "b")
        let collision = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "out/{name}"], in: dir)
        #expect(collision.status == 64)
        #expect(collision.stderr.contains("a/f1.pdf and b/f1.pdf would both be written to out/f1.pdf"), "\(collision.stderr)")
        let onInput = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "{dir}/{name}"], in: dir)
        #expect(onInput.status == 64)
        #expect(onInput.stderrLines.count == 2, "\(onInput.stderr)")
        let unknown = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "out/{n}-{page}"], in: dir)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("{page}"))
        // Lines that do not edit are refused as in `run`, and so is --doc.
        let export = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90", "-e", "export x.pdf"] + inputs + ["-o", "out/{n}"], in: dir)
        #expect(export.status == 64)
        #expect(export.stderr.contains("-e:2:"), "\(export.stderr)")
        let doc = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90 --doc x"] + inputs + ["-o", "out/{n}"], in: dir)
        #expect(doc.status == 64)
        // - is only ever the SCRIPT (standard input), never a FILE or the TEMPLATE.
        let stdinFile = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90", "-"] + inputs + ["-o", "out/{n}"], in: dir)
        let stdoutTemplate = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "-"], in: dir)
        for run in [stdinFile, stdoutTemplate] {
            #expect(run.status == 64)
            #expect(run.stderr == "pdfedit: apply reads and writes files: - (standard input or output) can only be its SCRIPT\n")
        }
        for run in [collision, onInput, unknown, export, doc, stdinFile, stdoutTemplate] { #expect(run.stdout == "") }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("a").path) == ["f1.pdf"])
    }

    /// A damaged third file of five, one file at a time: the batch stops there.
    @Test func aDamagedFileStopsTheBatch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var inputs = try Self.makeInputs(5, in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent(inputs[2]))
        try FileManager.default.copyItem(atPath: Paths.fixture("truncated.pdf"), toPath: dir.appendingPathComponent("in/bad.pdf").path)
        inputs[2] = "in/bad.pdf"
        let result = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90", "-e", "remove 2"] + inputs + ["-o", "out/{name}", "-j", "1"], in: dir)
        #expect(result.status == 65)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["ok", "ok", "failed", "not", "not"], "\(lines)")
        #expect(lines[2].hasPrefix("failed      in/bad.pdf: ") && lines[2].hasSuffix("(exit 65)"), "\(lines[2])")
        #expect(lines[3] == "not started in/f4.pdf -> out/f4.pdf")
        #expect(result.stderrLines.allSatisfy { $0.hasPrefix("pdfedit: ") }, "\(result.stderr)")
        #expect(result.stderrLines.first?.hasPrefix("pdfedit: in/bad.pdf: ") == true, "\(result.stderr)")
        #expect(result.stderrLines.last == "pdfedit: 1 of 5 files failed, 2 not started")
        for number in 1...2 {
            try Self.expectEdited(dir.appendingPathComponent("out/f\(number).pdf"), from: dir.appendingPathComponent(inputs[number - 1]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).sorted() == ["f1.pdf", "f2.pdf"])

        let going = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90", "-e", "remove 2"] + inputs + ["-o", "all/{name}", "--keep-going"], in: dir)
        #expect(going.status == 3)
        #expect(going.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["ok", "ok", "skipped", "ok", "ok"])
        for number in [1, 2, 4, 5] {
            try Self.expectEdited(dir.appendingPathComponent("all/f\(number).pdf"), from: dir.appendingPathComponent(inputs[number - 1]))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("all/bad.pdf").path))
        #expect(Self.temporaries(below: dir) == [])

        // A folder made for a file that failed is not left behind empty; one
        // that existed before stays, empty or not.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("per/bad"), withIntermediateDirectories: true)
        let folders = try pdfedit(args: ["apply", "-e", "remove 2"] + inputs + ["-o", "per/{stem}/deep/x.pdf", "--keep-going", "-j", "2"], in: dir)
        #expect(folders.status == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("per").path).sorted() == ["bad", "f1", "f2", "f4", "f5"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("per/bad").path) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("per/f4/deep").path) == ["x.pdf"])
    }

    @Test func aFileNeedingItsPasswordExits77() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(1, in: dir) + ["in/enc.pdf"]
        try FileManager.default.copyItem(atPath: Paths.fixture("encrypted.pdf"), toPath: dir.appendingPathComponent("in/enc.pdf").path)
        let refused = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "out/{name}"], in: dir)
        #expect(refused.status == 77)
        #expect(refused.stdout.contains("failed      in/enc.pdf: "), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/enc.pdf").path))
        // With its password it is written, still encrypted with it.
        try pdfeditOK(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "ok/{name}", "--password", "secret"], in: dir)
        let output = dir.appendingPathComponent("ok/enc.pdf").path
        #expect(try run("qpdf", ["--requires-password", output]).status == 0)
        #expect(try qpdfPageCount(output, password: "secret") == 2)
        // --encrypt gives every result passwords of its own instead.
        try pdfeditOK(
            args: ["apply", "-e", "rotate 1 --by 90"] + inputs + ["-o", "new/{name}", "--password", "secret", "--encrypt", "u1", "o1"],
            in: dir)
        for name in ["f1.pdf", "enc.pdf"] {
            let encrypted = dir.appendingPathComponent("new/\(name)").path
            #expect(try run("qpdf", ["--requires-password", encrypted]).status == 0)
            #expect(try qpdfPageCount(encrypted, password: "u1") == (name == "enc.pdf" ? 2 : 7))
            #expect(try qpdfPageCount(encrypted, password: "secret") == nil)
        }
    }

    @Test func jsonLinesParseAndMatch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var inputs = try Self.makeInputs(3, in: dir)
        try FileManager.default.copyItem(atPath: Paths.fixture("notapdf.pdf"), toPath: dir.appendingPathComponent("in/not.pdf").path)
        inputs.insert("in/not.pdf", at: 1)
        let result = try pdfedit(args: ["apply", "-e", "remove 2"] + inputs + ["-o", "out/{n}.pdf", "--json", "--keep-going"], in: dir)
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        for (index, object) in objects.enumerated() {
            #expect(Set(object.keys) == ["file", "output", "status", "exit", "message", "pages"])
            #expect(object["file"] as? String == inputs[index])
            #expect(object["output"] as? String == "out/\(index + 1).pdf")
        }
        #expect(objects.map { $0["status"] as? String } == ["ok", "skipped", "ok", "ok"])
        #expect(objects.map { $0["exit"] as? Int } == [0, 65, 0, 0])
        #expect(objects[1]["message"] as? String != nil && objects[0]["message"] is NSNull)
        #expect(objects[1]["pages"] is NSNull)
        for index in [0, 2, 3] {
            let pages = try qpdfPageCount(dir.appendingPathComponent("out/\(index + 1).pdf").path)
            #expect(objects[index]["pages"] as? Int == pages)
            #expect(pages == (try qpdfPageCount(dir.appendingPathComponent(inputs[index]).path)).map { $0 - 1 })
        }
    }

    @Test func inPlaceReplacesEachFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(3, in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("orig"), withIntermediateDirectories: true)
        for input in inputs {
            try FileManager.default.copyItem(
                at: dir.appendingPathComponent(input), to: dir.appendingPathComponent("orig/" + Foundation.URL(fileURLWithPath: input).lastPathComponent))
        }
        let result = try pdfeditOK(args: ["apply", "-e", "rotate 1 --by 90", "-e", "remove 2"] + inputs + ["--in-place"], in: dir)
        #expect(result.stdout.contains("ok          in/f1.pdf -> in/f1.pdf"))
        for (index, input) in inputs.enumerated() {
            try Self.expectEdited(dir.appendingPathComponent(input), from: dir.appendingPathComponent("orig/f\(index + 1).pdf"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("in").path).sorted() == ["f1.pdf", "f2.pdf", "f3.pdf"])
        let twice = try pdfedit(args: ["apply", "-e", "rotate 1 --by 90"] + inputs + [inputs[0], "--in-place"], in: dir)
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("given twice"), "\(twice.stderr)")
    }

    @Test func oneThreadAndTwoGiveTheSameFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(6, in: dir)
        try Self.script.write(to: dir.appendingPathComponent("fix.txt"), atomically: true, encoding: .utf8)
        let one = try pdfeditOK(args: ["apply", "fix.txt"] + inputs + ["-o", "one/{name}", "-j", "1"], in: dir)
        let two = try pdfeditOK(args: ["apply", "fix.txt"] + inputs + ["-o", "two/{name}", "-j", "2"], in: dir)
        #expect(one.stdout.replacingOccurrences(of: "one/", with: "two/") == two.stdout)
        for number in 1...6 {
            #expect(
                try Data(contentsOf: dir.appendingPathComponent("one/f\(number).pdf"))
                    == Data(contentsOf: dir.appendingPathComponent("two/f\(number).pdf")))
        }
    }

    /// An image inserted into every file: each thread converts it or reuses the
    /// conversion in the batch's one scratch folder, which is gone afterwards.
    @Test func anInsertedImageReachesEveryFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = try Self.makeInputs(4, in: dir)
        try FileManager.default.copyItem(atPath: Paths.fixture("logo.png"), toPath: dir.appendingPathComponent("logo.png").path)
        // A temporary folder of its own, to see that the scratch folder is removed.
        let temporary = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try pdfeditOK(
            args: ["apply", "-e", "insert logo.png --at 1"] + inputs + ["-o", "out/{name}", "-j", "2", "--json"], in: dir,
            environment: ["TMPDIR": temporary.path])
        let pages = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["pages"] as? Int
        }
        for (index, input) in inputs.enumerated() {
            let output = dir.appendingPathComponent("out/f\(index + 1).pdf").path
            let before = try qpdfPageCount(dir.appendingPathComponent(input).path) ?? 0
            #expect(try qpdfCheck(output).status == 0)
            #expect(try qpdfPageCount(output) == before + 1)
            #expect(pages[index] == before + 1)
            #expect(try Array(pageTokens(output).dropFirst()) == pageTokens(dir.appendingPathComponent(input)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    /// Ctrl-C in the middle of a batch of 60: exit 130, every output present is
    /// complete, no temporary left, later files not written.
    @Test func sigintMidBatchLeavesOnlyCompleteFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Self.makeInputs(1, in: dir)[0]
        let inputs = ["in/f1.pdf"] + (2...60).map { "in/f\($0).pdf" }
        for input in inputs.dropFirst() {
            try FileManager.default.copyItem(at: dir.appendingPathComponent(first), to: dir.appendingPathComponent(input))
        }
        var landed: (status: Int32, folder: String)?
        for attempt in 1...4 where landed == nil {
            let folder = "out\(attempt)"
            let process = try Reliability.start(
                ["apply", "-e", "rotate 1 --by 90", "-e", "remove 2"] + inputs + ["-o", "\(folder)/{name}", "-j", "2"], in: dir)
            let out = dir.appendingPathComponent(folder)
            while process.isRunning {
                let written = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { !$0.hasPrefix(".") }
                if written.count >= 3 {
                    kill(process.processIdentifier, SIGINT)
                    break
                }
                usleep(2_000)
            }
            process.waitUntilExit()
            if process.terminationStatus != 0 { landed = (process.terminationStatus, folder) }
        }
        let (status, folder) = try #require(landed, "the batch always finished before the signal")
        #expect(status == 130)
        let out = dir.appendingPathComponent(folder)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written.count < 60)
        #expect(Self.temporaries(below: dir) == [])
        for name in written {
            #expect(try qpdfCheck(out.appendingPathComponent(name).path).status == 0, "\(name)")
            #expect(try qpdfPageCount(out.appendingPathComponent(name).path) == 6, "\(name)")
        }
    }
}
