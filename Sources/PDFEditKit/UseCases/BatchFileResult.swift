#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PageModel

/// What became of one file of a batch (`BatchApply`).
package enum BatchFileStatus: String, Sendable, Encodable {
    /// Edited and written.
    case ok
    /// Failed; nothing was written for it. Without `keepGoing` the batch started
    /// no further file.
    case failed
    /// Failed and passed over (`keepGoing`); nothing was written for it.
    case skipped
    /// Never started: an earlier failure stopped the batch (without `keepGoing`),
    /// or the batch was cancelled (`BatchApply.cancelledBy`).
    case notStarted = "not started"
    /// Being worked on when the batch was cancelled (Ctrl-C, SIGTERM): stopped,
    /// nothing was written for it.
    case interrupted
}

/// One file's line of a batch's report, in argument order. As JSON (`apply
/// --json`) it is one object with exactly the keys `file`, `output`, `status`,
/// `exit`, `message` and `pages`, absent values as `null`.
package struct BatchFileResult: Sendable, Encodable {
    /// The input, as given.
    package var file: String
    /// Where its result goes (or went): the filled template, or the input itself in place.
    package var output: String
    /// What became of it.
    package var status: BatchFileStatus
    /// Why it failed; nil when it was written or never started.
    package var error: PDFEditError?
    /// Pages written; nil unless `status` is `.ok`.
    package var pages: Int?
    /// What the edit and the export recovered from (damage, dropped parts), in the
    /// order met; not part of the JSON (the command line prints them on stderr).
    package var warnings: [Warning]

    /// The exit code this file alone would give: 0 when written, the error's code
    /// when it failed or was interrupted (130, 143), nil when it never started.
    package var exitCode: Int32? {
        switch status {
        case .ok: return 0
        case .notStarted: return nil
        case .failed, .skipped: return error?.exitCode ?? 1
        case .interrupted: return error?.exitCode ?? 130
        }
    }

    /// The failure in one line (several problems joined by "; "), nil without one.
    package var message: String? { error.map { $0.lines.joined(separator: "; ") } }

    private enum CodingKeys: String, CodingKey {
        case file, output, status, exit, message, pages
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(output, forKey: .output)
        try container.encode(status, forKey: .status)
        try container.encode(exitCode, forKey: .exit)
        try container.encode(message, forKey: .message)
        try container.encode(pages, forKey: .pages)
    }
}

/// The outcome of a whole batch: every file's result, in argument order.
package struct BatchSummary: Sendable {
    /// One result per input, in argument order.
    package var results: [BatchFileResult]
    /// Whether failing files were passed over (`keepGoing`).
    package var keptGoing: Bool

    /// The signal that cancelled the batch (SIGINT, SIGTERM), nil when none did.
    package var cancelledBy: Int32?

    /// 128 + the signal when the batch was cancelled; else 0 when every file was
    /// written; with `keepGoing`, 3 when any failed; without it, the code of the
    /// first failing file in argument order.
    package var exitCode: Int32 {
        if let cancelledBy { return 128 + cancelledBy }
        guard let first = results.first(where: { $0.status == .failed || $0.status == .skipped }) else { return 0 }
        return keptGoing ? 3 : first.exitCode ?? 1
    }

    /// The files that failed, in argument order.
    package var failures: [BatchFileResult] { results.filter { $0.status == .failed || $0.status == .skipped } }

    /// How many files were never started.
    package var notStarted: Int { results.count { $0.status == .notStarted } }

    /// How many files were stopped by the cancellation.
    package var interrupted: Int { results.count { $0.status == .interrupted } }

    /// How many files were written.
    package var written: Int { results.count { $0.status == .ok } }
}
