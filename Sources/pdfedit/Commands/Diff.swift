import ArgumentParser
import PDFEditKit
import PageModel

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "diff",
        abstract: "Compare two PDFs, or two steps of a session, page by page: moved, inserted, removed, rotated, changed.",
        usage: """
            pdfedit diff A.pdf B.pdf [--json] [--sheet OUT.png]
            pdfedit diff --history N..M [--doc NAME] [--json] [--sheet OUT.png]
            pdfedit diff --sources [--doc NAME] [--json] [--sheet OUT.png]
            """,
        discussion: """
            Pages are paired by what they show, not by number: first the pages that draw
            exactly the same, then the most alike by text and by a small picture, so a
            renumbered document is a few moves and a page changed in place is still paired.
            Each page that differs is one line, LEFT -> RIGHT (positions; - where a page is
            missing): moved, removed, inserted, rotated 90|180|270, and changed at
            x0,y0-x1,y1 (the regions that differ, in points from the top-left corner of
            the right page as displayed). Exit status as diff(1): 0 the same, 1 different,
            64, 65, 66… for trouble.

            --history N..M compares the current document (or --doc NAME) after step N with
            it after step M (0: before the first step; N alone: against now). --sources
            compares the files its pages come from, as they are on disk now, with the
            document as export would write it. --sheet draws the changed, removed and
            inserted pages side by side, changed regions outlined in red.

            Examples:
              pdfedit diff report-v1.pdf report-v2.pdf
              pdfedit diff old.pdf new.pdf --json > changes.json
              pdfedit diff --history 0..3 --sheet changes.png
            """)

    @Argument(help: ArgumentHelp("The two PDFs (or images) to compare.", valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare steps N and M of the session's history.", valueName: "N..M"))
    var history: String?

    @Flag(name: .long, help: "Compare the session's document with its sources as they are on disk.")
    var sources = false

    @Option(name: .long, help: ArgumentHelp("Draw the differing pages side by side into this PNG.", valueName: "OUT.png"))
    var sheet: String?

    @Flag(name: .long, help: "Replace an existing sheet file.")
    var force = false

    @OptionGroup var document: DocOption
    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func validate() throws {
        let modes = (files.isEmpty ? 0 : 1) + (history == nil ? 0 : 1) + (sources ? 1 : 0)
        if modes != 1 { throw PDFEditError.usage("give two files, --history N..M or --sources") }
        if !files.isEmpty && files.count != 2 {
            throw PDFEditError.usage("diff compares two files, not \(files.count)")
        }
        if !files.isEmpty && document.doc != nil { throw PDFEditError.usage("--doc goes with --history or --sources") }
        if force && sheet == nil { throw PDFEditError.usage("--force goes with --sheet") }
    }

    func run() throws {
        var same = true
        try reporting { () throws(PDFEditError) in
            let book = try passwords.book()
            let request = sheet.map { DiffSheetRequest(path: $0, force: force) }
            let diff: DocumentDiff
            if files.count == 2 {
                diff = try PageEditor.diff(files[0], files[1], passwords: book, sheet: request)
            } else {
                diff = try PageEditor.reading(session: options.session, passwords: book) {
                    (editor) throws(PDFEditError) in
                    if let history {
                        return try editor.diff(history: history, doc: document.doc, sheet: request)
                    }
                    return try editor.diffSources(doc: document.doc, sheet: request)
                }
            }
            same = diff.same
            if options.output.json {
                Console.json(diff)
            } else if !options.output.quiet {
                Console.out(diff.reportLines.map(shown).joined(separator: "\n"))
            }
        }
        if let code = Console.standardOutputExitCode() { throw ExitCode(code) }
        if !same { throw ExitCode(1) }
    }
}
