import Foundation
import Testing

/// `export --split`: parts, names, collisions, existing files, direct mode.
@Suite struct SplitTests {
    func files(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func onePerItemWithDefaultNames() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("move", "7", "--to", "1", in: dir)
        let result = try pdfedit("export", "--split", "parts", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let parts = dir.appendingPathComponent("parts")
        #expect(try files(parts) == (1...7).map { "alpha-\($0).pdf" })
        #expect(try pageText(parts.appendingPathComponent("alpha-1.pdf").path, 1).contains("ALPHA-P7"))
        #expect(try pageText(parts.appendingPathComponent("alpha-2.pdf").path, 1).contains("ALPHA-P1"))
        for name in try files(parts) {
            let path = parts.appendingPathComponent(name).path
            #expect(try qpdfPageCount(path) == 1)
            #expect(try qpdfCheck(path).status == 0)
        }
    }

    @Test func everyKWithTemplateAndPadding() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        try pdfeditOK("move", "1..5", "--to", "1", "--into", "alpha", "--doc", "beta", in: dir)
        // alpha now holds 12 items: BETA-P1..5 then ALPHA-P1..7.
        let result = try pdfedit("export", "--split", "out", "--every", "5", "--name", "{n}_{src}-{srcpage}_{first}-{last}", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try files(dir.appendingPathComponent("out")) == ["1_beta-1_1-5.pdf", "2_alpha-1_6-10.pdf", "3_alpha-6_11-12.pdf"])
        let last = dir.appendingPathComponent("out/3_alpha-6_11-12.pdf").path
        #expect(try qpdfPageCount(last) == 2)
        #expect(try pageText(last, 2).contains("ALPHA-P7"))
        // Part numbers are zero-padded to the width of the part count.
        try pdfeditOK("export", "--split", "each", "--name", "p{n}", in: dir)
        #expect(try files(dir.appendingPathComponent("each")).first == "p01.pdf")
        #expect(try files(dir.appendingPathComponent("each")).count == 12)
    }

    @Test func collisionsAndExistingFiles() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let clash = try pdfedit("export", "--split", "x", "--name", "same", in: dir)
        #expect(clash.status == 64)
        #expect(clash.stderr.contains("same.pdf"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
        // --force does not make a clash acceptable.
        #expect(try pdfedit("export", "--split", "x", "--name", "same", "--force", in: dir).status == 64)
        // A file that exists already (not ours) needs --force; nothing is written without it.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("y"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: dir.appendingPathComponent("y/alpha-3.pdf"))
        let exists = try pdfedit("export", "--split", "y", in: dir)
        #expect(exists.status == 73)
        #expect(try files(dir.appendingPathComponent("y")) == ["alpha-3.pdf"])
        try pdfeditOK("export", "--split", "y", "--force", in: dir)
        #expect(try files(dir.appendingPathComponent("y")).count == 7)
        let bad = try pdfedit("export", "--split", "z", "--name", "{nope}", in: dir)
        #expect(bad.status == 64)
        #expect(try pdfedit("export", "--split", "z", "--every", "0", in: dir).status == 64)
        #expect(try pdfedit("export", "out.pdf", "--every", "2", in: dir).status == 64)
    }

    @Test func directModeSplitLeavesNothingBehind() throws {
        let dir = try scratchDirectory(with: "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit("export", "--split", "pages", "2..4", "--from", "beta.pdf", "--name", "b{srcpage}", in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try files(dir.appendingPathComponent("pages")) == ["b2.pdf", "b3.pdf", "b4.pdf"])
        #expect(try files(dir) == ["beta.pdf", "pages"])
    }
}
