import ArgumentParser
import Glibc
import PDFEditKit
import PageModel

@main
struct PDFEdit: ParsableCommand {
    static func main() {
        ProcessTiming.start()
        TerminalWidth.dropUnusableSettings()
        SignalExit.install()
        // A reader that goes away (`pdfedit list | head -1`) makes writes fail with
        // EPIPE, which the command handles (Console: stop, clean up, exit 141),
        // instead of SIGPIPE killing it half-way with temporaries left. The
        // executable's choice: the kit installs no handler.
        signal(SIGPIPE, SIG_IGN)
        CrashCleanup.install()
        WarningChannel.setReceiver { Console.warn([$0]) }
        do {
            var command = try ProcessTiming.parsing { try parseCommand(FileNameText.arguments) }
            if asksForSmallerOutput(command) {
                ProcessSettings.setWriterFlateLevel(9) // see AsksForSmallerOutput
            }
            if !(command is Apply) {
                ProcessLifetime.endsAfterOneCommand()
            }
            // A page that takes seconds to measure or draw shows on a terminal.
            try reportingSlowPages(to: ProgressBar.slowPages()) { try command.run() }
            // The work is done, but its report did not reach stdout: say so in the code.
            if let code = Console.standardOutputExitCode() { exit(withError: ExitCode(code)) }
        } catch let error as PDFEditError {
            Console.report(error)
            exit(withError: ExitCode(error.exitCode))
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "pdfedit",
        abstract: "Edit the pages of PDF documents from the command line.",
        discussion: """
            A session holds documents (ordered lists of page items) made from imported PDFs and images. Edit them with move, copy, remove, rotate… (each one undoable), then export. Every editing command also works directly on one file:

              pdfedit open report.pdf
              pdfedit move 3..5 --to 1
              pdfedit export out.pdf

              pdfedit move 3..5 --to 1 report.pdf -o out.pdf

            Exit codes: 0 ok, 1 bug, 3 partial import, 64 usage, 65 unusable input, 66 missing input, 71 out of memory, 73 cannot write output, 75 source changed or session locked, 77 password missing or wrong, 130/143 cancelled, 141 stdout's reader left. See man pdfedit for selections, environment variables and the full table.
            """,
        version: Versions.summary,
        // `help` lists the groups in this order. Editing comes last and holds the
        // most: HelpAndManPageTests reads the commands after the last heading.
        groupedSubcommands: [
            CommandGroup(name: "Files", subcommands: [Merge.self, Split.self]),
            CommandGroup(name: "Session", subcommands: [Open.self, Docs.self, Status.self, History.self]),
            CommandGroup(
                name: "Inspecting", subcommands: [List.self, Find.self, Show.self, Thumbs.self, Info.self, Diff.self]),
            CommandGroup(name: "Exporting", subcommands: [Export.self, Optimize.self, Render.self]),
            CommandGroup(
                name: "Editing",
                subcommands: [
                    New.self, Use.self, Rename.self, Close.self, Move.self, Copy.self, Duplicate.self, Remove.self,
                    Rotate.self, Reverse.self, EditPages.self, Interleave.self, Blank.self, Insert.self, Placeholder.self, Fill.self,
                    StampPages.self, UnstampPages.self, NumberPages.self, BatesNumbers.self, Watermark.self, Crop.self, SplitPage.self, Resize.self, Nup.self, Booklet.self, Pad.self, Outline.self, Relink.self, Undo.self, Redo.self, Run.self, Apply.self,
                ]),
            CommandGroup(name: "Authoring", subcommands: [Labels.self, Meta.self, Attach.self]),
            CommandGroup(name: "Finishing", subcommands: [Flatten.self, Strip.self, Redact.self]),
        ]
    )
}
