import ArgumentParser
import PDFEditKit
import Synchronization
import PageModel

// The option groups commands share. A command declares them in the order its
// help lists them (HelpSnapshotTests keeps every help text as it is).

/// `--session`: every command that works on a session.
struct SessionOption: ParsableArguments {
    @Option(name: .long, help: "The session file (default: $PDFEDIT_SESSION or .pdfedit/session.json).")
    var session: String?
}

/// `--doc`: the commands that read a document of the session.
struct DocOption: ParsableArguments {
    @Option(name: .long, help: "The document (default: the current one).")
    var doc: String?
}

/// `--password`, `--password-for`: every command that reads sources.
struct PasswordOptions: ParsableArguments {
    @Option(name: .long, help: "Password tried on every encrypted source (never stored).")
    var password: String?

    @Option(name: .customLong("password-for"), help: ArgumentHelp("Password for one source.", valueName: "FILE=PW"))
    var passwordFor: [String] = []

    func book() throws(PDFEditError) -> PasswordBook {
        try PasswordBook.from(password: password, passwordFor: passwordFor)
    }
}

/// `--json`, `--quiet`: every command that reports something.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON on stdout.")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing on success.")
    var quiet = false

    /// Whether the command being run was given `--quiet`: set as its options are
    /// validated, read by the executable's slow-page display, bound before the
    /// command was known.
    static let quietCommand = Atomic<Bool>(false)

    func validate() throws {
        if quiet { Self.quietCommand.store(true, ordering: .relaxed) }
    }
}

/// `--session` and the output options: the commands that only read or change
/// the session (docs, status, undo…) and those that also read sources.
struct SessionOptions: ParsableArguments {
    @OptionGroup var sessionOption: SessionOption
    @OptionGroup var output: OutputOptions

    var session: String? { sessionOption.session }
}

/// `--ink-only`: every command that takes a selection, for its `empty` tokens.
struct SelectionOptions: ParsableArguments {
    @Flag(
        name: .customLong("ink-only"),
        help: "Judge 'empty' by ink alone: a page whose text draws no ink (invisible or white) is empty too.")
    var inkOnly = false

    /// A selection as this command's options judge it.
    func parse(_ text: String) throws(PDFEditError) -> PageSelection {
        let selection = try parseSelection(text)
        return inkOnly ? selection.judgingInkOnly() : selection
    }
}

/// Every editing command, in a session or in direct mode.
struct EditOptions: ParsableArguments {
    @Option(name: .long, help: "The document to edit (default: the current one).")
    var doc: String?

    @OptionGroup var sessionOption: SessionOption
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    var session: String? { sessionOption.session }
}

