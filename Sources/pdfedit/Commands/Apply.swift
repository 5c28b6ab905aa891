import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "apply",
        abstract: "Apply a script of edits to many files, each on its own, in one process.",
        usage: """
            pdfedit apply <script> <file> ... (-o <template> | --in-place) [<options>]
            pdfedit apply -e <line> [-e <line> ...] <file> ... (-o <template> | --in-place) [<options>]
            """,
        discussion: """
            The script's lines are those of `run` (one editing command per line, `#`
            comments), applied to each FILE as to one document: every line, or nothing.
            Each result is written to a temporary file beside its output and renamed
            into place only when complete; FILEs are never changed (except with
            --in-place, atomically). A line `optimize` (wherever it stands) writes each
            result losslessly smaller, as --compress does; `optimize --linearize`
            linearizes it too, `optimize --images DPI[:QUALITY]` resamples its images
            as --images does.

            -o TEMPLATE names each output: {name} the file's name, {stem} without its
            extension, {dir} its folder, {n} its place among the FILEs (1, 2, …).
            Nothing is appended; missing folders are created. Two FILEs that would be
            written to one output, or an output that is one of the FILEs, are refused
            (exit 64) before anything is written.

            One line per FILE on stdout, in argument order:
              ok          in/a.pdf -> out/a.pdf (20 pages)
              failed      in/b.pdf: MESSAGE (exit 65)
              skipped     in/b.pdf: MESSAGE (exit 65)      with --keep-going
              not started in/c.pdf -> out/c.pdf
              interrupted in/d.pdf -> out/d.pdf                on Ctrl-C
            --json prints one JSON object per line instead: file, output, status,
            exit, message, pages. Errors and warnings go to stderr, naming the file.

            Without --keep-going the first failure starts no further file: files
            already being written finish, outputs already written stay, and the exit
            code is that of the first failing FILE. With --keep-going every FILE is
            tried and the exit code is 3 when any failed. Ctrl-C (or SIGTERM) starts
            no further file and stops the ones being written: they are reported as
            "interrupted", the rest as "not started", finished outputs stay, nothing is
            left half-written, and the exit code is 130 (143).

            Each result keeps its FILE's encryption, unless --decrypt or --encrypt
            (give --encrypt after the FILEs: it takes the two values after it).

            Examples:
              pdfedit apply fix.txt in/*.pdf -o out/{name}
              pdfedit apply -e 'rotate 1 --by 90' *.pdf -o rotated/{stem}-r.pdf
              pdfedit apply -e 'remove last' a.pdf b.pdf -o '{dir}/trimmed/{name}'
              pdfedit apply fix.txt scans/*.pdf --in-place --keep-going --json
            """)

    @Argument(help: ArgumentHelp("The script (or - for stdin), unless -e is given; then the PDFs.", valueName: "script|file"))
    var arguments: [String] = []

    @Option(
        name: [.customShort("e"), .customLong("edit")],
        help: ArgumentHelp("A script line, instead of a script file (repeatable; lines in order).", valueName: "line"))
    var lines: [String] = []

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Where each result goes: {name} {stem} {dir} {n} are filled in.", valueName: "template"))
    var template: String?

    @Flag(name: .customLong("in-place"), help: "Replace each FILE with its result (atomically).")
    var inPlace = false

    @Flag(name: .long, help: "Allow -o to replace existing files.")
    var force = false

    @Option(
        name: [.customShort("j"), .customLong("jobs")],
        help: ArgumentHelp("Files worked on at once (default: the number of cores; at most 4 per core).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .customLong("keep-going"), help: "Go on past failing files (then exit 3).")
    var keepGoing = false

    @OptionGroup var writing: WritingOptions
    @OptionGroup var encryption: EncryptOptions
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if template == nil && !inPlace { throw PDFEditError.usage("apply needs -o TEMPLATE or --in-place") }
        if template != nil && inPlace { throw PDFEditError.usage("give either -o or --in-place, not both") }
        if inPlace && force { throw PDFEditError.usage("--force goes with -o (--in-place always replaces)") }
        if encryption.encrypt.count > 2 {
            throw PDFEditError.usage("--encrypt takes two values (USERPW OWNERPW, or -); give it after the FILEs")
        }
        // More than BatchApply.maximumJobs (4 per core) is taken as that many.
        if let jobs, jobs < 1 { throw PDFEditError.usage("-j takes a number of files from 1") }
        if arguments.count < (lines.isEmpty ? 2 : 1) {
            throw PDFEditError.usage(lines.isEmpty ? "apply needs a SCRIPT (or -e LINE) and at least one FILE" : "apply needs at least one FILE")
        }
        if arguments.dropFirst(lines.isEmpty ? 1 : 0).contains(StandardStreams.name) || template == StandardStreams.name {
            throw PDFEditError.usage("apply reads and writes files: - (standard input or output) can only be its SCRIPT")
        }
    }

    func run() throws {
        var summary: BatchSummary?
        try reporting { () throws(PDFEditError) in
            var batch = try makeBatch()
            let bar = ProgressBar.bar(output)
            if let bar { batch.progress = { bar.update($0) } }
            let printer = ResultPrinter(output: output, bar: bar)
            // Nobody reads the report any more (`| head -1`, a full disk): no new file is started.
            batch.stopsWhen = { Console.standardOutputFailure != 0 }
            // Ctrl-C or SIGTERM: no new file, the running ones stopped, every file
            // reported and the summary printed before exiting 130 / 143.
            Cancellation.cooperate()
            batch.cancelledBy = { Cancellation.receivedSignal }
            summary = try batch.run { printer.print($0) }
        }
        guard let summary else { return }
        let lost = Console.standardOutputFailure != 0
        guard summary.exitCode != 0 || lost else { return }
        let total = summary.results.count
        let files = "\(total) file\(total == 1 ? "" : "s")"
        var line = "pdfedit: \(summary.failures.count) of \(files) failed"
        if let signal = summary.cancelledBy {
            line = "pdfedit: \(signal == 15 ? "terminated" : "interrupted"): \(summary.written) of \(files) written"
            if !summary.failures.isEmpty { line += ", \(summary.failures.count) failed" }
            if summary.interrupted > 0 { line += ", \(summary.interrupted) interrupted" }
        } else if lost {
            // The lines of stdout were lost: the summary says what was done.
            line = "pdfedit: \(summary.written) of \(files) written"
            if !summary.failures.isEmpty { line += ", \(summary.failures.count) failed" }
        }
        if summary.notStarted > 0 { line += ", \(summary.notStarted) not started" }
        Console.error(line)
        // A report that did not reach stdout is the code's first concern: the
        // caller cannot know what was done.
        throw ExitCode(Console.standardOutputExitCode() ?? summary.exitCode)
    }

    /// The script's lines as steps (a wrong line is refused before any file is
    /// read), and the batch they make with the options.
    private func makeBatch() throws(PDFEditError) -> BatchApply {
        let book = try passwords.book()
        let outputEncryption = try encryption.encryption()
        if writing.decrypt && outputEncryption != nil { throw PDFEditError.usage("give --decrypt or --encrypt, not both") }
        let name: String
        let text: String
        if lines.isEmpty {
            (name, text) = try ScriptText.read(arguments[0])
        } else {
            (name, text) = ("-e", lines.joined(separator: "\n"))
        }
        let (parsed, optimize, linearize, scriptImages, render) = try ScriptCommands.parseForApply(text, name: name)
        for line in parsed where line.command.options.doc != nil {
            throw PDFEditError.scriptLine(
                script: name, line: line.number, error: .usage("--doc is not allowed in apply: each FILE is one document"))
        }
        // A redact line's --rasterize-redacted and --scrub say how each output
        // is written, as in direct mode: the batch takes them from the line.
        var redactedWriting: (dpi: Double?, scrub: Bool) = (nil, false)
        let edits = try parsed.map { (line) throws(PDFEditError) -> (number: Int, command: any EditCommand) in
            guard var redact = line.command as? Redact else { return line }
            if let dpi = redact.rasterizeRedacted {
                if let other = redactedWriting.dpi, other != dpi {
                    throw PDFEditError.scriptLine(
                        script: name, line: line.number,
                        error: .usage("--rasterize-redacted is given twice with other values; give one"))
                }
                redactedWriting.dpi = dpi
            }
            redactedWriting.scrub = redactedWriting.scrub || redact.scrub
            redact.rasterizeRedacted = nil
            redact.scrub = false
            return (line.number, redact)
        }
        let directory = FileNameText.currentDirectory
        let steps = try ScriptCommands.steps(edits, name: name, passwords: book) { lineBook in
            Importer(baseDirectory: directory, passwords: lineBook)
        }
        let destination: BatchApply.Destination
        if let template {
            destination = .template(try OutputTemplate(template))
        } else {
            destination = .inPlace
        }
        var batch = BatchApply(
            files: Array(arguments.dropFirst(lines.isEmpty ? 1 : 0)), steps: steps, script: name,
            destination: destination, passwords: book)
        batch.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        batch.keepGoing = keepGoing
        batch.force = force
        batch.decrypt = writing.decrypt
        batch.keepScripts = writing.keepScripts
        batch.keepSignatures = writing.keepSignatures
        batch.compress = writing.size.compress || optimize
        batch.linearize = writing.size.linearize || linearize
        batch.images = try writing.size.resampling() ?? scriptImages
        batch.outputEncryption = outputEncryption
        batch.rasterizeRedacted = redactedWriting.dpi
        batch.scrub = redactedWriting.scrub
        if var render {
            if template == nil { throw PDFEditError.usage("render in an apply script needs -o TEMPLATE, not --in-place") }
            render.force = force
            batch.render = render
        }
        return batch
    }
}

