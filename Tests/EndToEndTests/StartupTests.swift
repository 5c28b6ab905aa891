import Foundation
import Testing

/// poppler-glib, cairo and GLib are loaded on first use (Sources/CPoppler/Loader.c),
/// and so are libpdfedit-qpdf.so and libqpdf (Sources/QPDFBridge/Loader.c): checked
/// with the dynamic loader's own record (LD_DEBUG=files), not pdfedit's.
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

    static func renderLibraries(_ libraries: Set<String>) -> [String] {
        libraries.filter { $0.contains("poppler") || $0.contains("cairo") || $0.contains("glib-2.0") || $0.contains("gobject") }.sorted()
    }

    @Test("commands that never render start without poppler, cairo and GLib; rendering loads them")
    func renderingLibrariesLoadOnFirstUse() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let version = try Self.loaded(["--version"], in: dir)
        #expect(version.run.status == 0)
        #expect(version.run.stdout.hasPrefix("0.") && version.run.stdout.contains("libqpdf "), "\(version.run.stdout)")
        #expect(version.libraries.contains { $0.contains("libc.so") }, "the loader log is read: \(version.libraries.sorted())")
        #expect(Self.renderLibraries(version.libraries) == [])

        for arguments in [
            ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "r.pdf"],
            ["open", "alpha.pdf"], ["move", "3", "--to", "1"], ["export", "out.pdf"],
            ["export", "--split", "parts"], ["info", "alpha.pdf", "--no-text"],
        ] {
            let step = try Self.loaded(arguments, in: dir)
            #expect(step.run.status == 0, "\(arguments): \(step.run.stderr)")
            #expect(Self.renderLibraries(step.libraries) == [], "\(arguments) loaded \(Self.renderLibraries(step.libraries))")
        }
        // What renders or reads text loads them, and works.
        let shown = try Self.loaded(["show", "1", "-o", "one.png"], in: dir)
        #expect(shown.run.status == 0, "\(shown.run.stderr)")
        #expect(Self.renderLibraries(shown.libraries).contains { $0.contains("libpoppler-glib") })
        #expect(Self.renderLibraries(shown.libraries).contains { $0.contains("libcairo") })
        let png = try run("file", [dir.appendingPathComponent("one.png").path]).stdout
        #expect(png.contains("PNG image data"), "\(png)")
        let text = try Self.loaded(["find", "ALPHA-P3"], in: dir)
        #expect(text.run.stdout.contains("3"), "\(text.run.stdout)")
        #expect(Self.renderLibraries(text.libraries).contains { $0.contains("libpoppler-glib") })
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

    static func qpdfLibraries(_ libraries: Set<String>) -> [String] {
        libraries.filter { $0.contains("libqpdf") || $0.contains("libpdfedit-qpdf") || $0.contains("libgnutls") }.sorted()
    }

    @Test("commands that open no PDF start without libqpdf and its libraries; the first PDF loads them")
    func qpdfLoadsOnFirstUse() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = try Self.loaded(["open", "alpha.pdf"], in: dir)
        #expect(opened.run.status == 0, "\(opened.run.stderr)")
        #expect(Self.qpdfLibraries(opened.libraries).contains { $0.hasSuffix("libpdfedit-qpdf.so") }, "\(opened.libraries.sorted())")
        #expect(Self.qpdfLibraries(opened.libraries).contains { $0.contains("libqpdf.so") }, "\(opened.libraries.sorted())")
        // The first list reads the pages' text into the session's cache; later
        // ones hash the sources (with nettle) and read the cache.
        #expect(try pdfedit("list", in: dir).status == 0)
        for arguments in [
            ["--version"], ["--help"], ["rotate", "--help"], ["move", "3", "--to", "1"], ["rotate", "2", "--by", "90"],
            ["undo"], ["redo"], ["remove", "4"], ["history"], ["docs"], ["list"], ["status"],
        ] {
            let step = try Self.loaded(arguments, in: dir)
            #expect(step.run.status == 0, "\(arguments): \(step.run.stderr)")
            #expect(step.libraries.contains { $0.contains("libc.so") }, "the loader log is read: \(step.libraries.sorted())")
            #expect(Self.qpdfLibraries(step.libraries) == [], "\(arguments) loaded \(Self.qpdfLibraries(step.libraries))")
        }
        // The session's edits were made: exported, checked with pdfinfo and pdftotext.
        let exported = try Self.loaded(["export", "out.pdf"], in: dir)
        #expect(exported.run.status == 0, "\(exported.run.stderr)")
        #expect(Self.qpdfLibraries(exported.libraries).contains { $0.contains("libqpdf.so") })
        let out = dir.appendingPathComponent("out.pdf").path
        #expect(try Self.rotations(out) == [0, 90, 0, 0, 0, 0])
        let first = try run("pdftotext", ["-f", "1", "-l", "1", out, "-"]).stdout
        #expect(first.contains("ALPHA-P3"), "\(first)")
    }

    /// Without libpdfedit-qpdf.so beside it (or in ../lib/pdfedit), the binary
    /// still starts and answers what needs no PDF; the first PDF is refused with
    /// one line and exit 69, and nothing is written.
    @Test func aMissingQPDFLibraryIsOneLineAndExit69() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let binary = alone.appendingPathComponent("pdfedit")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Paths.binary).resolvingSymlinksInPath(), to: binary)
        let version = try run(binary.path, ["--version"])
        #expect(version.status == 0 && version.stdout.contains("libqpdf "), "\(version.stdout) \(version.stderr)")
        let refused = try run(binary.path, ["rotate", "1", "--by", "90", dir.appendingPathComponent("alpha.pdf").path,
                                            "-o", dir.appendingPathComponent("r.pdf").path])
        #expect(refused.status == 69, "\(refused.status): \(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("pdfedit: cannot load libpdfedit-qpdf.so"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.pdf").path))
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