/// Direct mode (`-o OUT` or `--in-place`): edit one file without a session. The
/// file itself is each command's last positional argument (`EditCommand.directInput`),
/// declared by the command so that it stays last among its arguments.
struct DirectOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")],
        help: "Direct mode: write the edited FILE here (- writes it to standard output).")
    var output: String?

    @Flag(name: .customLong("in-place"), help: "Direct mode: replace FILE with the result (atomically).")
    var inPlace = false

    @Flag(name: .long, help: "Direct mode: allow -o to replace an existing file.")
    var force = false

    @Flag(
        name: .long,
        help: "Direct mode: a FILE qpdf cannot repair is redrawn page by page with poppler (its annotations, links, bookmarks, forms and structure are lost).")
    var repair = false

    @OptionGroup var writing: WritingOptions

    /// Direct mode: encrypt the result with passwords of the user's own instead of
    /// keeping FILE's (`--encrypt`, `--allow`, the password files).
    @OptionGroup var encryption: EncryptOptions

    var decrypt: Bool { writing.decrypt }
    var keepScripts: Bool { writing.keepScripts }
    var isDirect: Bool { output != nil || inPlace }

    /// Direct mode on `input` with these options (output, in place, force,
    /// repair, decryption, scripts, encryption, compression), for every command that edits one
    /// file: the editing commands and `merge`.
    func mode(input: String, passwords: PasswordBook, output: OutputOptions) throws(PDFEditError) -> DirectMode {
        // First: --encrypt takes the values after it, also a FILE given after them.
        let encryption = try encryption.encryption()
        var mode = DirectMode(
            input: input, output: self.output, inPlace: inPlace, force: force, passwords: passwords)
        mode.decrypt = decrypt
        mode.keepScripts = keepScripts
        mode.keepSignatures = writing.keepSignatures
        mode.repair = repair
        mode.compress = writing.size.compress
        mode.linearize = writing.size.linearize
        mode.images = try writing.size.resampling()
        mode.outputEncryption = encryption
        if mode.decrypt && mode.outputEncryption != nil {
            throw PDFEditError.usage("give --decrypt or --encrypt, not both")
        }
        if self.output == StandardStreams.name && output.json {
            throw PDFEditError.usage("--json cannot share standard output with the PDF (-o -)")
        }
        return mode
    }

    /// The options that only mean something with `-o` or `--in-place`, refused in a session.
    func refuseOutsideDirectMode() throws(PDFEditError) {
        let given = [
            (decrypt, "--decrypt"), (keepScripts, "--keep-scripts"), (writing.keepSignatures, "--keep-signatures"),
            (!encryption.encrypt.isEmpty, "--encrypt"),
            (repair, "--repair"), (writing.size.compress, "--compress"), (writing.size.linearize, "--linearize"),
            (writing.size.images != nil, "--images"),
        ].filter(\.0).map(\.1)
        if let first = given.first { throw PDFEditError.usage("\(first) goes with -o or --in-place") }
    }
}

/// What a direct-mode output keeps of its input: direct mode and `apply`.
struct WritingOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: "Direct mode: write the result unencrypted (by default it keeps FILE's encryption and passwords).")
    var decrypt = false
    @Flag(name: .customLong("keep-scripts"), help: "Direct mode: keep the file's JavaScript and open action.")
    var keepScripts = false
    @Flag(
        name: .customLong("keep-signatures"),
        help: "Direct mode: keep a signed file's signatures valid (its bytes kept, the edit appended as an update), or refuse the edit when it cannot.")
    var keepSignatures = false
    @OptionGroup var size: SizeOptions
}

extension ArgumentHelp {
    /// The help of every editing command's last argument, the file direct mode edits.
    static let directModeFile = ArgumentHelp(
        "Direct mode: the PDF to edit (with -o or --in-place); - reads it from standard input.", valueName: "file")
}

/// `--encrypt` and where its passwords and permissions come from: export and
/// direct-mode edits.
struct EncryptOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "Encrypt the output (AES-256). Passwords given here are visible to other users (ps); with - they come from the password files or PDFEDIT_USER_PASSWORD/PDFEDIT_OWNER_PASSWORD.",
            valueName: "USERPW OWNERPW"))
    var encrypt: [String] = []

    @Option(
        name: .customLong("user-password-file"),
        help: ArgumentHelp("With --encrypt: the user password is the first line of FILE.", valueName: "FILE"))
    var userPasswordFile: String?

    @Option(
        name: .customLong("owner-password-file"),
        help: ArgumentHelp("With --encrypt: the owner password is the first line of FILE.", valueName: "FILE"))
    var ownerPasswordFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --encrypt: what readers may do without the owner password, a comma list of print, copy, modify, annotate, form, assemble (default: all).",
            valueName: "LIST"))
    var allow: String?
}

extension EncryptOptions {
    /// The encryption asked for, nil without `--encrypt`; the password and
    /// permission options go with it.
    func encryption() throws(PDFEditError) -> OutputEncryption? {
        guard !encrypt.isEmpty else {
            if userPasswordFile != nil || ownerPasswordFile != nil || allow != nil {
                throw PDFEditError.usage("--user-password-file, --owner-password-file and --allow go with --encrypt")
            }
            return nil
        }
        let allowed = try allow.map(OutputPermission.list) ?? Set(OutputPermission.allCases)
        return try OutputEncryption.resolve(
            arguments: encrypt, userPasswordFile: userPasswordFile, ownerPasswordFile: ownerPasswordFile,
            allowed: allowed)
    }
}
