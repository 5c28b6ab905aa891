import Foundation
import Testing

/// Helpers shared by the reliability tests (corpus sweep, mutations, crash safety,
/// cancellation, concurrency, limits).
enum Reliability {
    /// `PDFEDIT_LONG_TESTS=1` turns on the slow tests and the long versions of the
    /// bounded ones (`make test-long`); `make test` runs the bounded versions only.
    static var longTests: Bool { ProcessInfo.processInfo.environment["PDFEDIT_LONG_TESTS"] == "1" }

    static let longTestsNote: Comment = "slow: runs with PDFEDIT_LONG_TESTS=1 (make test-long)"

    /// `short` normally, `long` with PDFEDIT_LONG_TESTS=1.
    static func count(short: Int, long: Int) -> Int { longTests ? long : short }

    /// The seed of a seeded test: `PDFEDIT_TEST_SEED` when set (to replay a failure
    /// with another seed), else `fallback`. Every failure message names it.
    static func seed(_ fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["PDFEDIT_TEST_SEED"].flatMap { UInt64($0) } ?? fallback
    }

    /// `scripts/make-big-pdf.py PAGES OUT`: pages with the text "BIG-P<n>".
    static func makeBigPDF(pages: Int, at path: String) throws {
        let made = try run("python3", [Paths.root.appendingPathComponent("scripts/make-big-pdf.py").path, "\(pages)", path])
        guard made.status == 0 else { throw Failure("make-big-pdf.py failed: \(made.stderr)") }
    }

    /// Starts `pdfedit` without waiting; output goes nowhere.
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PDFEDIT_SESSION")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Hidden temporary files of pdfedit in `directory` (`.NAME.pdfedit-tmp-PID-N`).
    static func temporaries(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.contains(".pdfedit-tmp-")
        }
    }

    /// What `pdfedit` printed on stderr is well-formed: every line starts with
    /// `pdfedit:`, and a failure says what went wrong in exactly one line besides
    /// warnings. Returns a description of the problem, or nil.
    static func stderrProblem(_ result: Run) -> String? {
        let lines = result.stderrLines
        if let bad = lines.first(where: { !$0.hasPrefix("pdfedit: ") }) {
            return "a stderr line does not start with \"pdfedit: \": \(bad.debugDescription)"
        }
        let errors = lines.filter { !$0.hasPrefix("pdfedit: warning: ") }
        if result.status != 0 && errors.count != 1 {
            return "exit \(result.status) with \(errors.count) error lines: \(errors)"
        }
        if result.status == 0 && !errors.isEmpty {
            return "exit 0 with error lines: \(errors)"
        }
        return nil
    }

    /// One rendered page in 8-bit gray, scaled so its longer side is `size` pixels
    /// (`pdftoppm -scale-to`), read from the PGM pdftoppm writes.
    struct Raster: Equatable {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        /// Mean absolute difference per pixel (0…255); nil when the sizes differ by
        /// more than a pixel (a rounding of the scale).
        func meanDifference(to other: Raster) -> Double? {
            guard abs(width - other.width) <= 1, abs(height - other.height) <= 1 else { return nil }
            let w = min(width, other.width)
            let h = min(height, other.height)
            var total = 0
            for y in 0..<h {
                for x in 0..<w {
                    total += abs(Int(pixels[y * width + x]) - Int(other.pixels[y * other.width + x]))
                }
            }
            return Double(total) / Double(max(1, w * h))
        }
    }

    static func render(_ file: String, page: Int, size: Int = 72, password: String? = nil) throws -> Raster {
        var arguments = ["-f", "\(page)", "-l", "\(page)", "-scale-to", "\(size)", "-gray"]
        if let password { arguments += ["-upw", password] }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prefix = directory.appendingPathComponent("page").path
        let result = try run("pdftoppm", arguments + [file, prefix])
        guard let name = try FileManager.default.contentsOfDirectory(atPath: directory.path).first(where: { $0.hasSuffix(".pgm") })
        else { throw Failure("pdftoppm rendered nothing for \(file) page \(page): \(result.stderr)") }
        return try parsePGM(Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Binary PGM (P5, maxval 255).
    static func parsePGM(_ data: Data) throws -> Raster {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                index += 1
            }
            if index < bytes.count && bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                continue
            }
            var field = ""
            while index < bytes.count && !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                field.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1  // the single whitespace after maxval
        guard fields.count == 4, fields[0] == "P5", let width = Int(fields[1]), let height = Int(fields[2]),
            fields[3] == "255", bytes.count - index >= width * height
        else { throw Failure("not an 8-bit binary PGM: \(fields)") }
        return Raster(width: width, height: height, pixels: Array(bytes[index..<(index + width * height)]))
    }

    /// The messages of `qpdf --check`'s warnings, without the file name and the
    /// place in the file (object, offset, object stream), which differ between a
    /// source and an output that carries the same problem over.
    static func qpdfWarningMessages(_ file: String, password: String? = nil) throws -> (status: Int32, messages: Set<String>) {
        var arguments = ["--check", file]
        if let password { arguments.insert("--password=\(password)", at: 0) }
        let result = try run("qpdf", arguments)
        let lines = (result.stdout + "\n" + result.stderr).split(separator: "\n").map(String.init)
        return (result.status, Set(lines.filter { $0.hasPrefix("WARNING: ") }.map(normalisedWarning)))
    }

    static func normalisedWarning(_ line: String) -> String {
        var text = Substring(line.dropFirst("WARNING: ".count))
        // "FILE (object 26 0, offset 8917): message", "FILE object stream 1 (...): message", "FILE: message"
        if let colon = text.range(of: "): ") {
            text = text[colon.upperBound...]
        } else if let colon = text.range(of: ": ") {
            text = text[colon.upperBound...]
        }
        return String(text).trimmingCharacters(in: .whitespaces)
    }

    /// Every document's items as `list --json` shows them, by name, and which one
    /// is current: what a session holds, without its history.
    static func documents(in dir: URL, session: String? = nil) throws -> [String: String] {
        let sessionArguments = session.map { ["--session", $0] } ?? []
        let docs = try pdfedit(args: ["docs", "--json"] + sessionArguments, in: dir)
        guard let object = try JSONSerialization.jsonObject(with: Data(docs.stdout.utf8)) as? [String: Any],
            let list = object["documents"] as? [[String: Any]]
        else { throw Failure("docs --json: \(docs.stdout) \(docs.stderr)") }
        var result: [String: String] = [:]
        for name in list.compactMap({ $0["name"] as? String }) {
            result[name] = try pdfedit(args: ["list", "--json", "--doc", name] + sessionArguments, in: dir).stdout
        }
        result["(current)"] = object["current"] as? String
        return result
    }

    /// `history --json` of the session in `dir`: (steps in effect, undone steps).
    static func history(in dir: URL, session: String? = nil) throws -> (done: Int, undone: Int) {
        let result = try pdfedit(args: ["history", "--json"] + (session.map { ["--session", $0] } ?? []), in: dir)
        guard let steps = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw Failure("history --json: \(result.stdout) \(result.stderr)")
        }
        let undone = steps.filter { $0["isUndone"] as? Bool == true }.count
        return (steps.count - undone, undone)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A small deterministic generator (SplitMix64), so a seeded test draws the same
/// numbers on every machine and a failure can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
