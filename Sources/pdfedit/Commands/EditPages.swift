import ArgumentParser
import Glibc
import PDFEditKit
import PageModel

/// `pdfedit edit`: reorder, remove, copy and turn pages in a text editor, as
/// `git rebase -i` edits commits.
struct EditPages: EditCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "edit",
        abstract: "Reorder, remove, copy and turn pages in your text editor, as one undo step.",
        discussion: """
            The document's pages are written to a file, one line each (id, position,
            source and page, size, rotation, label, first words), which opens in
            $VISUAL or $EDITOR (run by the shell, so it may carry arguments; vi when
            neither is set). Move lines to move pages, delete a line to remove its page,
            copy a line to copy the page, write r90, r180 or r270 before an id to turn
            it, add "blank [SIZE]" or "placeholder [LABEL]" lines to insert pages. When
            the editor exits the file is applied as one step (undo takes it back); a
            file left unchanged, or with every line removed, changes nothing. A line
            that cannot be read is refused (64) naming it, and the file is kept: fix
            it and run pdfedit edit --continue.

            Examples:
              pdfedit edit
              pdfedit edit --doc appendix
              EDITOR='code --wait' pdfedit edit
              pdfedit edit in.pdf -o out.pdf
            """)

    @Argument(help: .directModeFile)
    var directInput: String?

    @Flag(name: .customLong("continue"), help: "Open the file a refused edit kept, instead of a new one.")
    var resume = false

    @OptionGroup var options: EditOptions
    @OptionGroup var direct: DirectOptions
    var directOptions: DirectOptions? { direct }

    func edit(_ building: EditBuilding) throws(PDFEditError) -> Edit {
        // Reached only as a line of a `run` or `apply` script (the command's own `run` never asks).
        throw PDFEditError.usage("edit opens an editor: it cannot be a line of a script")
    }

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let passwords = try options.passwords.book()
            let outcome: EditInEditor.Outcome
            if direct.isDirect {
                guard let input = directInput else {
                    throw PDFEditError.usage("-o/--in-place edit a file: give it as the last argument")
                }
                if options.doc != nil { throw PDFEditError.usage("--doc belongs to sessions, not to direct mode") }
                var mode = try direct.mode(input: input, passwords: passwords, output: options.output)
                mode.progress = ProgressBar.handler(options.output, .writing)
                outcome = try mode.editInEditor(resume: resume, open: ExternalEditor.open)
            } else {
                if let input = directInput {
                    throw PDFEditError.usage("\(input): to edit a file directly, add -o OUT or --in-place")
                }
                try direct.refuseOutsideDirectMode()
                outcome = try PageEditor.editInEditor(
                    session: options.session, passwords: passwords, doc: options.doc, resume: resume,
                    open: ExternalEditor.open)
            }
            switch outcome {
            case .unchanged:
                if !options.output.quiet { Console.error("pdfedit: the edit file asks for no change: nothing changed") }
            case .changed(let summary, let export):
                Console.warn(export?.warnings ?? [])
                report(summary, export: export)
            }
        }
    }
}

/// The user's editor on a file, as git runs it: `$VISUAL`, else `$EDITOR`, else
/// `vi`, through `/bin/sh -c` so that it may carry arguments (`code --wait`).
/// While it runs, Ctrl-C and Ctrl-\ belong to it: this process ignores them (and
/// gives the editor their default handling), so an interrupted editor does not
/// leave pdfedit gone and the terminal shared.
enum ExternalEditor {
    static func open(_ path: String) throws(PDFEditError) {
        let editor = [getenv("VISUAL"), getenv("EDITOR")].compactMap { $0.map { String(cString: $0) } }
            .first { !$0.allSatisfy(\.isWhitespace) } ?? "vi"
        let arguments = ["/bin/sh", "-c", editor + " \"$@\"", editor, path]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var pid = pid_t()
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, cArguments, environ)
        guard spawned == 0 else {
            throw PDFEditError.usage("cannot run the editor \"\(editor)\": \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw PDFEditError.usage("lost the editor \"\(editor)\"") }
        }
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let how = exited ? "exited with status \(code)" : "was stopped by signal \(status & 0x7f)"
            throw PDFEditError.usage("the editor \"\(editor)\" \(how): nothing changed (the file is kept for pdfedit edit --continue)")
        }
    }
}
