import Foundation
import Testing

/// More of DESIGN.md's "Ctrl-C (SIGINT) or SIGTERM cancels cleanly: no output file
/// appears under its final name, temporary files are removed, exit 130 (143)":
/// a process started in the background of a shell (which starts it with SIGINT
/// ignored), a split export of thousands of parts, and an `--in-place` edit.
@Suite(.serialized) struct CancellationMoreTests {
    /// A folder with a session over a generated document of `pages` pages.
    static func session(pages: Int) throws -> URL {
        let dir = try temporaryDirectory()
        try Reliability.makeBigPDF(pages: pages, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("reverse", in: dir)
        return dir
    }

    /// How long `arguments` take when not interrupted; `cleanup` undoes their effect.
    static func timed(_ arguments: [String], in dir: URL, cleanup: () throws -> Void) throws -> TimeInterval {
        let started = Date()
        let result = try pdfedit(args: arguments, in: dir)
        let duration = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        try cleanup()
        return duration
    }

    @Test("a pdfedit started in the background of a shell (SIGINT inherited as ignored) honours SIGINT within a second")
    func backgroundProcessHonoursSIGINT() throws {
        let dir = try Self.session(pages: 20000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf")
        let duration = try Self.timed(["export", "out.pdf"], in: dir) { try FileManager.default.removeItem(at: out) }
        let session = try sessionBytes(dir)
        // A non-interactive shell starts `&` jobs with SIGINT and SIGQUIT ignored.
        // Under load an export may end before the signal: then try again earlier.
        var cancelled = false
        for share in [0.4, 0.2, 0.1] where !cancelled {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            shell.arguments = ["-c", "\"$0\" export out.pdf --force 2>/dev/null & echo $!; wait $!", Paths.binary]
            shell.currentDirectoryURL = dir
            let pipe = Pipe()
            shell.standardOutput = pipe
            shell.standardError = FileHandle.nullDevice
            try shell.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            guard let pid = pid_t(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                Issue.record("no pid from the shell: \(String(decoding: line, as: UTF8.self))")
                return
            }
            usleep(useconds_t(duration * share * 1_000_000))
            let sent = Date()
            kill(pid, SIGINT)
            shell.waitUntilExit()
            let status = shell.terminationStatus
            if status == 130 {
                cancelled = true
                // Promptly: well before the rest of the run would have taken (a
                // loaded machine may need over a second to clean up).
                let bound = max(1, duration * 0.25)
                #expect(Date().timeIntervalSince(sent) < bound, "SIGINT took \(Date().timeIntervalSince(sent)) s to end the export")
                #expect(!FileManager.default.fileExists(atPath: out.path))
            } else {
                #expect(status == 0, "the shell's `wait` saw \(status)")
                #expect(try qpdfPageCount(out.path) == 20000)
                try? FileManager.default.removeItem(at: out)
            }
            #expect(Reliability.temporaries(in: dir).isEmpty)
            #expect(try sessionBytes(dir) == session)
        }
        #expect(cancelled, "the export always ended before SIGINT arrived")
    }

    @Test("SIGINT during a split export of thousands of parts leaves no part and no temporary file", arguments: [SIGINT, SIGTERM])
    func signalDuringManyPartSplit(_ signal: Int32) throws {
        let dir = try Self.session(pages: 3000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let parts = dir.appendingPathComponent("parts")
        let arguments = ["export", "--split", "parts"]
        let duration = try Self.timed(arguments, in: dir) {
            #expect(try FileManager.default.contentsOfDirectory(atPath: parts.path).count == 3000)
            try FileManager.default.removeItem(at: parts)
        }
        let session = try sessionBytes(dir)
        // Late enough that far more parts than the old 64-slot table held are written.
        // Under load a run may end before the signal: then every part is there. A
        // signal during the renames takes effect after them: every part, and 130/143.
        var cancelled = 0
        for share in [0.3, 0.6] {
            let process = try Reliability.start(arguments, in: dir)
            usleep(useconds_t(duration * share * 1_000_000))
            let sent = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let took = Date().timeIntervalSince(sent)
            #expect(took < max(1, duration * 0.25), "the signal took \(took) s to end the split (a whole run: \(duration) s)")
            #expect(process.terminationReason == .exit)
            let status = process.terminationStatus
            #expect(status == 128 + signal || status == 0, "at \(share): exit \(status)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: parts.path)) ?? []
            #expect(
                names.isEmpty && status != 0 || names.count == 3000 && names.allSatisfy { !$0.hasPrefix(".") },
                "at \(share) of the split, exit \(status): \(names.count) files left, e.g. \(names.prefix(3))")
            if names.isEmpty { cancelled += 1 }
            #expect(try sessionBytes(dir) == session)
            try? FileManager.default.removeItem(at: parts)
        }
        #expect(cancelled >= 1, "no signal landed while the split was running")
    }

    @Test("SIGINT or SIGTERM during an --in-place edit leaves the input byte-identical", arguments: [SIGINT, SIGTERM])
    func signalDuringInPlaceEdit(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("scan.pdf")
        try Reliability.makeBigPDF(pages: 20000, at: file.path)
        let original = try Data(contentsOf: file)
        let arguments = ["rotate", "odd", "--by", "90", "scan.pdf", "--in-place"]
        var edited = Data()
        let duration = try Self.timed(arguments, in: dir) {
            edited = try Data(contentsOf: file)
            #expect(edited != original)
            try original.write(to: file)
        }
        // Cancelled: the input is byte-identical. Under load a run may finish before
        // the signal lands: then it is the complete edited file, never anything else.
        var cancelled = 0
        for share in [0.2, 0.5, 0.8] {
            let process = try Reliability.start(arguments, in: dir)
            usleep(useconds_t(duration * share * 1_000_000))
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let status = process.terminationStatus
            #expect(process.terminationReason == .exit && (status == 128 + signal || status == 0), "at \(share): \(status)")
            let now = try Data(contentsOf: file)
            if now == original {
                #expect(status == 128 + signal, "at \(share): exit \(status) but the input is unchanged")
                cancelled += 1
            } else {
                #expect(now == edited, "at \(share) of the edit the input is neither the original nor the edited file")
                try original.write(to: file)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["scan.pdf"])
        }
        #expect(cancelled >= 1, "no signal landed while the edit was running")
    }
}
