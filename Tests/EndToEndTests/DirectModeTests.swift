import Foundation
import Testing

/// Direct mode: editing commands on one file, without a session.
@Suite struct DirectModeTests {
    @Test func moveWritesOutAndLeavesNothingBehind() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try Data(contentsOf: dir.appendingPathComponent("alpha.pdf"))
        let result = try pdfedit("move", "3..5", "--to", "1", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pageTokens(dir.appendingPathComponent("out.pdf").path) == [3, 4, 5, 1, 2, 6, 7].map { "ALPHA-P\($0)" })
        #expect(try Data(contentsOf: dir.appendingPathComponent("alpha.pdf")) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["alpha.pdf", "out.pdf"])
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
        // -o onto an existing file needs --force.
        let again = try pdfedit("move", "1", "--to", "2", "alpha.pdf", "-o", "out.pdf", in: dir)
        #expect(again.status == 73)
        try pdfeditOK("move", "1", "--to", "2", "alpha.pdf", "-o", "out.pdf", "--force", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("out.pdf").path) == [2, 1, 3, 4, 5, 6, 7].map { "ALPHA-P\($0)" })
    }

    /// An existing output without --force is refused (73) before the input is
    /// read: with an input that is not a PDF, the refusal names the output, not
    /// the input, and leaves the output's bytes alone; with --force the input is
    /// read and refused in turn (65). The same for `export OUT --from FILE`.
    @Test func anExistingOutputIsRefusedBeforeTheInputIsRead() throws {
        let dir = try scratchDirectory(with: "notapdf.pdf", "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = dir.appendingPathComponent("kept.pdf")
        try Data("earlier output".utf8).write(to: kept)
        let commands: [[String]] = [
            ["rotate", "1", "--by", "90", "notapdf.pdf", "-o", "kept.pdf"],
            ["export", "kept.pdf", "1", "--from", "notapdf.pdf"],
        ]
        for command in commands {
            let refused = try pdfedit(args: command, in: dir)
            #expect(refused.status == 73, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("kept.pdf") && refused.stderr.contains("--force"), "\(command): \(refused.stderr)")
            #expect(!refused.stderr.contains("notapdf"), "the input was read: \(refused.stderr)")
            let forced = try pdfedit(args: command + ["--force"], in: dir)
            #expect(forced.status == 65, "\(command) --force: \(forced.stderr)")
            #expect(forced.stderr.contains("notapdf.pdf"), "\(forced.stderr)")
            #expect(try Data(contentsOf: kept) == Data("earlier output".utf8))
        }
        // The input named as the output is still called the input, --force or not.
        let same = try pdfedit("export", "alpha.pdf", "1", "--from", "alpha.pdf", in: dir)
        #expect(same.status == 73 && !same.stderr.contains("use --force"), "\(same.stderr)")
    }

    /// Only an image is converted in a scratch folder: a PDF's edit makes none,
    /// so it works with TMPDIR pointing at a folder that does not exist (and
    /// costs no folder made, scanned and removed in a shared /tmp); inserting an
    /// image then needs one, and says which folder it could not make.
    @Test func pdfEditsNeedNoScratchFolder() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "logo.png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = ["TMPDIR": dir.appendingPathComponent("no-such-folder").path]
        try pdfeditOK("rotate", "2", "--by", "90", "alpha.pdf", "-o", "turned.pdf", in: dir, environment: missing)
        let info = try run("pdfinfo", ["-f", "2", "-l", "2", dir.appendingPathComponent("turned.pdf").path]).stdout
        #expect(info.split(separator: "\n").first { $0.contains(" rot:") }?.split(separator: " ").last == "90", "\(info)")
        try pdfeditOK("remove", "1", "alpha.pdf", "-o", "removed.pdf", in: dir, environment: missing)
        #expect(try pageTokens(dir.appendingPathComponent("removed.pdf").path).first == "ALPHA-P2")
        let image = try pdfedit("insert", "logo.png", "--at", "1", "alpha.pdf", "-o", "with-image.pdf", in: dir, environment: missing)
        #expect(image.status != 0 && image.stderr.contains("no-such-folder"), "\(image.stderr)")
        try pdfeditOK("insert", "logo.png", "--at", "1", "alpha.pdf", "-o", "with-image.pdf", in: dir)
        #expect(try run("qpdf", ["--show-npages", dir.appendingPathComponent("with-image.pdf").path]).stdout == "8\n")
    }

    @Test func everyEditingCommandWorksDirectly() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        func check(_ arguments: [String], _ expected: [String]) throws {
            let result = try pdfedit(args: arguments + ["-o", "o.pdf", "--force"], in: dir)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try pageTokens(dir.appendingPathComponent("o.pdf").path) == expected, "\(arguments)")
        }
        let a = (1...7).map { "ALPHA-P\($0)" }
        try check(["reverse", "all", "alpha.pdf"], a.reversed())
        try check(["remove", "even", "alpha.pdf"], ["ALPHA-P1", "ALPHA-P3", "ALPHA-P5", "ALPHA-P7"])
        try check(["copy", "1", "--to", "last", "alpha.pdf"], a + ["ALPHA-P1"])
        try check(["duplicate", "2", "alpha.pdf"], ["ALPHA-P1", "ALPHA-P2", "ALPHA-P2"] + a.dropFirst(2))
        try check(["insert", "beta.pdf", "--at", "1", "alpha.pdf"], (1...5).map { "BETA-P\($0)" } + a)
        try check(["interleave", "beta.pdf", "--reverse", "alpha.pdf"],
                  ["ALPHA-P1", "BETA-P5", "ALPHA-P2", "BETA-P4", "ALPHA-P3", "BETA-P3", "ALPHA-P4", "BETA-P2",
                   "ALPHA-P5", "BETA-P1", "ALPHA-P6", "ALPHA-P7"])
        try check(["blank", "--at", "1", "alpha.pdf"], ["?"] + a)
        try check(["rotate", "1", "--by", "-90", "alpha.pdf"], a)
        let info = try run("pdfinfo", ["-f", "1", "-l", "1", dir.appendingPathComponent("o.pdf").path]).stdout
        #expect(info.contains("rot:   270"))
    }

    @Test func inPlaceReplacesTheInputAtomically() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("move", "7", "--to", "1", "alpha.pdf", "--in-place", in: dir)
        let path = dir.appendingPathComponent("alpha.pdf").path
        #expect(try pageTokens(path).first == "ALPHA-P7")
        #expect(try qpdfCheck(path).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["alpha.pdf"])
    }

    @Test func exportFromAFile() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("export", "part.pdf", "2..4", "--from", "alpha.pdf", in: dir)
        #expect(try pageTokens(dir.appendingPathComponent("part.pdf").path) == ["ALPHA-P2", "ALPHA-P3", "ALPHA-P4"])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".pdfedit").path))
    }

    @Test func directModeErrors() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let noOutput = try pdfedit("move", "1", "--to", "2", "alpha.pdf", in: dir)
        #expect(noOutput.status == 64)
        let sameFile = try pdfedit("move", "1", "--to", "2", "alpha.pdf", "-o", "alpha.pdf", in: dir)
        #expect(sameFile.status == 73)
        let missing = try pdfedit("move", "1", "--to", "2", "none.pdf", "-o", "x.pdf", in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr == "pdfedit: none.pdf: no such file\n")
        let notPDF = try pdfedit("reverse", "all", Paths.fixture("notapdf.pdf"), "-o", "x.pdf", in: dir)
        #expect(notPDF.status == 65)
        let badSelection = try pdfedit("remove", "8", "alpha.pdf", "-o", "x.pdf", in: dir)
        #expect(badSelection.status == 64)
        #expect(badSelection.stderr.contains("7 pages"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["alpha.pdf"])
    }
}
