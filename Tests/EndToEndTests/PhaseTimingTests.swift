import Foundation
import Testing

/// `PDFEDIT_TIMING` in the environment: pdfedit prints where its time went, one
/// line per phase (`pdfedit: time PHASE MILLISECONDS`) and the total from the
/// start of `main`, after its own output; nothing without the variable.
@Suite struct PhaseTimingTests {
    static let phases = [
        "parse", "open", "edit", "plan", "pages", "stamps", "links", "fields", "outlines", "labels", "document", "structure", "layers",
        "metadata", "write", "commit",
    ]

    /// The timing lines of `stderr`, by phase; fails on a malformed or repeated one.
    func timings(_ stderr: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for line in stderr.split(separator: "\n") where line.hasPrefix("pdfedit: time ") {
            let words = line.split(separator: " ")
            #expect(words.count == 4, "\(line)")
            guard words.count == 4, let value = Double(words[3]) else { continue }
            #expect(words[3].wholeMatch(of: /\d+\.\d/) != nil, "\(line)")
            #expect(result[String(words[2])] == nil, "repeated: \(line)")
            result[String(words[2])] = value
        }
        return result
    }

    @Test func exportPrintsEveryPhaseWithSaneValues() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf").path
        let began = Date()
        let result = try pdfedit(
            args: ["export", out, "2..5", "--from", "features.pdf"], in: dir, environment: ["PDFEDIT_TIMING": "1"])
        let wall = Date().timeIntervalSince(began) * 1000
        #expect(result.status == 0, "\(result.stderr)")
        let times = timings(result.stderr)
        #expect(Set(times.keys) == Set(Self.phases + ["total"]), "\(result.stderr)")
        let total = times["total"] ?? -1
        #expect(total > 0 && total <= wall, "total \(total) ms, the process took \(wall) ms")
        // One export on one thread: the phases are parts of the total.
        let sum = Self.phases.compactMap { times[$0] }.reduce(0, +)
        #expect(sum <= total + 0.1 * Double(Self.phases.count), "phases \(sum) ms > total \(total) ms")
        for phase in ["open", "pages", "links", "write"] {
            #expect((times[phase] ?? 0) > 0, "\(phase) took no time: \(result.stderr)")
        }
        // The lines come after everything else and the output is what it would be without them.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.suffix(Self.phases.count + 1).allSatisfy { $0.hasPrefix("pdfedit: time ") })
        #expect(try qpdfPageCount(out) == 4)
        #expect(try qpdfCheck(out).status == 0)
        #expect(try pageText(out, 1).contains("FEAT-P2"))
    }

    @Test func splitSumsItsParts() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit(
            args: ["export", "--split", "parts", "--from", "features.pdf"], in: dir,
            environment: ["PDFEDIT_TIMING": "1", "PDFEDIT_THREADS": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = timings(result.stderr)
        #expect(Set(times.keys) == Set(Self.phases + ["total"]), "\(result.stderr)")
        #expect((times["pages"] ?? 0) > 0 && (times["write"] ?? 0) > 0, "\(result.stderr)")
        let sum = Self.phases.compactMap { times[$0] }.reduce(0, +)
        #expect(sum <= (times["total"] ?? 0) + 0.1 * Double(Self.phases.count), "\(result.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("parts").path)
        #expect(parts.count == 6)
    }

    /// A direct-mode edit: the command line's parsing and the change of the
    /// one-file session are phases of their own, parts of the total.
    @Test func directEditTellsParsingAndEditing() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf").path
        let result = try pdfedit(
            args: ["move", "3..4", "--to", "1", "features.pdf", "-o", out], in: dir, environment: ["PDFEDIT_TIMING": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        var times = timings(result.stderr)
        // Which way the file was written is a line of its own (a whole-document
        // reorder of features.pdf is appended as an update), not part of the sum.
        #expect(times.removeValue(forKey: "appended") != nil, "\(result.stderr)")
        #expect(Set(times.keys) == Set(Self.phases + ["total"]), "\(result.stderr)")
        for phase in ["parse", "open", "edit", "write"] {
            #expect((times[phase] ?? 0) > 0, "\(phase) took no time: \(result.stderr)")
        }
        let sum = Self.phases.compactMap { times[$0] }.reduce(0, +)
        #expect(sum <= (times["total"] ?? 0) + 0.1 * Double(Self.phases.count), "\(result.stderr)")
        #expect(try pageText(out, 1).contains("FEAT-P3"))
    }

    /// A direct-mode export reads its input once: the export's look for digital
    /// signatures uses the document the import opened. Reading a 20,000-page file
    /// is most of such a run, so a second reading (outside every phase, as it was)
    /// would leave half of the total unaccounted for.
    @Test func directExportOfABigFileReadsItOnce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.pdf").path
        try Reliability.makeBigPDF(pages: 20000, at: big)
        let out = dir.appendingPathComponent("out.pdf").path
        let result = try pdfedit(
            args: ["export", out, "1000..1050", "--from", big], in: dir, environment: ["PDFEDIT_TIMING": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = timings(result.stderr)
        let open = times["open"] ?? 0
        let total = times["total"] ?? 0
        #expect(open > 0 && open >= 0.7 * total, "open \(open) ms of \(total) ms: \(result.stderr)")
        #expect(try qpdfPageCount(out) == 51)
        #expect(try pageText(out, 1).contains("BIG-P1000"))
    }

    @Test func nothingWithoutTheVariable() throws {
        let dir = try scratchDirectory(with: "features.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf").path
        let result = try pdfedit(args: ["export", out, "2..5", "--from", "features.pdf"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("pdfedit: time"), "\(result.stderr)")
        #expect(try qpdfPageCount(out) == 4)
    }

    @Test func aFailedCommandStillTellsItsTotal() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try pdfedit(
            args: ["export", "out.pdf", "--from", "missing.pdf"], in: dir, environment: ["PDFEDIT_TIMING": "1"])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(timings(result.stderr)["total"] != nil, "\(result.stderr)")
    }
}
