import Foundation
import Testing

/// Several pdfedit processes at once (SessionTests has the one-command case):
/// mixed commands on one session lose no update and leave a consistent history,
/// and sessions in different places never interfere.
@Suite struct ConcurrencyTests {
    /// Runs every command line at the same time in `dir`; returns their exit codes.
    static func runTogether(_ commands: [[String]], in dir: URL) throws -> [Int32] {
        let processes = try commands.map { try Reliability.start($0, in: dir) }
        for process in processes { process.waitUntilExit() }
        return processes.map(\.terminationStatus)
    }

    @Test("move, rotate, insert, duplicate and undo at once: every one lands, and the history replays exactly")
    func mixedCommandsOnOneSession() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf", "gamma.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", "beta.pdf", in: dir)
        let opened = try Reliability.documents(in: dir)
        // Steps for the undos to take back, so that none of them can find nothing to undo.
        let undos = 4
        for _ in 0..<undos { try pdfeditOK("rotate", "last", "--by", "90", in: dir) }
        let edits: [[String]] = [
            ["move", "1", "--to", "last"], ["move", "2..3", "--to", "1"], ["rotate", "2", "--by", "90"],
            ["rotate", "odd", "--by", "-90"], ["insert", "gamma.pdf", "--at", "2"], ["insert", "gamma.pdf"],
            ["duplicate", "1"], ["copy", "1", "--to", "1", "--into", "beta"], ["remove", "last"],
            ["blank", "--at", "1"], ["reverse"], ["move", "last", "--to", "1", "--doc", "beta"],
        ]
        let commands = edits + Array(repeating: ["undo"], count: undos)
        let statuses = try Self.runTogether(commands, in: dir)
        #expect(statuses.allSatisfy { $0 == 0 }, "\(zip(commands, statuses).filter { $0.1 != 0 })")
        // The undos took back 4 of the 4 + 12 steps: 12 are in effect, whatever the order.
        let history = try Reliability.history(in: dir)
        #expect(history.done == edits.count, "\(history)")
        let final = try Reliability.documents(in: dir)
        // Undoing every step in effect gives back what open made; redoing them, the result.
        try pdfeditOK("undo", "\(history.done)", in: dir)
        #expect(try Reliability.documents(in: dir) == opened)
        try pdfeditOK("redo", "\(history.done)", in: dir)
        #expect(try Reliability.documents(in: dir) == final)
        try pdfeditOK("export", "out.pdf", in: dir)
        #expect(try qpdfCheck(dir.appendingPathComponent("out.pdf").path).status == 0)
        #expect(Reliability.temporaries(in: dir.appendingPathComponent(".pdfedit")).isEmpty)
    }

    @Test("scripts and single commands at once: each script is one step, applied whole")
    func scriptsAndCommandsTogether() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let script = dir.appendingPathComponent("fix.txt")
        try "duplicate 1\nrotate 1 --by 90\nmove 1 --to last\n".write(to: script, atomically: true, encoding: .utf8)
        let commands = Array(repeating: ["run", "fix.txt"], count: 5) + Array(repeating: ["duplicate", "last"], count: 5)
        let statuses = try Self.runTogether(commands, in: dir)
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        #expect(try Reliability.history(in: dir).done == 10)
        let listing = try pdfedit("list", "--json", in: dir)
        let items = (try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?["items"] as? [Any]
        #expect(items?.count == 7 + 5 + 5)
    }

    @Test("sessions in different folders (and an explicit --session) never interfere")
    func separateSessionsDoNotInterfere() throws {
        let first = try scratchDirectory(with: "alpha.pdf")
        let second = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let explicit = first.appendingPathComponent("other/session.json").path
        try pdfeditOK("open", "alpha.pdf", in: first)
        try pdfeditOK("open", "beta.pdf", in: second)
        try pdfeditOK("open", "alpha.pdf", "--session", explicit, in: first)
        let perSession = 6
        let processes =
            try (0..<perSession).map { _ in try Reliability.start(["duplicate", "1"], in: first) }
            + (0..<perSession).map { _ in try Reliability.start(["rotate", "1", "--by", "90"], in: second) }
            + (0..<perSession).map { _ in try Reliability.start(["remove", "1", "--session", explicit], in: first) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        func pageCount(_ dir: URL, _ extra: [String] = []) throws -> Int? {
            let listing = try pdfedit(args: ["list", "--json"] + extra, in: dir)
            return ((try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?["items"] as? [Any])?.count
        }
        #expect(try pageCount(first) == 7 + perSession)
        #expect(try pageCount(second) == 5)
        #expect(try pageCount(first, ["--session", explicit]) == 7 - perSession)
        #expect(try Reliability.history(in: first).done == perSession)
        #expect(try Reliability.history(in: second).done == perSession)
        #expect(try Reliability.history(in: first, session: explicit).done == perSession)
        // beta was rotated 6 quarter turns: 180°.
        let rotated = try pdfedit("list", "--json", in: second)
        let items = (try JSONSerialization.jsonObject(with: Data(rotated.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]]
        #expect(items?.first?["rotation"] as? Int == 180)
    }
}
