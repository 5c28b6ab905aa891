import Foundation
import Testing

/// poppler-glib, cairo and GLib are loaded on first use (Sources/CPoppler/Loader.c):
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
        #expect(version.libraries.contains { $0.contains("libqpdf") }, "the loader log is read: \(version.libraries.sorted())")
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
}
