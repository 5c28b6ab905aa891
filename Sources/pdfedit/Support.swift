import ArgumentParser
import Foundation
import PDFEditKit

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
        try body()
    } catch let error as PDFEditError {
        for line in error.lines { Console.error("pdfedit: \(line)") }
        throw ExitCode(error.exitCode)
    }
}

enum Console {
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
        }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
}
