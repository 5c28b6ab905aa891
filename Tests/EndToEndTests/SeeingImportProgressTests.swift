import Foundation
import Testing

/// The progress bar of imports (open, insert): on a terminal only.
@Suite struct SeeingImportProgressTests {
    @Test("open and insert of several files draw a bar on a terminal, nothing when piped")
    func importProgress() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = (1...7).map { "f\($0).pdf" }
        for name in names {
            try FileManager.default.copyItem(
                atPath: Paths.fixture("alpha.pdf"), toPath: dir.appendingPathComponent(name).path)
        }
        let opened = try run(
            "script", ["-qec", "\(Paths.binary) open \(names.joined(separator: " "))", "/dev/null"], in: dir)
        #expect(opened.stdout.contains("importing [") && opened.stdout.contains("/7 files"), "\(opened.stdout)")
        let inserted = try pdfedit(args: ["insert"] + names, in: dir)
        #expect(inserted.status == 0 && inserted.stderr.isEmpty, "\(inserted.stderr)")
        let quiet = try run(
            "script", ["-qec", "\(Paths.binary) insert -q \(names.joined(separator: " "))", "/dev/null"], in: dir)
        #expect(!quiet.stdout.contains("importing"), "\(quiet.stdout)")
    }
}
