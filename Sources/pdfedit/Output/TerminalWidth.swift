import Glibc
import PageModel

/// The one reading of the terminal's width, for the progress bar and for the
/// help ArgumentParser lays out: `COLUMNS` when it holds a whole number from 1
/// to 10,000, else what the terminal says (TIOCGWINSZ), else 80. A `COLUMNS`
/// (or `LINES`) outside that range — `-9223372036854775808`, `0`, `abc` — is
/// treated as unset, never used in arithmetic.
enum TerminalWidth {
    static let usable = 1...10_000

    /// The width to lay out a line of `descriptor`'s terminal in.
    static func columns(of descriptor: Int32) -> Int {
        if let columns = setting("COLUMNS") { return columns }
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Removes a `COLUMNS` or `LINES` outside `usable` from the environment,
    /// before ArgumentParser reads them without a range check for its help
    /// (`COLUMNS=-9223372036854775808 pdfedit --help` overflowed there): it then
    /// asks the terminal, as for an unset variable. The executable does this
    /// once, first thing; library code leaves the environment alone.
    static func dropUnusableSettings() {
        for name in ["COLUMNS", "LINES"] where getenv(name) != nil && setting(name) == nil {
            unsetenv(name)
        }
    }

    /// The variable's value when it is a whole number in `usable`.
    private static func setting(_ name: String) -> Int? {
        guard let raw = getenv(name), let value = Int(String(cString: raw)), usable.contains(value) else { return nil }
        return value
    }
}