/// Prints each file's result as the batch hands it over (in argument order, one
/// at a time): its errors and warnings on stderr, its line on stdout.
private struct ResultPrinter: Sendable {
    let output: OutputOptions
    let bar: ProgressBar?

    func print(_ result: BatchFileResult) {
        bar?.clear()
        // An interrupted file's line says so; its error would only repeat it.
        if let error = result.error, result.status != .interrupted { Console.report(error, about: result.file) }
        Console.warn(result.warnings, about: result.file)
        if output.json {
            Console.jsonLine(result)
            return
        }
        switch result.status {
        case .ok:
            if !output.quiet {
                Console.out("ok          \(shown(result.file)) -> \(shown(result.output)) (\(pagesPhrase(result.pages ?? 0)))")
            }
        case .failed, .skipped:
            let status = result.status == .failed ? "failed     " : "skipped    "
            // Most messages name the file already: the line names it once.
            var message = result.message ?? ""
            if message.hasPrefix(result.file + ": ") { message.removeFirst(result.file.count + 2) }
            Console.out("\(status) \(shown(result.file)): \(shown(message)) (exit \(result.exitCode ?? 1))")
        case .notStarted:
            Console.out("not started \(shown(result.file)) -> \(shown(result.output))")
        case .interrupted:
            Console.out("interrupted \(shown(result.file)) -> \(shown(result.output)) (nothing written)")
        }
    }
}
