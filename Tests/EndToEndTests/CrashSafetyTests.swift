import Foundation
import Testing

/// SIGKILL at random (seeded) moments — the one signal pdfedit cannot clean up
/// after — during an export over an existing file, a split over existing parts, an
/// in-place edit and session saves. Afterwards every destination holds either its
/// old bytes or exactly the new ones (exports are deterministic, so "the complete
/// new one" is known beforehand, byte for byte), inputs are byte-identical, and
/// nothing but hidden `.NAME.pdfedit-tmp-PID-N` files is left; the next command
/// writing the same target removes those of dead processes.
///
/// `make test` kills 10 times per scenario; PDFEDIT_LONG_TESTS=1 kills 16 times.
/// This suite ends `make test-long`; 24 kills took it to 311 s, 16 to 270, and CI
/// was at its 15-minute line.
@Suite(.serialized) struct CrashSafetyTests {
    static let seed = Reliability.seed(0xC0FF_EE08)
    static var rounds: Int { Reliability.count(short: 10, long: 16) }

    /// What the rounds of one scenario did.
    struct Tally: CustomStringConvertible {
        var rounds = 0
        /// Killed while running (the others had finished or not started yet).
        var killedMidway = 0
        var endedOld = 0
        var endedNew = 0
        var description: String {
            "\(rounds) kills, \(killedMidway) mid-run; destination old \(endedOld)×, new \(endedNew)×"
        }

        /// Counts a kill; when the process had already finished, the next kill aims
        /// earlier (runs get faster once the files are in the page cache).
        mutating func count(_ killed: Bool, _ estimate: inout TimeInterval) {
            if killed { killedMidway += 1 } else { estimate *= 0.8 }
        }
    }

    /// Starts `arguments`, SIGKILLs it after a random share of `duration`, waits.
    /// Returns whether the kill ended it (rather than it ending first). Half the
    /// kills aim at the last third, where the file is written, synced and renamed.
    static func killRandomly(
        _ arguments: [String], in dir: URL, duration: TimeInterval, using generator: inout SeededGenerator
    ) throws -> Bool {
        let late = Bool.random(using: &generator)
        let delay = Double.random(in: (late ? duration * 0.7 : 0)...(duration * 1.1), using: &generator)
        let process = try Reliability.start(arguments, in: dir)
        usleep(useconds_t(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// How long `arguments` take to run to the end here (the best of two runs).
    static func duration(of arguments: [String], in dir: URL, reset: () throws -> Void) throws -> TimeInterval {
        var best = TimeInterval.infinity
        for _ in 0..<2 {
            try reset()
            let started = Date()
            let result = try pdfedit(args: arguments, in: dir)
            guard result.status == 0 else { throw Reliability.Failure("\(arguments): \(result.stderr)") }
            best = min(best, Date().timeIntervalSince(started))
        }
        return best
    }

    /// Names in `dir` that are neither hidden nor among `allowed`.
    static func strayNames(in dir: URL, allowed: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix(".") && !allowed.contains($0) }
    }

    /// What a killed command left at its destination.
    enum Outcome { case old, new, mixed }

    /// The rounds of one scenario: `rounds` times `reset()`, start `arguments`, kill
    /// it at a random moment, and ask `inspect(round)` what it left (recording any
    /// problem itself). Then one run to the end, which must succeed and remove the
    /// killed runs' temporaries, and enough kills must have landed mid-run.
    static func killRounds(
        _ name: String, _ arguments: [String], in dir: URL, seedOffset: UInt64, reset: () throws -> Void,
        inspect: (Int) throws -> Outcome
    ) throws {
        let duration = try Self.duration(of: arguments, in: dir, reset: reset)
        var generator = SeededGenerator(seed: Self.seed &+ seedOffset)
        var tally = Tally()
        var estimate = duration
        for round in 0..<Self.rounds {
            try reset()
            tally.count(try Self.killRandomly(arguments, in: dir, duration: estimate, using: &generator), &estimate)
            tally.rounds += 1
            switch try inspect(round) {
            case .old: tally.endedOld += 1
            case .new: tally.endedNew += 1
            case .mixed: break
            }
        }
        try reset()
        let finished = try pdfedit(args: arguments, in: dir)
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(tally.killedMidway >= tally.rounds / 3, "too few kills landed mid-run: \(tally)")
        print("CrashSafetyTests.\(name): \(tally) (seed \(Self.seed), a run takes \(duration) s)")
    }

    @Test("SIGKILL during an export over an existing file leaves the old file or the complete new one")
    func killDuringExport() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 3000, at: dir.appendingPathComponent("big.pdf").path)
        let input = try Data(contentsOf: dir.appendingPathComponent("big.pdf"))
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("export", "old.pdf", in: dir)
        try pdfeditOK("reverse", in: dir)
        try pdfeditOK("export", "new.pdf", in: dir)
        let old = try Data(contentsOf: dir.appendingPathComponent("old.pdf"))
        let new = try Data(contentsOf: dir.appendingPathComponent("new.pdf"))
        #expect(old != new)
        #expect(try qpdfCheck(dir.appendingPathComponent("new.pdf").path).status == 0)
        let session = try sessionBytes(dir)
        let out = dir.appendingPathComponent("out.pdf")
        let arguments = ["export", "out.pdf", "--force"]
        try Self.killRounds("killDuringExport", arguments, in: dir, seedOffset: 0, reset: { try old.write(to: out) }) { round in
            #expect(try Data(contentsOf: dir.appendingPathComponent("big.pdf")) == input, "round \(round): the input changed")
            #expect(try sessionBytes(dir) == session, "round \(round): export changed the session")
            #expect(try Self.strayNames(in: dir, allowed: ["big.pdf", "old.pdf", "new.pdf", "out.pdf"]).isEmpty)
            let now = try Data(contentsOf: out)
            if now == old { return .old }
            if now == new { return .new }
            Issue.record("round \(round) (seed \(Self.seed)): out.pdf is neither the old nor the new export (\(now.count) bytes)")
            return .mixed
        }
        // The last run removed what the killed ones left behind.
        #expect(try Data(contentsOf: out) == new)
        #expect(Reliability.temporaries(in: dir).isEmpty, "\(Reliability.temporaries(in: dir))")
    }

