import Glibc
import PDFEditKit
import PageModel

/// Ctrl-C and SIGTERM: remove our temporary files and exit 130 / 143 at once,
/// even in the middle of a long qpdf write (qpdf cannot be stopped mid-write).
/// The kit keeps the table of temporaries and does the async-signal-safe work
/// (`Cancellation.signalArrived`); the handler is the executable's, since a
/// library installs no process-wide hook.
enum SignalExit {
    /// Installs the handlers explicitly: a process started in the background
    /// inherits SIGINT as ignored, and one started by some launchers inherits the
    /// signals blocked; either would otherwise never honour them.
    static func install() {
        Cancellation.prepareForSignalHandler()
        signal(SIGINT, handle)
        signal(SIGTERM, handle)
        // The end of the grace period a command that winds up by itself (`apply`)
        // is given after a signal (`Cancellation.cooperate`).
        signal(SIGALRM, handleGraceEnd)
        // Past a file size limit (`ulimit -f`) a write fails with EFBIG, reported as
        // exit 73 with nothing left behind, instead of SIGXFSZ killing the process.
        signal(SIGXFSZ, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// A signal held back during a commit returns here (the kit raises it again when
/// the renames are done).
private func handle(_ signal: Int32) {
    guard Cancellation.signalArrived(signal) else {
        // Kept for a command that winds up itself (`apply`): its grace period starts now.
        if Cancellation.receivedSignal == signal { alarm(Cancellation.graceSecondsForKeptSignal) }
        return
    }
    _exit(128 + signal)
}

/// The grace period after a kept signal ended with the command still running.
private func handleGraceEnd(_ signal: Int32) {
    _exit(128 + Cancellation.graceEnded())
}
