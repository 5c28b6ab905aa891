import Foundation
import Testing

/// SIGINT / SIGTERM during a long export: exit 130 / 143 at once, nothing under the
/// final name, no temporary file left, the session unchanged.
@Suite(.serialized) struct CancellationTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func signalDuringExport(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.pdf").path
        try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "20000", big])
        #expect(try pdfedit("open", "big.pdf", in: dir).status == 0)
        #expect(try pdfedit("reverse", in: dir).status == 0)
        // How long a whole export takes here, so the signal can land in its middle.
        let started = Date()
        #expect(try pdfedit("export", "timing.pdf", in: dir).status == 0)
        let duration = Date().timeIntervalSince(started)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("timing.pdf"))
        let session = try Data(contentsOf: dir.appendingPathComponent(".pdfedit/session.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = ["export", "out.pdf"]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(duration * 0.5 * 1_000_000))
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 1)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains("out.pdf"))
        #expect(!names.contains { $0.contains("pdfedit-tmp") }, "\(names)")
        #expect(try Data(contentsOf: dir.appendingPathComponent(".pdfedit/session.json")) == session)
    }
}
