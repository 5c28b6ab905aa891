import Foundation
import Testing

/// What the binary starts with: the libraries it names, and none of full Foundation,
/// checked with the dynamic loader's own record (LD_DEBUG=files), not pdfedit's.
@Suite struct StartupTests {
    /// The libraries the dynamic loader opened while `arguments` ran (their file names).
    static func loaded(_ arguments: [String], in dir: URL) throws -> (run: Run, libraries: Set<String>) {
        let log = dir.appendingPathComponent("ld").path
        let result = try pdfedit(args: arguments, in: dir, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log])
        var libraries: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasPrefix("ld.") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "file=") else { continue }
                let rest = line[range.upperBound...]
                libraries.insert(String(rest.prefix { $0 != " " && $0 != "[" }))
            }
            try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
        return (result, libraries)
    }

    /// `--version` names pdfedit's version and those of the libqpdf, poppler and
    /// cairo it runs on (linked, so known at start); rendering and text work.
    @Test func versionNamesTheLibrariesAndRenderingWorks() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try pdfedit("--version", in: dir)
        #expect(version.status == 0)
        let qpdf = try run("qpdf", ["--version"]).stdout.split(separator: "\n").first.map { $0.split(separator: " ").last.map(String.init) ?? "" } ?? ""
        #expect(version.stdout.hasPrefix("0.") && version.stdout.contains("(libqpdf \(qpdf), poppler "), "\(version.stdout) (qpdf \(qpdf))")
        #expect(version.stdout.contains(", cairo 1."), "\(version.stdout)")
        #expect(try pdfedit("open", "alpha.pdf", in: dir).status == 0)
        let shown = try pdfedit("show", "1", "-o", "one.png", in: dir)
        #expect(shown.status == 0, "\(shown.stderr)")
        let png = try run("file", [dir.appendingPathComponent("one.png").path]).stdout
        #expect(png.contains("PNG image data"), "\(png)")
        let text = try pdfedit("find", "ALPHA-P3", in: dir)
        // After the document's line and the header, one line per match: position, id, excerpt.
        let rows = text.stdout.split(separator: "\n").dropFirst(2).map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        #expect(rows.map { Array($0.prefix(2)) } == [["3", "p3"]], "\(text.stdout)")
    }

    /// Full Foundation's shared objects (ICU among them) as the loader names them.
    static func foundationLibraries(_ libraries: Set<String>) -> [String] {
        libraries.filter {
            let name = $0.split(separator: "/").last.map(String.init) ?? $0
            return name.hasPrefix("libFoundation.so") || name.hasPrefix("libFoundationInternationalization")
                || name.hasPrefix("lib_FoundationICU") || name.hasPrefix("libicu")
        }.sorted()
    }

    @Test("no command starts with full Foundation or ICU: the program needs only FoundationEssentials")
    func noFullFoundation() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [
            ["--version"], ["rotate", "2", "--by", "90", "alpha.pdf", "-o", "r.pdf"], ["info", "alpha.pdf"],
            ["rotate", "text:alpha-p3", "--by", "180", "alpha.pdf", "-o", "t.pdf"],
        ] {
            let step = try Self.loaded(arguments, in: dir)
            #expect(step.libraries.contains { $0.contains("libc.so") }, "the loader log is read: \(step.libraries.sorted())")
            #expect(Self.foundationLibraries(step.libraries) == [], "\(arguments) loaded \(Self.foundationLibraries(step.libraries))")
        }
        // A binary with the Swift runtime linked statically maps no Swift library
        // at all: ICU's data (symbols icudt…) must not be linked into it either.
        let icu = try run("grep", ["-c", "-a", "icudt", Paths.binary])
        #expect(icu.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "ICU data in \(Paths.binary)")
        // The edits were made (checked with pdfinfo, not pdfedit): page 2 turned by
        // `rotate 2`, and by `text:alpha-p3` (matched case-folded) page 3 only.
        #expect(try Self.rotations(dir.appendingPathComponent("r.pdf").path) == [0, 90, 0, 0, 0, 0, 0])
        #expect(try Self.rotations(dir.appendingPathComponent("t.pdf").path) == [0, 0, 180, 0, 0, 0, 0])
    }

    @Test("a session's commands, one process each, export what they did")
    func sessionCommandsExportTheirEdits() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try pdfedit("open", "alpha.pdf", in: dir).status == 0)
        for arguments in [
            ["--version"], ["--help"], ["rotate", "--help"], ["list"], ["move", "3", "--to", "1"], ["rotate", "2", "--by", "90"],
            ["undo"], ["redo"], ["remove", "4"], ["history"], ["docs"], ["list"], ["status"], ["export", "out.pdf"],
        ] {
            let step = try pdfedit(args: arguments, in: dir)
            #expect(step.status == 0, "\(arguments): \(step.stderr)")
        }
        // Checked with pdfinfo and pdftotext, not pdfedit.
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try Self.rotations(out) == [0, 90, 0, 0, 0, 0])
        let first = try run("pdftotext", ["-f", "1", "-l", "1", out, "-"]).stdout
        #expect(first.contains("ALPHA-P3"), "\(first)")
    }

    /// Every page's rotation as pdfinfo reports it ("Page    2 rot:  90").
    static func rotations(_ path: String) throws -> [Int] {
        try run("pdfinfo", ["-f", "1", "-l", "999", path]).stdout.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: \.isWhitespace)
            guard words.count == 4, words[0] == "Page", words[2] == "rot:" else { return nil }
            return Int(words[3])
        }
    }
}
