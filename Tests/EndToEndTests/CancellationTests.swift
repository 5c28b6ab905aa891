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
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("reverse", in: dir)
        let session = try Data(contentsOf: dir.appendingPathComponent(".pdfedit/session.json"))
        // The signal must land while qpdf writes: wait for the export's temporary file
        // (it appears when writing starts) and signal at once. On a loaded machine the
        // export may still win the race; then it is tried again with the next output name.
        var landed: (process: Process, sent: Date, output: String)?
        for attempt in 1...4 where landed == nil {
            let output = "out\(attempt).pdf"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["export", output]
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var sent: Date?
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                if names.contains(where: { $0.hasPrefix(".\(output).pdfedit-tmp-") }) {
                    kill(process.processIdentifier, signal)
                    sent = Date()
                    break
                }
                usleep(1_000)
            }
            process.waitUntilExit()
            if let sent, process.terminationStatus != 0 {
                landed = (process, sent, output)
            } else {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(output))
            }
        }
        let (process, sent, output) = try #require(landed, "the export always finished before the signal")
        #expect(Date().timeIntervalSince(sent) < 1)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains(output))
        #expect(!names.contains { $0.contains("pdfedit-tmp") }, "\(names)")
        #expect(try Data(contentsOf: dir.appendingPathComponent(".pdfedit/session.json")) == session)
    }
}