    @Test("SIGKILL during a split over existing parts leaves each part old or complete")
    func killDuringSplit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 3000, at: dir.appendingPathComponent("big.pdf").path)
        try pdfeditOK("open", "big.pdf", in: dir)
        try pdfeditOK("export", "--split", "old", "--every", "100", "--name", "part-{n}", in: dir)
        try pdfeditOK("reverse", in: dir)
        try pdfeditOK("export", "--split", "new", "--every", "100", "--name", "part-{n}", in: dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("old").path).sorted()
        #expect(names.count == 30)
        let old = try names.map { try Data(contentsOf: dir.appendingPathComponent("old/\($0)")) }
        let new = try names.map { try Data(contentsOf: dir.appendingPathComponent("new/\($0)")) }
        let parts = dir.appendingPathComponent("parts")
        let reset = {
            try? FileManager.default.removeItem(at: parts)
            try FileManager.default.copyItem(at: dir.appendingPathComponent("old"), to: parts)
        }
        let arguments = ["export", "--split", "parts", "--every", "100", "--name", "part-{n}", "--force"]
        func newParts() throws -> Int {
            try names.indices.filter { try Data(contentsOf: parts.appendingPathComponent(names[$0])) == new[$0] }.count
        }
        try Self.killRounds("killDuringSplit", arguments, in: dir, seedOffset: 1, reset: reset) { round in
            for (index, name) in names.enumerated() {
                let now = try Data(contentsOf: parts.appendingPathComponent(name))
                if now != new[index] && now != old[index] {
                    Issue.record("round \(round) (seed \(Self.seed)): \(name) is neither the old nor the new part")
                }
            }
            #expect(try Self.strayNames(in: parts, allowed: Set(names)).isEmpty, "round \(round)")
            let done = try newParts()
            return done == 0 ? .old : done == names.count ? .new : .mixed
        }
        #expect(try newParts() == names.count, "the last split did not write every part")
        #expect(Reliability.temporaries(in: parts).isEmpty)
    }

    @Test("SIGKILL during an --in-place edit leaves the input as it was or completely edited")
    func killDuringInPlaceEdit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("scan.pdf")
        try Reliability.makeBigPDF(pages: 3000, at: file.path)
        let old = try Data(contentsOf: file)
        // The edited file, made once the same way in a folder of its own.
        let reference = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: reference) }
        try old.write(to: reference.appendingPathComponent("scan.pdf"))
        let arguments = ["rotate", "even", "--by", "90", "scan.pdf", "--in-place"]
        try pdfeditOK(args: arguments, in: reference)
        let new = try Data(contentsOf: reference.appendingPathComponent("scan.pdf"))
        #expect(try qpdfPageCount(reference.appendingPathComponent("scan.pdf").path) == 3000)
        try Self.killRounds("killDuringInPlaceEdit", arguments, in: dir, seedOffset: 2, reset: { try old.write(to: file) }) { round in
            #expect(try Self.strayNames(in: dir, allowed: ["scan.pdf"]).isEmpty, "round \(round)")
            let now = try Data(contentsOf: file)
            if now == old { return .old }
            if now == new { return .new }
            Issue.record("round \(round) (seed \(Self.seed)): scan.pdf is neither the original nor the edited file")
            return .mixed
        }
        #expect(try Data(contentsOf: file) == new, "the last in-place edit did not give the edited file")
        #expect(Reliability.temporaries(in: dir).isEmpty)
    }

    @Test("SIGKILL during session saves leaves the old or the new session, which still loads")
    func killDuringSessionSave() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Reliability.makeBigPDF(pages: 8000, at: dir.appendingPathComponent("big.pdf").path)
        let input = try Data(contentsOf: dir.appendingPathComponent("big.pdf"))
        try pdfeditOK("open", "big.pdf", in: dir)
        // Cut the document into thousands of runs (an irregular selection: regular
        // patterns are stored as one run), so that each save writes a lot.
        let irregular = (1...8000).filter { ($0 &* 7919) % 13 < 4 }.map(String.init).joined(separator: ",")
        try pdfeditOK("rotate", irregular, "--by", "90", in: dir)
        let commands: [[String]] = [
            ["move", "5..9", "--to", "100"], ["rotate", "even", "--by", "180"], ["duplicate", "last-3"],
            ["undo"], ["remove", "2"], ["reverse", "10..4000"], ["redo"],
        ]
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var generator = SeededGenerator(seed: Self.seed &+ 3)
        var tally = Tally()
        var durations: [TimeInterval] = []
        for round in 0..<Self.rounds {
            let arguments = commands[round % commands.count]
            let old = try sessionBytes(dir)
            // The new session, made by the same command run to its end on a copy.
            try? FileManager.default.removeItem(at: scratch.appendingPathComponent(".pdfedit"))
            try FileManager.default.copyItem(at: dir.appendingPathComponent(".pdfedit"), to: scratch.appendingPathComponent(".pdfedit"))
            if !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("big.pdf").path) {
                try input.write(to: scratch.appendingPathComponent("big.pdf"))
            }
            let started = Date()
            let reference = try pdfedit(args: arguments, in: scratch)
            durations.append(Date().timeIntervalSince(started))
            let new = reference.status == 0 ? try sessionBytes(scratch) : old
            var estimate = durations.last ?? 0.3
            tally.count(try Self.killRandomly(arguments, in: dir, duration: estimate, using: &generator), &estimate)
            tally.rounds += 1
            let now = try sessionBytes(dir)
            if now == old { tally.endedOld += 1 } else if now == new { tally.endedNew += 1 } else {
                Issue.record("round \(round) (seed \(Self.seed)), \(arguments): the session is neither the old nor the new state")
            }
            let list = try pdfedit("list", "--json", in: dir)
            #expect(list.status == 0, "round \(round): the session no longer loads: \(list.stderr)")
            #expect(try Data(contentsOf: dir.appendingPathComponent("big.pdf")) == input)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(".pdfedit").path)
            #expect(
                names.filter { !$0.hasPrefix(".") }.allSatisfy {
                    ["session.json", "session.json.lock", "session.json.exports", "cache"].contains($0)
                },
                "round \(round): \(names)")
        }
        // The next save removes the temporary files of the killed processes.
        try pdfeditOK("rotate", "1", "--by", "90", in: dir)
        #expect(Reliability.temporaries(in: dir.appendingPathComponent(".pdfedit")).isEmpty)
        #expect(tally.killedMidway >= tally.rounds / 3, "too few kills landed mid-command: \(tally)")
        print("CrashSafetyTests.killDuringSessionSave: \(tally) (seed \(Self.seed), commands take \(durations.min() ?? 0)…\(durations.max() ?? 0) s)")
    }

    @Test("leftover temporary files of dead processes are removed by the next write of the same target, others kept")
    func staleTemporariesAreRemoved() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let dead = try Self.deadPid()
        let alive = getpid()  // this test process: alive, and not pdfedit
        let planted = [
            ".out.pdf.pdfedit-tmp-\(dead)-1", ".out.pdf.pdfedit-tmp-\(alive)-2", ".other.pdf.pdfedit-tmp-\(dead)-3",
            ".pdfedit/.session.json.pdfedit-tmp-\(dead)-4", ".pdfedit/.session.json.pdfedit-tmp-\(alive)-5",
            ".pdfedit/.session.json.exports.pdfedit-tmp-\(dead)-6",
            "parts/.alpha-1.pdf.pdfedit-tmp-\(dead)-7", "parts/.alpha-9.pdf.pdfedit-tmp-\(dead)-8",
            ".out.pdf.pdfedit-tmp-x-9", ".out.pdf.pdfedit-tmp-\(dead)",
        ]
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("parts"), withIntermediateDirectories: true)
        for name in planted { try Data("partial".utf8).write(to: dir.appendingPathComponent(name)) }
        try pdfeditOK("rotate", "1", "--by", "90", in: dir)
        try pdfeditOK("export", "out.pdf", in: dir)
        try pdfeditOK("export", "--split", "parts", in: dir)
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path) }
        // Dead owner, same target: removed.
        for name in [planted[0], planted[3], planted[5], planted[6]] { #expect(!exists(name), "\(name) was not removed") }
        // A live owner, another target (alpha-9 is not a part of this 7-page split), or not our naming: kept.
        for name in [planted[1], planted[2], planted[4], planted[7], planted[8], planted[9]] { #expect(exists(name), "\(name) was removed") }
    }

    /// A pid no process has now (a child that has exited and been reaped).
    static func deadPid() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let pid = process.processIdentifier
        guard kill(pid, 0) != 0, errno == ESRCH else { throw Reliability.Failure("pid \(pid) was reused at once") }
        return pid
    }
}
