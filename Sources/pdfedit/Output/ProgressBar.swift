#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import PDFEditKit
import PageModel

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
    /// would be read. `PDFEDIT_PROGRESS_AFTER` sets it: a number of seconds from
    /// 0 to 3,600 (0: from the start, as tests need to see the bar whatever the
    /// machine's speed); any other value means the default, half a second.
    static let writingDelay: Double = {
        guard let value = getenv("PDFEDIT_PROGRESS_AFTER"), let seconds = Double(String(cString: value)),
            seconds.isFinite, (0...3_600).contains(seconds)
        else { return 0.5 }
        return seconds
    }()

    /// What a bar shows, and when.
    enum Kind {
        /// Counted work of more than a handful of units, from the start.
        case counting
        /// Writing a file: any count, once the command has taken `writingDelay`.
        case writing
        /// One page that takes long with nothing to count (`SlowWork`): each such
        /// phase once it has lasted `writingDelay`, with its own time.
        case slowPage
    }

    /// The handler to give the kit: nil (no bar at all) unless stderr is a terminal
    /// and the command is not quiet.
    static func handler(_ output: OutputOptions, _ kind: Kind = .counting) -> ProgressHandler? {
        guard let bar = bar(output, kind) else { return nil }
        return { bar.update($0) }
    }

    /// The bar itself, for a command that also prints while it runs (`clear`);
    /// nil as for `handler`.
    static func bar(_ output: OutputOptions, _ kind: Kind = .counting) -> ProgressBar? {
        guard !output.quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        return ProgressBar(kind)
    }

    /// What the executable binds to `SlowWork` for the whole command: a page the
    /// kit measures, draws or reads for longer than `writingDelay` shows as
    /// `measuring page 1 of big.pdf … 3.2 s` on a terminal, erased when done;
    /// nothing with `--quiet` (known once the command is parsed, so asked at
    /// each announcement) or when stderr is not a terminal.
    static func slowPages() -> ProgressHandler? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let bar = ProgressBar(.slowPage)
        return { update in
            guard !OutputOptions.quietCommand.load(ordering: .relaxed) else { return }
            bar.update(update)
        }
    }

    init(_ kind: Kind = .counting) {
        self.kind = kind
        delay = kind == .counting ? 0 : Self.writingDelay
        created = Date().timeIntervalSinceReferenceDate
    }

    private let kind: Kind
    private let delay: Double
    private let created: Double
    private let lock = Lock()
    private var phase = ""
    private var shown = -1
    private var lastDraw = 0.0
    private var visible = false
    /// The phase is work without a count (`ProgressUpdate.total` 0: reading the
    /// session, preparing the pages): `ticker` redraws it with the time elapsed.
    private var uncounted = false
    /// When the current phase began: a slow page's time is its own.
    private var phaseStarted = 0.0
    private var ticker: DispatchSourceTimer?

    func update(_ progress: ProgressUpdate) {
        if progress.total == 0 {
            // An uncounted update without a phase: that work ended. A slow-page
            // bar is told so for every page a command reads (thousands for a
            // book): it keeps its one ticker and only erases its line.
            if progress.phase.isEmpty {
                if kind == .slowPage {
                    lock.withLock {
                        uncounted = false
                        erase()
                    }
                } else {
                    stop()
                }
            } else {
                startUncounted(progress.phase)
            }
            return
        }
        // A bar that waits (writing) is for long work whatever its count: a split
        // into three parts of 20,000 pages each is long.
        guard progress.total > Self.handful || kind != .counting else { return }
        lock.withLock {
            let now = Date().timeIntervalSinceReferenceDate
            uncounted = false
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

    /// Work without a count: nothing to update as it goes, so a timer draws
    /// the phase and the time it has taken once the delay has passed (a session
    /// export of 50,000 pages read and planned for seconds before its first
    /// written percent, and the terminal showed nothing).
    private func startUncounted(_ name: String) {
        lock.withLock {
            if name != phase || !uncounted { phaseStarted = Date().timeIntervalSinceReferenceDate }
            phase = name
            shown = -1
            uncounted = true
            guard ticker == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
            timer.setEventHandler { [weak self] in self?.tick() }
            ticker = timer
            timer.resume()
        }
    }

    private func tick() {
        lock.withLock {
            let now = Date().timeIntervalSinceReferenceDate
            let start = kind == .slowPage ? phaseStarted : created
            guard uncounted, now - start >= delay else { return }
            write("\r\(phase) … \(decimalText(now - start, decimals: 1)) s\u{1B}[K")
            visible = true
        }
    }

    /// Ends the bar: no more ticks, and the line erased so that results and
    /// errors print on a clean line. Commands that report uncounted work call
    /// it when they are done, whatever the outcome.
    func stop() {
        lock.withLock {
            ticker?.cancel()
            ticker = nil
            uncounted = false
            erase()
        }
    }

    /// Erases the bar (if drawn) so that a line can be printed; the next update
    /// draws it again below that line.
    func clear() {
        lock.withLock {
            erase()
            shown = -1
        }
    }

    private func draw(done: Int, total: Int, unit: String) {
        let counts = " \(done)/\(total) \(unit)"
        let label = phase + " "
        let columns = TerminalWidth.columns(of: STDERR_FILENO)
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
        Console.write(text, to: STDERR_FILENO)
    }
}
