import ArgumentParser
import PDFEditKit
import PageModel

/// A `run` script's lines as editing commands, parsed by the same ArgumentParser
/// definitions as the command line (one grammar, not two). The kit splits the
/// text into lines and words (`ScriptText`); this says what the words mean.
enum ScriptCommands {
    /// The script's editing commands with their line numbers.
    static func parse(_ text: String, name: String) throws(PDFEditError) -> [(number: Int, command: any EditCommand)] {
        try ScriptText.parse(text, name: name) { words throws(PDFEditError) in try command(words) }
    }

    /// An `apply` script's lines: as `parse`, and `optimize [--linearize]
    /// [--images DPI[:QUALITY]]` lines, which edit nothing but say how each output
    /// is written (as `apply --compress [--linearize] [--images …]` does,
    /// wherever the line stands), and a `render [options]` line, which makes each
    /// output images instead of a PDF.
    static func parseForApply(_ text: String, name: String) throws(PDFEditError)
        -> (
            lines: [(number: Int, command: any EditCommand)], compress: Bool, linearize: Bool, images: ImageResampling?,
            render: RenderSettings?
        )
    {
        var compress = false
        var linearize = false
        var images: ImageResampling?
        var render: RenderSettings?
        let lines = try ScriptText.parse(text, name: name) { words throws(PDFEditError) -> (any EditCommand)? in
            if words.first == "render" {
                if render != nil { throw PDFEditError.usage("one render line in an apply script") }
                render = try renderSettings(words)
                return nil
            }
            guard words.first == "optimize" else { return try command(words) }
            var options = words.dropFirst()
            while let option = options.popFirst() {
                if option == "--linearize" {
                    linearize = true
                } else if option == "--images", let value = options.popFirst() {
                    images = try SizeOptions.resampling(value)
                } else if option.hasPrefix("--images=") {
                    images = try SizeOptions.resampling(String(option.dropFirst("--images=".count)))
                } else {
                    throw PDFEditError.usage(
                        "optimize in an apply script takes only --linearize and --images (FILE and -o are apply's)")
                }
            }
            compress = true
            return nil
        }
        if render != nil && compress {
            throw PDFEditError.usage("render and optimize do not go together in an apply script (render writes images)")
        }
        return (lines, compress, linearize, images, render)
    }

    /// A `render` line of an apply script: its options only (FILE, -o and the
    /// selection are apply's: every page of each result is drawn).
    private static func renderSettings(_ words: [String]) throws(PDFEditError) -> RenderSettings {
        let parsed: ParsableCommand
        do {
            parsed = try PDFEdit.parseCommand(words)
        } catch let error as PDFEditError {
            throw error
        } catch {
            throw PDFEditError.usage("help and --version are not allowed in a script")
        }
        guard let render = parsed as? Render else { throw PDFEditError.usage("not a render line") }
        guard render.arguments.isEmpty, render.pattern == nil, render.from == nil, render.document.doc == nil,
            render.options.session == nil
        else {
            throw PDFEditError.usage(
                "render in an apply script takes only its drawing options (FILE and -o are apply's; every page is drawn)")
        }
        return try render.settings()
    }

    /// The edits of a script's lines, built in order (each line's own `--password`
    /// and `--password-for` count for that line, with `passwords`); a line that
    /// cannot be built fails the script, named by its line. `importer` gives the
    /// importer for files a line names (insert, fill, stamp), with a line's passwords.
    static func steps(
        _ lines: [(number: Int, command: any EditCommand)], name: String, passwords: PasswordBook,
        importer: (PasswordBook) -> Importer
    ) throws(PDFEditError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for line in lines {
            let edit = try ScriptText.atLine(line.number, of: name) { () throws(PDFEditError) -> Edit in
                let lineBook = try line.command.options.passwords.book().adding(passwords)
                return try line.command.edit(EditBuilding(otherDocuments: [], importer: importer(lineBook)))
            }
            steps.append(ScriptStep(line: line.number, edit: edit, doc: line.command.options.doc))
        }
        return steps
    }

    /// One line's editing command, parsed as the command line is, so that a wrong
    /// line fails with the command line's message and code.
    private static func command(_ words: [String]) throws(PDFEditError) -> any EditCommand {
        let verb = words.first ?? ""
        let parsed: ParsableCommand
        do {
            parsed = try PDFEdit.parseCommand(words)
        } catch let error as PDFEditError {
            throw error
        } catch {
            throw PDFEditError.usage("help and --version are not allowed in a script")
        }
        guard let command = parsed as? any EditCommand else {
            throw PDFEditError.usage("\"\(verb)\" does not edit the session; not allowed in a script")
        }
        if command.isDirect || command.directInput != nil {
            throw PDFEditError.usage("direct mode (a file, -o, --in-place) is not allowed in a script")
        }
        if command.options.session != nil {
            throw PDFEditError.usage("--session is given to `run`, not to its lines")
        }
        if words.contains("--keep-going") {
            throw PDFEditError.usage("--keep-going is not allowed in a script (it is all or nothing)")
        }
        return command
    }
}
