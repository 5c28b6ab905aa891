import Foundation

/// The one channel for warnings from deep inside a command: a line
/// `pdfedit: warning: …` on stderr, naming the file (and page), e.g. a page
/// poppler could not read or render. Each distinct line is written once per process.
public enum Warnings {
    private static let state = WarningState()

    /// Writes `line` (control characters escaped) once.
    public static func emit(_ line: String) {
        let text = line.unicodeScalars.map { scalar -> String in
            scalar.value < 0x20 || scalar.value == 0x7f
                ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        guard state.firstTime(text) else { return }
        FileHandle.standardError.write(Data("pdfedit: warning: \(text)\n".utf8))
    }
}

private final class WarningState: @unchecked Sendable {
    private let lock = NSLock()
    private var written: Set<String> = []

    func firstTime(_ line: String) -> Bool { lock.withLock { written.insert(line).inserted } }
}
