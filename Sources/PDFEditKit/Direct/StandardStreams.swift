#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization
internal import PDFEngine
import PageModel

/// `-` as a file: standard input as the file a direct-mode command edits (or
/// `export --from -` reads), standard output as `-o -` (or `export -`), so
/// pdfedit sits in a pipeline: `curl … | pdfedit rotate 1 --by 90 - -o - | …`.
///
/// The engine needs to seek in its input and writes its output whole, so the
/// input is first copied into a private scratch folder and the output written
/// there, then copied to standard output once complete: a failed or cancelled
/// command writes nothing to standard output, and the folder is removed at the
/// end, on error and on Ctrl-C (it is registered with `TemporaryFiles`).
/// Messages name such a file `-`, never its temporary path.
package enum StandardStreams {
    /// The name that stands for standard input or output.
    package static let name = "-"

    /// Temporary paths that stand for `-` in messages.
    private static let aliases = Mutex<[String]>([])

    /// Copies standard input into `folder/stdin.pdf` and returns the path;
    /// messages that name it say `-`.
    ///
    /// Its first bytes are looked at before anything is written: what is neither
    /// a PDF nor a JPEG or PNG image is refused (65) at once, not after spooling
    /// it. Then at most `limits.standardInputBytes` (`PDFEDIT_MAX_STDIN_BYTES`)
    /// are copied: more is refused (65), and the spool goes with its folder (a
    /// failed command leaves nothing).
    static func spoolInput(into folder: String, limits: Limits = ProcessLimits.current) throws(PDFEditError) -> String {
        // Up to the first 1024 bytes, or all of a shorter input (a read error
        // ends it too; the loader then refuses what there is).
        let head = FileHead.read(descriptor: STDIN_FILENO, upTo: SourceLoader.headBytes) ?? []
        if head.isEmpty { throw PDFEditError.engine(.emptyFile(file: name)) }
        do throws(EngineError) {
            _ = try SourceLoader.kind(ofHead: head, file: name)
        } catch {
            throw PDFEditError.engine(error)
        }
        let path = Paths.join(folder, "stdin.pdf")
        // Known to the signal handler before it exists: a Ctrl-C while reading
        // removes it and its folder.
        TemporaryFiles.shared.register(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StagedOutput.cannotWrite(path, Errno.current) }
        defer { close(descriptor) }
        aliases.withLock { $0.append(path) }
        try writeAll(descriptor, head, head.count, file: path)
        var total = head.count
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(STDIN_FILENO, buffer, bufferSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw PDFEditError.engine(.unreadable(file: name, reason: Errno.current.description))
            }
            total += count
            if total > limits.standardInputBytes {
                throw PDFEditError.engine(
                    .overLimit(
                        file: name, page: nil,
                        what: "more than \(limits.standardInputBytes) bytes from standard input (PDFEDIT_MAX_STDIN_BYTES)"))
            }
            try writeAll(descriptor, buffer, count, file: path)
        }
        return path
    }

    /// Where a command writing to `-` writes its output first: `folder/stdout.pdf`,
    /// known to the signal handler before it exists.
    static func outputFile(in folder: String) -> String {
        let path = Paths.join(folder, "stdout.pdf")
        TemporaryFiles.shared.register(path)
        aliases.withLock { $0.append(path) }
        return path
    }

    /// Refuses `-` as an output when standard output is a terminal (64), before
    /// any work: a PDF's bytes would only garble it, as gzip refuses to write
    /// compressed data to one.
    static func refuseTerminalOutput() throws(PDFEditError) {
        guard isatty(STDOUT_FILENO) == 1 else { return }
        throw PDFEditError.usage(
            "standard output is a terminal: refusing to write a PDF to it (redirect it, > out.pdf, or pipe it)")
    }

    /// Copies the finished file at `path` to standard output.
    static func copyToOutput(_ path: String) throws(PDFEditError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw PDFEditError.engine(.unreadable(file: path, reason: Errno.current.description)) }
        defer { close(descriptor) }
        // A reader that went away (`| head -c 10`) is an error to report (EPIPE,
        // 73) where the program ignores SIGPIPE, as the pdfedit command does; the
        // kit installs no handler of its own.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, bufferSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw PDFEditError.engine(.unreadable(file: path, reason: Errno.current.description))
            }
            try writeAll(STDOUT_FILENO, buffer, count, file: name)
        }
    }

    /// Runs `body` with the path to write to: `output` itself, or for `-` a
    /// private file that is copied to standard output once `body` has written
    /// it whole (a session's `export -`).
    package static func writing<Result>(
        to output: String, _ body: (String) throws(PDFEditError) -> Result
    ) throws(PDFEditError) -> Result {
        guard output == name else { return try body(output) }
        try refuseTerminalOutput()
        let scratch = try ScratchDirectory()
        let file = outputFile(in: scratch.path)
        let result = try body(file)
        try copyToOutput(file)
        withExtendedLifetime(scratch) {}  // the folder is removed after the copy, not at its last mention
        return result
    }

    /// `line` with every temporary path that stands for `-` replaced by `-`.
    package static func naming(_ line: String) -> String {
        aliases.withLock { paths in
            paths.reduce(line) { text, path in text.replacing(path, with: name) }
        }
    }

    private static let bufferSize = 1 << 16

    /// Writes `count` bytes at `bytes` to `descriptor` (named `file` in messages).
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, file: String)
        throws(PDFEditError)
    {
        var offset = 0
        while offset < count {
            let written = write(descriptor, bytes + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StagedOutput.cannotWrite(file, Errno.current)
            }
            offset += written
        }
    }
}

extension DirectMode {
    /// Runs `body` with this direct-mode command's `-` resolved: an input of `-`
    /// is standard input spooled to a private file, an output of `-` is a private
    /// file copied to standard output once `body` has written it whole. Without
    /// `-` it runs `body` on `self` unchanged.
    package func resolvingStandardStreams<Result>(
        _ body: (DirectMode) throws(PDFEditError) -> Result
    ) throws(PDFEditError) -> Result {
        let reads = input == StandardStreams.name
        let writes = output == StandardStreams.name
        guard reads || writes else { return try body(self) }
        if reads && inPlace { throw PDFEditError.usage("--in-place cannot replace standard input (-)") }
        if writes { try StandardStreams.refuseTerminalOutput() }
        let scratch: ScratchDirectory
        if let shared = self.scratch { scratch = shared } else { scratch = try ScratchDirectory() }
        var resolved = self
        resolved.scratch = scratch  // images are converted in the same folder
        if reads { resolved.input = try StandardStreams.spoolInput(into: scratch.path) }
        if writes {
            resolved.output = StandardStreams.outputFile(in: scratch.path)
            resolved.force = true
        }
        let result = try body(resolved)
        if writes, let output = resolved.output { try StandardStreams.copyToOutput(output) }
        withExtendedLifetime(scratch) {}  // the folder is removed after the copy, not at its last mention
        return result
    }
}
