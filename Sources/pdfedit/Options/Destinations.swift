import ArgumentParser
import PDFEditKit
import PageModel

/// `--to N` / `--before P` / `--after P`: at most one (move, copy).
struct DestinationOptions: ParsableArguments {
    @Option(name: .customLong("to"), help: ArgumentHelp("The first moved item ends at position N (or last).", valueName: "N"))
    var to: String?

    @Option(name: .customLong("before"), help: ArgumentHelp("Put the block right before item P.", valueName: "P"))
    var before: String?

    @Option(name: .customLong("after"), help: ArgumentHelp("Put the block right after item P.", valueName: "P"))
    var after: String?

    func validate() throws {
        try Self.checkOne(of: [to, before, after], positionFlag: "--to")
    }

    /// The destination given, or nil.
    func destination() throws(PDFEditError) -> Destination? {
        try Self.destination(to: to, before: before, after: after)
    }

    static func checkOne(of given: [String?], positionFlag: String) throws(PDFEditError) {
        if given.compactMap({ $0 }).count > 1 {
            throw PDFEditError.usage("give only one of \(positionFlag), --before, --after")
        }
    }

    static func destination(to: String?, before: String?, after: String?) throws(PDFEditError) -> Destination? {
        if let to { return .position(try parsePosition(to)) }
        if let before { return .before(try parsePosition(before)) }
        if let after { return .after(try parsePosition(after)) }
        return nil
    }
}

/// Like `DestinationOptions`, spelled `--at N` (insert, blank, placeholder).
struct InsertionOptions: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp("The first new item ends at position N (default: the end).", valueName: "N"))
    var at: String?

    @Option(name: .customLong("before"), help: ArgumentHelp("Insert right before item P.", valueName: "P"))
    var before: String?

    @Option(name: .customLong("after"), help: ArgumentHelp("Insert right after item P.", valueName: "P"))
    var after: String?

    func validate() throws {
        try DestinationOptions.checkOne(of: [at, before, after], positionFlag: "--at")
    }

    /// Where the new items go; nil: the end.
    func destination() throws(PDFEditError) -> Destination? {
        try DestinationOptions.destination(to: at, before: before, after: after)
    }
}

/// What move and copy take: the items, where the block goes, and into which document.
struct BlockArguments: ParsableArguments {
    @Argument(help: "The pages (selection: 3, 2..5, last, odd, @p7, text:WORDS …).")
    var selection: String

    @Argument(help: .directModeFile)
    var directInput: String?

    @OptionGroup var destination: DestinationOptions

    @Option(name: .long, help: "Into this document (N and P are then its positions).")
    var into: String?

    @OptionGroup var selecting: SelectionOptions

    func validate() throws {
        if destination.to == nil && destination.before == nil && destination.after == nil {
            throw PDFEditError.usage("say where: --to N, --before P or --after P")
        }
    }

    func parsed() throws(PDFEditError) -> (PageSelection, Destination, String?) {
        guard let target = try destination.destination() else { throw PDFEditError.usage("no destination") }
        return (try selecting.parse(selection), target, into)
    }
}
