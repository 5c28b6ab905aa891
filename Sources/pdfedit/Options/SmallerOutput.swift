import ArgumentParser
import PDFEditKit

/// Whether a command line asks for outputs as small as they can be
/// (`optimize`, `--compress`, `--images`): `main` then has qpdf deflate what
/// its writer compresses itself — object and cross-reference streams — at
/// zlib's level 9, as `qpdf --compression-level=9` does
/// (`ProcessSettings.setWriterFlateLevel`, a setting of the whole process,
/// so the executable's to make, as its signal handling is). Only then: level 9
/// costs a plain copy of an 85,000-object file about 15% more CPU time for a
/// few bytes. A session's own `optimize` settings, applied by a later plain
/// `export`, keep zlib's default for those two kinds of stream (every other
/// stream is deflated at level 9 all the same).
protocol AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { get }
}

extension SizeOptions {
    var asksForSmallerOutput: Bool { compress || images != nil }
}

extension Optimize: AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { true }
}

extension Export: AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { size.asksForSmallerOutput }
}

extension Merge: AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { direct.writing.size.asksForSmallerOutput }
}

extension Split: AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { size.asksForSmallerOutput }
}

extension Apply: AsksForSmallerOutput {
    var asksForSmallerOutput: Bool { writing.size.asksForSmallerOutput }
}

extension EditCommand {
    /// Direct mode with `--compress` or `--images`.
    var asksDirectModeForSmallerOutput: Bool { directOptions?.writing.size.asksForSmallerOutput ?? false }
}

/// Whether `command` asks for smaller outputs (see AsksForSmallerOutput).
func asksForSmallerOutput(_ command: any ParsableCommand) -> Bool {
    if let asking = command as? any AsksForSmallerOutput {
        return asking.asksForSmallerOutput
    }
    return (command as? any EditCommand)?.asksDirectModeForSmallerOutput ?? false
}
