import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

/// Options every command that reads sources accepts.
struct PasswordOptions: ParsableArguments {
    @Option(name: .long, help: "Password tried on every encrypted source (never stored).")
    var password: String?

    @Option(name: .customLong("password-for"), help: ArgumentHelp("Password for one source.", valueName: "FILE=PW"))
    var passwordFor: [String] = []

    func book() throws(PDFEditError) -> PasswordBook {
        try PasswordBook.from(password: password, passwordFor: passwordFor)
    }
}

/// Output options of commands that report something.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON on stdout.")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing on success.")
    var quiet = false
}

/// Runs a command body and turns a `PDFEditError` into `pdfedit:` lines on stderr
/// and its documented exit code: the one place where failures leave the program.
func reporting(_ body: () throws -> Void) throws {
    do {
        try ProcessLimits.check()
        try body()
    } catch let error as PDFEditError {
        Console.report(error)
        throw ExitCode(error.exitCode)
    }
}

enum Console {
    /// One line on stderr. Messages quote file names, tokens and qpdf's own texts,
    /// which may hold line breaks or raw control bytes from a damaged file; those
    /// are escaped so that every message stays one `pdfedit:` line.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((escapingControlCharacters(line) + "\n").utf8))
    }

    /// A failure's `pdfedit:` lines.
    static func report(_ error: PDFEditError) {
        for line in error.lines { Console.error("pdfedit: \(line)") }
    }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// JSON with sorted keys, so that output is stable for scripts and tests.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// A left-aligned text table; the last column may be long.
func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for row in all {
        for (index, cell) in row.enumerated() where index < widths.count - 1 {
            widths[index] = max(widths[index], cell.count)
        }
    }
    return all.map { row in
        row.enumerated().map { index, cell in
            index < widths.count - 1 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
}

extension String {
    /// Without trailing spaces: leading ones belong to an empty first column
    /// (the `*` marker of `docs`) and keep the columns aligned.
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// A progress bar on stderr for long work (rendering, text extraction, imports):
/// drawn only when stderr is a terminal, not with `--quiet`, and only for more
/// than a handful of units; erased when the work is done, so that the result
/// lines on stdout stay clean.
final class ProgressBar: @unchecked Sendable {
    /// Work of at most this many units shows no bar.
    static let handful = 5

    /// Writing a file shows a bar only once the command has taken this long
    /// (seconds, counted from when the bar was made, so opening the sources counts
    /// too: that is the wait the user sees): most exports are over before a bar
    /// would be read.
    static let writingDelay = 0.5

    /// The handler to give the kit: nil (no bar at all) unless stderr is a terminal
    /// and the command is not quiet. With `after`, the bar of a phase appears only
    /// once the phase has lasted that many seconds.
    static func handler(_ output: OutputOptions, after delay: Double = 0) -> ProgressHandler? {
        guard !output.quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        let bar = ProgressBar(delay: delay)
        return { bar.update($0) }
    }

    init(delay: Double = 0) {
        self.delay = delay
        created = Date().timeIntervalSinceReferenceDate
    }

    private let delay: Double
    private let created: Double
    private let lock = NSLock()
    private var phase = ""
    private var shown = -1
    private var lastDraw = 0.0
    private var visible = false

    func update(_ progress: ProgressUpdate) {
        // A bar that waits (writing) is for long work whatever its count: a split
        // into three parts of 20,000 pages each is long.
        guard progress.total > Self.handful || delay > 0 else { return }
        lock.withLock {
            let now = Date().timeIntervalSinceReferenceDate
            if progress.phase != phase {
                phase = progress.phase
                shown = -1
            }
            // Nothing drawn before the delay (and the first draw waits for it).
            guard now - created >= delay || visible else { return }
            // Workers report from several threads: never go backwards.
            let done = min(progress.total, max(progress.done, shown))
            let finished = done == progress.total
            guard done != shown, finished || shown < 0 || now - lastDraw >= 0.05 else { return }
            shown = done
            lastDraw = now
            if finished {
                erase()
                return
            }
            draw(done: done, total: progress.total, unit: progress.unit)
        }
    }

    private func draw(done: Int, total: Int, unit: String) {
        let counts = " \(done)/\(total) \(unit)"
        let label = phase + " "
        let columns = Self.terminalColumns()
        let width = max(10, min(40, columns - label.count - counts.count - 3))
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        write("\r\(label)[\(bar)]\(counts)\u{1B}[K")
        visible = true
    }

    private func erase() {
        guard visible else { return }
        write("\r\u{1B}[K")
        visible = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
    }
}
