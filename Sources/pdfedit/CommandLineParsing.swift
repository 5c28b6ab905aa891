import ArgumentParser
import PDFEditKit
import PageModel

extension PDFEdit {
    /// Parses a command line (without `pdfedit`) into its command: the one parser
    /// for the command line and for `run` script lines, so that both refuse a wrong
    /// line with the same message and code. A usage error becomes
    /// `PDFEditError.usage` (64) on one line, with a hint where to read more;
    /// requests for help or the version are rethrown for ArgumentParser to answer.
    ///
    /// A rule between options that a command's `validate()` refuses is thrown
    /// there as a `PDFEditError.usage`: ArgumentParser wraps it and reports it as
    /// a plain failure with the error's own text, which becomes the same usage
    /// error again (no hint: the message says what to give).
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        if let parsed = parsedByItsCommand(arguments) { return parsed }
        return try parsedFromTheRoot(arguments)
    }

    /// `arguments` parsed from the root command, errors made ours.
    static func parsedFromTheRoot(_ arguments: [String]) throws -> ParsableCommand {
        do {
            // The root takes no argument and has no default subcommand, so an
            // unknown verb always fails to parse: the command names (every
            // command's configuration, a twentieth of a small edit) are
            // looked at only then.
            return try parseAsRoot(arguments)
        } catch {
            if let verb = arguments.first, !verb.hasPrefix("-"), !commandNames.contains(verb) {
                let suggestion = closestCommand(to: verb).map { "; did you mean '\($0)'?" } ?? "; see 'pdfedit --help'"
                throw PDFEditError.usage("unknown command '\(verb)'\(suggestion)")
            }
            switch exitCode(for: error) {
            case .validationFailure: throw PDFEditError.usage(oneLineUsageMessage(for: error))
            case .failure: throw PDFEditError.usage(message(for: error))
            default: throw error
            }
        }
    }

    /// `arguments` parsed by their command alone, when the first one is the name
    /// of a command without subcommands and the rest parse: the same declarations
    /// give the same command. Parsing from the root builds the command's argument
    /// set three more times (twice to look for pass-through arguments when the
    /// root meets the verb) and reads every command's configuration: 10% of a
    /// one-page edit's instructions. Anything else — an error, a request for help
    /// or the version, an alias — is parsed again from the root, which gives the
    /// usual answer and message (CommandParsingTests).
    static func parsedByItsCommand(_ arguments: [String]) -> ParsableCommand? {
        guard let verb = arguments.first, !verb.hasPrefix("-"),
            let command = configuration.subcommands.first(where: { $0.configuration.commandName == verb }),
            command.configuration.subcommands.isEmpty,
            let parsed = try? command.parseAsRoot(Array(arguments.dropFirst())),
            ObjectIdentifier(type(of: parsed)) == ObjectIdentifier(command)
        else { return nil }
        return parsed
    }

    /// The names of the subcommands, and ArgumentParser's own `help`.
    static var commandNames: Set<String> {
        Set(configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
    }

    /// ArgumentParser's message ("Error: …", a help line, the usage, "See …") as one
    /// line in our style: the message, then where to read more.
    private static func oneLineUsageMessage(for error: Error) -> String {
        var text = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "cannot parse"
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? false {
            text = first.lowercased() + text.dropFirst()
        }
        let hint = fullMessage(for: error, columns: 1000).split(separator: "\n")
            .map { $0.trimmingSpaces() }
            .first { $0.hasPrefix("See '") }
            .flatMap { line in line.split(separator: "'").dropFirst().first.map { "; see '\($0)'" } }
        return text + (hint ?? "")
    }

    /// The subcommand a mistyped `verb` most likely means: the nearest by edit
    /// distance (at most 2, or the verb's letters in order, as `mv` in `move`).
    static func closestCommand(to verb: String) -> String? {
        let candidates = commandNames.sorted().map { name in
            (name: name, distance: editDistance(verb.lowercased(), name), abbreviates: isSubsequence(verb.lowercased(), of: name))
        }
        let best = candidates.min { ($0.abbreviates ? 0 : 1, $0.distance) < ($1.abbreviates ? 0 : 1, $1.distance) }
        guard let best, best.abbreviates || best.distance <= 2 else { return nil }
        return best.name
    }

    private static func isSubsequence(_ short: String, of long: String) -> Bool {
        guard short.count >= 2, let first = short.first, long.first == first else { return false }
        var rest = Substring(long)
        for character in short {
            guard let index = rest.firstIndex(of: character) else { return false }
            rest = rest[rest.index(after: index)...]
        }
        return true
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension CommandConfiguration {
    /// The configuration of a command: every command names itself, so that the
    /// command line parser finds it by `commandName` (no underscored API).
    static func command(
        commandName: String, abstract: String, usage: String? = nil, discussion: String
    ) -> CommandConfiguration {
        CommandConfiguration(commandName: commandName, abstract: abstract, usage: usage, discussion: discussion)
    }
}
