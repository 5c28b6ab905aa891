import Foundation
import Testing

/// Runs the built `pdfedit` binary as a user would and captures what it did.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

enum Paths {
    /// The package root, found from this file's location.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = root.appendingPathComponent("Fixtures")

    /// `../shared/corpus` beside the clone: present in CI, absent on a user's fresh clone.
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var corpusAvailable: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path) }

    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["PDFEDIT_BIN"] { return path }
        return root.appendingPathComponent(".build/debug/pdfedit").path
    }()

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
    static func corpus(_ name: String) -> String { corpus.appendingPathComponent(name).path }
}

/// Runs a program, optionally in `directory` with extra environment, and waits.
@discardableResult
func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:], stdin: String? = nil
) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
    process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "PDFEDIT_SESSION")
    env.removeValue(forKey: "PDFEDIT_PASSWORD")
    env.removeValue(forKey: "PDFEDIT_PASSWORD_FILE")
    env.removeValue(forKey: "PDFEDIT_USER_PASSWORD")
    env.removeValue(forKey: "PDFEDIT_OWNER_PASSWORD")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let outPipe = Pipe()
    let errPipe = Pipe()
    let inPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    try process.run()
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child cannot block on a full pipe.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = errPipe.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs `pdfedit` with `arguments`.
@discardableResult
func pdfedit(
    _ arguments: String..., in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil
) throws -> Run {
    try run(Paths.binary, arguments, in: directory, environment: environment, stdin: stdin)
}

@discardableResult
func pdfedit(
    args arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil
) throws -> Run {
    try run(Paths.binary, arguments, in: directory, environment: environment, stdin: stdin)
}

/// A setup step that must work: runs `pdfedit` and, when it exits non-zero, fails the
/// test with the command line, its exit code and its stderr (which `#expect(… .status
/// == 0)` would drop), and stops the test, whose later steps would only fail in
/// confusing ways.
@discardableResult
func pdfeditOK(
    _ arguments: String..., in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Run {
    try pdfeditOK(args: arguments, in: directory, environment: environment, stdin: stdin, sourceLocation: sourceLocation)
}

@discardableResult
func pdfeditOK(
    args arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Run {
    let result = try run(Paths.binary, arguments, in: directory, environment: environment, stdin: stdin)
    guard result.status == 0 else {
        let line = (["pdfedit"] + arguments).joined(separator: " ")
        Issue.record("setup step failed: `\(line)` exited \(result.status)\n\(result.stderr)", sourceLocation: sourceLocation)
        throw SetupStepFailed(command: line, status: result.status)
    }
    return result
}

/// Thrown by `pdfeditOK` after recording the failure, to end the test.
struct SetupStepFailed: Error, CustomStringConvertible {
    var command: String
    var status: Int32
    var description: String { "`\(command)` exited \(status)" }
}

/// A fresh empty directory for one test, removed by the caller's `defer`.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pdfedit-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `pdftotext -f N -l N file -`: the text of one page, as an independent tool reads it.
func pageText(_ file: String, _ page: Int) throws -> String {
    try run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).stdout
}

/// Page count according to `qpdf --show-npages` (an independent reader).
func qpdfPageCount(_ file: String, password: String? = nil) throws -> Int? {
    var arguments = ["--show-npages", file]
    if let password { arguments.insert("--password=\(password)", at: 0) }
    let result = try run("qpdf", arguments)
    return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// `qpdf --check`: 0 clean, 3 warnings, 2 errors.
func qpdfCheck(_ file: String) throws -> Run { try run("qpdf", ["--check", file]) }

/// A fresh directory holding copies of the named fixtures; the caller removes it.
func scratchDirectory(with fixtures: String...) throws -> URL {
    let directory = try temporaryDirectory()
    for name in fixtures {
        try FileManager.default.copyItem(
            at: Paths.fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    return directory
}

/// The token (ALPHA-P3, BETA-P1…) of every page of a PDF as pdftotext reads it; "?" for none.
func pageTokens(_ file: String) throws -> [String] {
    guard let count = try qpdfPageCount(file) else { return [] }
    return try (0..<count).map { index in
        try pageText(file, index + 1).split(whereSeparator: \.isWhitespace)
            .first { $0.contains("-P") && $0.uppercased() == $0 }.map(String.init) ?? "?"
    }
}

func pageTokens(_ file: URL) throws -> [String] { try pageTokens(file.path) }

/// The session file's bytes, to check that a failed command left it untouched.
func sessionBytes(_ directory: URL) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(".pdfedit/session.json"))
}

/// A file qpdf wrote with `--qdf`, without what depends on where its objects
/// landed: comments (they name the original object numbers), the /ID,
/// cross-reference entries (`0000012345 00000 n`) and startxref's offset (a line of
/// digits). Two writers that must give the same document are compared by these.
/// Filtered by grep: splitting and matching the lines in Swift, in the tests'
/// debug build, took 7 seconds for the corpus's largest book (1.4 million lines).
struct LaidOutPDF: Equatable, CustomStringConvertible {
    let bytes: Data

    init(qdf: URL) throws {
        let kept = qdf.appendingPathExtension("kept")
        defer { try? FileManager.default.removeItem(at: kept) }
        let pattern = #"^%|/ID \[|^[0-9]{10} [0-9]{5} [nf] ?$|^[0-9]+$"#
        // grep exits 1 when it keeps no line.
        let result = try run(
            "/bin/sh", ["-c", #"LC_ALL=C grep -a -v -E "$1" "$2" > "$3"; [ $? -le 1 ]"#, "sh", pattern, qdf.path, kept.path])
        guard result.status == 0 else { throw SetupStepFailed(command: "grep -v ... \(qdf.path)", status: result.status) }
        bytes = try Data(contentsOf: kept)
    }

    var isEmpty: Bool { bytes.isEmpty }
    var description: String { "\(bytes.count) bytes of QDF" }

    /// The first line where the two differ, for a failure message ("" when none).
    func firstDifference(from other: LaidOutPDF) -> String {
        if self == other { return "" }
        let mine = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let theirs = other.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (n, (a, b)) in zip(mine, theirs).enumerated() where a != b {
            return "line \(n + 1): \(String(decoding: a.prefix(200), as: UTF8.self)) | "
                + String(decoding: b.prefix(200), as: UTF8.self)
        }
        return "\(mine.count) against \(theirs.count) lines"
    }
}
