import Foundation
import Testing

/// Issue 40 item 39: Ctrl-C or SIGTERM during `apply` stops the batch cleanly and
/// says so: the file being written is "interrupted" (not "failed (exit 73)"), every
/// file never started is "not started", finished outputs stay, the summary line is
/// printed, nothing is left half-written, and the exit code is 130 / 143.
@Suite(.serialized) struct ApplyCancellationTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func signalDuringApply(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("in1.pdf").path
        try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "20000", first])
        for number in 2...4 {
            try FileManager.default.copyItem(atPath: first, toPath: dir.appendingPathComponent("in\(number).pdf").path)
        }
        // One file at a time; the signal lands while the second one's output is
        // being written (its temporary exists). On a loaded machine the write may
        // still win the race: then it is tried again in a fresh output folder.
        var landed: (process: Process, sent: Date, out: String, stdout: Pipe, stderr: Pipe)?
        for attempt in 1...4 where landed == nil {
            let out = "out\(attempt)"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["apply", "-e", "reverse", "in1.pdf", "in2.pdf", "in3.pdf", "in4.pdf", "-o", "\(out)/{name}", "-j", "1"]
            process.currentDirectoryURL = dir
            let stdout = Pipe(), stderr = Pipe()
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            var sent: Date?
            let folder = dir.appendingPathComponent(out).path
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains("in1.pdf"), names.contains(where: { $0.hasPrefix(".in2.pdf.pdfedit-tmp-") }) {
                    kill(process.processIdentifier, signal)
                    sent = Date()
                    break
                }
                usleep(1_000)
            }
            process.waitUntilExit()
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if let sent, !names.contains("in2.pdf") {
                landed = (process, sent, out, stdout, stderr)
            }
        }
        let (process, sent, out, stdoutPipe, stderrPipe) = try #require(landed, "the second file was always written before the signal")
        let stdout = String(decoding: stdoutPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(Date().timeIntervalSince(sent) < 2)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal, "\(stdout)\n\(stderr)")
        let lines = stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines == [
            "ok in1.pdf -> \(out)/in1.pdf (20000 pages)",
            "interrupted in2.pdf -> \(out)/in2.pdf (nothing written)",
            "not started in3.pdf -> \(out)/in3.pdf",
            "not started in4.pdf -> \(out)/in4.pdf",
        ], "\(stdout)")
        let word = signal == SIGTERM ? "terminated" : "interrupted"
        #expect(stderr.hasSuffix("pdfedit: \(word): 1 of 4 files written, 1 interrupted, 2 not started\n"), "\(stderr)")
        #expect(!stderr.contains("exit 73") && !stderr.contains("failed"), "\(stderr)")
        // The finished output is whole; nothing else is there, not even a temporary.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(out).path)
        #expect(names == ["in1.pdf"], "\(names)")
        #expect(try qpdfPageCount(dir.appendingPathComponent("\(out)/in1.pdf").path) == 20000)
        #expect(Reliability.temporaries(in: dir).isEmpty)
    }
}
