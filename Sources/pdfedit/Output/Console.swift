import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PDFEditKit
import Synchronization
import PageModel

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
    /// A file read from standard input or written to standard output is named `-`
    /// (not the temporary file pdfedit keeps it in).
    static func error(_ line: String) {
        write(escapingControlCharacters(FileNameText.shown(StandardStreams.naming(line))) + "\n", to: STDERR_FILENO)
    }

    /// A failure's `pdfedit:` lines.
    static func report(_ error: PDFEditError) {
        for line in error.lines { Console.error("pdfedit: \(line)") }
    }

    /// The one place warnings are printed: `pdfedit: warning: …` on stderr.
    static func warn(_ warnings: [Warning]) {
        for warning in warnings { Console.error("pdfedit: warning: \(warning)") }
    }

    /// A failure's `pdfedit:` lines about one file of a batch, each naming the
    /// file first (unless it already does).
    static func report(_ error: PDFEditError, about file: String) {
        for line in error.lines { Console.error("pdfedit: \(naming(file, line))") }
    }

    /// Warnings about one file of a batch, each naming the file first (unless it already does).
    static func warn(_ warnings: [Warning], about file: String) {
        for warning in warnings { Console.error("pdfedit: warning: \(naming(file, warning.description))") }
    }

    private static func naming(_ file: String, _ line: String) -> String {
        line.hasPrefix(file + ":") ? line : "\(file): \(line)"
    }

    /// Human output on stdout. Its line breaks and tabs are its own layout; every
    /// other control character (an escape sequence, a carriage return in a file
    /// name) is escaped, so nothing a file or its name holds reaches the terminal
    /// raw. Values that may hold line breaks are passed through `shown` first.
    static func out(_ text: String) {
        let lines = FileNameText.shown(text).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { escapingControlCharacters(String($0)) }
                .joined(separator: "\t")
        }
        let escaped = lines.joined(separator: "\n")
        write(escaped.hasSuffix("\n") ? escaped : escaped + "\n", to: STDOUT_FILENO)
    }

    /// JSON with sorted keys, so that output is stable for scripts and tests. A
    /// byte of a file name that is not UTF-8 is written `\udcXX` (`FileNameText.json`).
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        write(FileNameText.json(data) + Data("\n".utf8), to: STDOUT_FILENO)
    }

    /// JSON on exactly one line (sorted keys): one record of a stream of them.
    static func jsonLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        write(FileNameText.json(data) + Data("\n".utf8), to: STDOUT_FILENO)
    }

    /// Writes all of `bytes` to `descriptor` (unbuffered, as each line is meant to
    /// appear at once); stops at an error other than an interruption. A failed
    /// write to stdout is remembered (`standardOutputFailure`): the command's
    /// report is lost, which its exit code must say.
    static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) {
        var bytes = Array(bytes)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if descriptor == STDOUT_FILENO { _ = outputFailure.compareExchange(expected: 0, desired: count < 0 ? errno : EIO, ordering: .relaxed) }
                return
            }
            done += count
        }
    }

    static func write(_ text: String, to descriptor: Int32) { write(Array(text.utf8), to: descriptor) }

    /// The errno of the first failed write to stdout (0: none): `EPIPE` when the
    /// reader went away (`| head -1`; SIGPIPE is ignored, see `PDFEdit.main`),
    /// else the device's error (`> /dev/full`: ENOSPC).
    static var standardOutputFailure: Int32 { outputFailure.load(ordering: .relaxed) }

    private static let outputFailure = Atomic<Int32>(0)

    /// The exit code of a command whose stdout failed, after one line on stderr
    /// saying so; nil when stdout took everything. A reader that left is 141
    /// (128 + SIGPIPE, what a shell reports for a program SIGPIPE ended); any
    /// other failure is 73, an output that could not be written.
    static func standardOutputExitCode() -> Int32? {
        let failure = standardOutputFailure
        guard failure != 0 else { return nil }
        if failure == EPIPE {
            error("pdfedit: standard output: the reader went away; stopped")
            return 128 + SIGPIPE
        }
        error("pdfedit: standard output: cannot be written: \(String(cString: strerror(failure)))")
        return 73
    }
}

/// `text` with every control character escaped (line breaks too), and each byte
/// of a file name that is not UTF-8 written `\xFF`: a value — a file name, a
/// title, a label — put into one line of human output.
func shown(_ text: String) -> String { escapingControlCharacters(FileNameText.shown(text)) }
