#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
internal import PDFEngine
import PageModel

/// `pdfedit apply`: the same script of edits applied to many files, each on its
/// own, in one process on a bounded pool of threads.
///
/// Each file goes through direct mode (`DirectMode.run(_:script:)`): loaded,
/// edited in memory, written to a temporary beside its output and renamed into
/// place only when complete — all or nothing per file, its encryption kept
/// unless `decrypt`. Outputs are named by an `OutputTemplate`, or replace their
/// inputs (`inPlace`).
///
/// Before anything is written, `plannedOutputs()` checks the batch as a whole:
/// two inputs mapping to one output, or an output that is one of the inputs
/// (without `inPlace`), fail with `.usage` (64) naming them all.
///
/// `jobs` threads each take the next file in argument order, so at most `jobs`
/// files are open at once whatever their number. Results are handed to the
/// caller in argument order, each as soon as every file before it is done.
/// Without `keepGoing` a failure starts no further file: files already running
/// finish (their outputs stay and are reported), the rest are reported as
/// `.notStarted`. A single-file export uses no engine threads of its own (only
/// a split does), so `jobs` is the number of threads the batch uses.
///
/// ```swift
/// let steps = [ScriptStep(line: 1, edit: .rotate(try PageSelection.parse("1"), quarterTurns: 1), doc: nil)]
/// var batch = BatchApply(
///     files: ["in/a.pdf", "in/b.pdf"], steps: steps, script: "rotate",
///     destination: .template(try OutputTemplate("out/{name}")), passwords: PasswordBook())
/// batch.jobs = 2
/// let summary = try batch.run { result in print(result.file, result.status) }
/// ```
package struct BatchApply: Sendable {
    /// Where each file's result goes.
    package enum Destination: Sendable, Equatable {
        /// The filled template; folders are created as needed.
        case template(OutputTemplate)
        /// Each input is replaced by its result, atomically (`--in-place`).
        case inPlace
    }

    /// The inputs, in the order results are reported.
    package var files: [String]
    /// The edits applied to each file, in order, as one all-or-nothing step.
    package var steps: [ScriptStep]
    /// The script's name in messages (`fix.txt:2: …`).
    package var script: String
    /// Where results go.
    package var destination: Destination
    /// Passwords to try on encrypted inputs.
    package var passwords: PasswordBook
    /// How many files are worked on at once (at least 1, at most `maximumJobs`).
    package var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// The most files worked on at once: 4 per core. More threads only add
    /// memory (each file's document, an 8 MiB stack each) and no speed: a
    /// thousand of them under a memory limit ran out of memory at random.
    package static var maximumJobs: Int { 4 * max(1, ProcessInfo.processInfo.activeProcessorCount) }
    /// Pass over failing files and go on (the batch then exits 3).
    package var keepGoing = false
    /// Replace outputs that exist.
    package var force = false
    /// Write results unencrypted (by default each keeps its input's encryption).
    package var decrypt = false
    /// Keep the inputs' JavaScript and open actions.
    package var keepScripts = false
    /// Keep a signed file's signatures valid, or refuse it (see `ExportSettings.keepSignatures`).
    package var keepSignatures = false
    /// `--compress` and `--linearize` on every result (see `ExportSettings.compress`).
    package var compress = false
    package var linearize = false
    /// `--images` on every result (see `ExportSettings.images`).
    package var images: ImageResampling?
    /// A `render` line: each result is drawn into images named after its
    /// output (`out/a.png` → `out/a-1.png`, …; a TIFF is one file), each file
    /// on one thread (the batch runs files side by side).
    package var render: RenderSettings?
    /// A script's `redact … --rasterize-redacted DPI` and `--scrub` (see
    /// `ExportSettings.rasterizeRedacted` and `scrub`), for every result.
    package var rasterizeRedacted: Double?
    package var scrub = false
    /// Encrypt every result with these passwords and permissions instead of
    /// keeping each input's encryption (`--encrypt`).
    package var outputEncryption: OutputEncryption?
    /// Told of each finished file (phase "applying", unit "files").
    package var progress: ProgressHandler?
    /// Asked before each file is started: true starts no further file (those
    /// running finish; the rest are `.notStarted`), as after a failure without
    /// `keepGoing`. The command line stops when nobody reads its report any more.
    package var stopsWhen: (@Sendable () -> Bool)?
    /// Asked before each file is started and when one fails: a signal number
    /// means the batch was cancelled (Ctrl-C, SIGTERM). No further file is
    /// started (the rest are `.notStarted`), a file that fails from then on was
    /// stopped by it (`.interrupted`), and the summary carries the signal. The
    /// command line answers from its signal handler (`Cancellation.cooperate`).
    package var cancelledBy: (@Sendable () -> Int32?)?

    /// A batch applying `steps` (named `script` in messages) to `files`.
    package init(
        files: [String], steps: [ScriptStep], script: String, destination: Destination, passwords: PasswordBook
    ) {
        self.files = files
        self.steps = steps
        self.script = script
        self.destination = destination
        self.passwords = passwords
    }

    /// Every file's output path, in argument order, once the batch is checked as
    /// a whole: no two inputs may map to one output, and (without `inPlace`) no
    /// output may be one of the inputs. Files are compared by what they are
    /// (`FileIdentity`), not by their paths' text. All problems are reported together (`.several`, 64).
    package func plannedOutputs() throws(PDFEditError) -> [String] {
        guard !files.isEmpty else { throw PDFEditError.usage("apply needs at least one FILE") }
        let outputs: [String]
        switch destination {
        case .inPlace: outputs = files
        case .template(let template):
            outputs = files.enumerated().map { template.path(for: $1, number: $0 + 1) }
        }
        let inputs = Dictionary(files.enumerated().map { (FileIdentity(of: $1), $0) }) { first, _ in first }
        var claimed: [FileIdentity: Int] = [:]
        var problems: [PDFEditError] = []
        for (index, output) in outputs.enumerated() {
            let standard = FileIdentity(of: output)
            if let earlier = claimed[standard] {
                problems.append(
                    .usage(
                        destination == .inPlace
                            ? "\(files[index]): given twice (as \(files[earlier]) too); --in-place writes each file once"
                            : "\(files[earlier]) and \(files[index]) would both be written to \(output)"))
                continue
            }
            claimed[standard] = index
            if destination != .inPlace, let input = inputs[standard] {
                let whose = input == index ? "its input" : "the input \(files[input])"
                problems.append(
                    .usage("\(output): the output of \(files[index]) would replace \(whose); use --in-place to replace inputs"))
            }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
        return outputs
    }

    /// Checks the batch (`plannedOutputs`), then applies the steps to every file,
    /// calling `report` once per file in argument order (from whichever thread
    /// finished the file; never two calls at once). Throws only when the batch as
    /// a whole is refused, before anything is written; a file's failure is in its
    /// result and in the summary's `exitCode`.
    package func run(report: @escaping @Sendable (BatchFileResult) -> Void) throws(PDFEditError) -> BatchSummary {
        if let dpi = rasterizeRedacted { try checkedResolution(dpi, option: "--rasterize-redacted") }
        let outputs = try plannedOutputs()
        let scratch = try ScratchDirectory()
        // Removed here, once every worker is done: a worker thread's closure (which
        // holds the folder) may outlive `run` by a moment, and the process may exit
        // before it lets go, so the folder's deinit alone would leave it behind.
        defer { TemporaryFiles.shared.removeFolder(scratch.path) }
        let folders = FolderMaker()
        let stopsWhen = stopsWhen
        let cancelledBy = cancelledBy
        let state = BatchState(
            files: files, outputs: outputs, keepGoing: keepGoing,
            stopsWhen: { (stopsWhen?() ?? false) || cancelledBy?() != nil }, report: report)
        let counter = ProgressCounter(total: files.count, unit: "files", phase: "applying", handler: progress)
        let batch = self
        let work: @Sendable () -> Void = {
            while let index = state.next() {
                state.finish(index, batch.apply(index, output: outputs[index], scratch: scratch, folders: folders))
                counter.advance()
            }
        }
        let workers = min(max(1, jobs), files.count, Self.maximumJobs)
        if workers == 1 {
            work()
        } else {
            // As much stack as the main thread: qpdf recurses (to the checked depth limits).
            onThreads(workers, stackBytes: Self.workerStackBytes, work)
        }
        folders.removeEmptyOnes()
        var summary = BatchSummary(results: state.finishRest(), keptGoing: keepGoing)
        summary.cancelledBy = cancelledBy?()
        return summary
    }

    static let workerStackBytes = 8 << 20

    /// One file through direct mode (with the batch's scratch folder and folder maker).
    private func apply(_ index: Int, output: String, scratch: ScratchDirectory, folders: FolderMaker) -> BatchFileResult {
        let input = files[index]
        var result = BatchFileResult(file: input, output: output, status: .ok, error: nil, pages: nil, warnings: [])
        do throws(PDFEditError) {
            if destination != .inPlace { try folders.makeFolder(of: output) }
            var mode = DirectMode(
                input: input, output: destination == .inPlace ? nil : output, inPlace: destination == .inPlace,
                force: force, passwords: passwords)
            mode.decrypt = decrypt
            mode.keepScripts = keepScripts
            mode.keepSignatures = keepSignatures
            mode.compress = compress
            mode.linearize = linearize
            mode.images = images
            mode.outputEncryption = outputEncryption
            mode.rasterizeRedacted = rasterizeRedacted
            mode.scrub = scrub
            if var render {
                render.threads = 1
                mode.render = render
            }
            mode.scratch = scratch
            let (_, written) = try mode.run(steps, script: script)
            // A render's files are named apart from the template: the first one.
            if render != nil { result.output = written.output }
            result.pages = written.pageCount
            result.warnings = written.warnings
        } catch {
            if let signal = cancelledBy?() {
                // Its temporary was removed and its writes stopped by the cancellation.
                result.status = .interrupted
                result.error = .cancelled(signal: signal)
            } else {
                result.status = keepGoing ? .skipped : .failed
                result.error = error
            }
        }
        return result
    }
}

/// The batch's shared state: which file is next, whether the batch stopped, and
/// the results waiting for the ones before them to be reported.
private final class BatchState: @unchecked Sendable {
    private let lock = Lock()
    private let files: [String]
    private let outputs: [String]
    private let keepGoing: Bool
    private let stopsWhen: @Sendable () -> Bool
    private let report: @Sendable (BatchFileResult) -> Void
    private var nextToStart = 0
    private var stopped = false
    private var results: [BatchFileResult?]
    private var nextToReport = 0
    /// Serialises `report` calls without holding `lock` (which workers need to start files).
    private let reporting = Lock()

    init(
        files: [String], outputs: [String], keepGoing: Bool, stopsWhen: @escaping @Sendable () -> Bool,
        report: @escaping @Sendable (BatchFileResult) -> Void
    ) {
        self.files = files
        self.outputs = outputs
        self.keepGoing = keepGoing
        self.stopsWhen = stopsWhen
        self.report = report
        results = Array(repeating: nil, count: files.count)
    }

    /// The next file to start, nil when all are taken or the batch stopped.
    func next() -> Int? {
        lock.withLock {
            if !stopped && stopsWhen() { stopped = true }
            guard !stopped, nextToStart < files.count else { return nil }
            defer { nextToStart += 1 }
            return nextToStart
        }
    }

    /// Records a file's result (a failure stops the batch unless `keepGoing`; an
    /// interruption always does) and
    /// reports every result now due.
    func finish(_ index: Int, _ result: BatchFileResult) {
        lock.withLock {
            results[index] = result
            if result.status == .interrupted || (result.status != .ok && !keepGoing) { stopped = true }
        }
        flush()
    }

    /// Marks the files never started and reports them; returns every result.
    func finishRest() -> [BatchFileResult] {
        lock.withLock {
            for index in results.indices where results[index] == nil {
                results[index] = BatchFileResult(
                    file: files[index], output: outputs[index], status: .notStarted, error: nil, pages: nil, warnings: [])
            }
        }
        flush()
        return lock.withLock { results.compactMap { $0 } }
    }

    private func flush() {
        reporting.withLock {
            while let due = lock.withLock({ nextToReport < results.count ? results[nextToReport] : nil }) {
                report(due)
                lock.withLock { nextToReport += 1 }
            }
        }
    }
}

/// Creates the folders one batch's outputs go into, one thread at a time (two
/// workers making the same new folder must both succeed), each folder once per
/// batch (a later batch of the same process checks again: the folder may be gone).
/// The folders it created that are still empty when the batch ends (every file
/// meant for them failed) are removed again, deepest first.
private final class FolderMaker: @unchecked Sendable {
    private let lock = Lock()
    private var made: Set<String> = []
    /// Folders that did not exist before, in the order they were created.
    private var created: [String] = []

    func makeFolder(of path: String) throws(PDFEditError) {
        let folder = Paths.directory(of: path)
        let failure: String? = lock.withLock {
            guard !made.contains(folder) else { return nil }
            var missing: [String] = []
            var walk = folder
            while !walk.isEmpty, walk != "/", walk != ".", !Files.exists(walk) {
                missing.append(walk)
                walk = Paths.directory(of: walk)
            }
            if let failure = Files.makeFolders(folder) {
                return "cannot create the folder \(folder): \(failure)"
            }
            created += missing.reversed()
            made.insert(folder)
            return nil
        }
        if let failure { throw PDFEditError.engine(.cannotWrite(file: path, reason: failure)) }
    }

    /// Called once every worker is done: rmdir(2) only removes an empty folder.
    func removeEmptyOnes() {
        lock.withLock {
            for folder in created.reversed() { _ = rmdir(folder) }
            created = []
        }
    }
}
