import ArgumentParser
import Foundation
import PDFEditKit
import PageModel

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List a document's page items: position, id, kind, source, size, rotation, label, text.",
        discussion: """
            LABEL is the page label from the source's /PageLabels (shown when a source
            has them); TEXT the first words of the page's text, extracted once and
            cached in the session's cache folder (--no-text skips it).

            Examples:
              pdfedit list
              pdfedit list 1..5 --doc appendix --json
            """)

    @Argument(help: "Only these items (a selection).")
    var selection: String?

    @Option(name: .long, help: "The document (default: the current one).")
    var doc: String?

    @Flag(name: .customLong("no-text"), help: "Skip the page text (faster on long documents the first time).")
    var noText = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let workspace = Workspace(sessionPath: options.session, passwords: try passwords.book())
            let listing = try workspace.list(
                doc: doc, selection: try selection.map(parseSelection), includeText: !noText,
                progress: ProgressBar.handler(options.output))
            if options.output.json {
                Console.json(listing)
                return
            }
            guard !options.output.quiet else { return }
            let hasLabels = listing.items.contains { $0.label != nil }
            let hasStamps = listing.items.contains { $0.stamps != nil }
            let rows = listing.items.map { item -> [String] in
                let size = item.width.map { "\(format($0)) x \(format(item.height ?? 0))" } ?? "?"
                var source = item.source.map { ($0 as NSString).lastPathComponent } ?? ""
                if let label = item.placeholderLabel { source = "\"\(label)\"" }
                let page = item.sourcePage.map(String.init) ?? ""
                return ["\(item.position)", item.id, item.kind, source, page, size, "\(item.rotation)"]
                    + (hasLabels ? [item.label ?? ""] : []) + (hasStamps ? [stampMarker(item.stamps ?? [])] : [])
                    + (noText ? [] : [item.text ?? ""])
            }
            let header =
                ["POS", "ID", "KIND", "SOURCE", "PAGE", "SIZE (pt)", "ROT"]
                + (hasLabels ? ["LABEL"] : []) + (hasStamps ? ["STAMPS"] : []) + (noText ? [] : ["TEXT"])
            Console.out("\(listing.document): \(pagesPhrase(listing.pageCount))")
            if !rows.isEmpty { Console.out(table(header, rows)) }
        }
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the session file, the current document and sources that changed or vanished.",
        discussion: "Example:\n  pdfedit status")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let status = try Workspace(sessionPath: options.session).status()
            if options.output.json {
                Console.json(status)
                return
            }
            guard !options.output.quiet else { return }
            var lines = [
                "Session:   \(status.session)",
                "Current:   \(status.current) (\(status.documents) document\(status.documents == 1 ? "" : "s"))",
                "History:   \(status.undoSteps) undoable, \(status.redoSteps) redoable",
            ]
            let bad = status.sources.filter { $0.state != "ok" }
            lines.append(
                "Sources:   \(status.sources.count), \(bad.isEmpty ? "all unchanged" : "\(bad.count) need relink")")
            for source in bad { lines.append("  \(source.state): \(source.path) (\(source.id))") }
            Console.out(lines.joined(separator: "\n"))
        }
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last K steps (default 1).",
        discussion: "Examples:\n  pdfedit undo\n  pdfedit undo 3")

    @Argument(help: "How many steps.")
    var steps = 1

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let labels = try Workspace(sessionPath: options.session).undo(steps)
            reportSteps("undid", labels, options.output)
        }
    }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Redo the last K undone steps (default 1).",
        discussion: "Examples:\n  pdfedit redo\n  pdfedit redo 2")

    @Argument(help: "How many steps.")
    var steps = 1

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let labels = try Workspace(sessionPath: options.session).redo(steps)
            reportSteps("redid", labels, options.output)
        }
    }
}

private struct StepsReport: Encodable {
    var action: String
    var steps: [String]
}

private func reportSteps(_ verb: String, _ labels: [String], _ output: OutputOptions) {
    if output.json {
        Console.json(StepsReport(action: verb == "undid" ? "undo" : "redo", steps: labels))
    } else if !output.quiet {
        for label in labels { Console.out("\(verb): \(label)") }
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the undo history, oldest first (undone steps are marked).",
        discussion: "Example:\n  pdfedit history")

    @OptionGroup var options: SessionOptions

    func run() throws {
        try reporting { () throws(PDFEditError) in
            let entries = try Workspace(sessionPath: options.session).read().historyEntries
            if options.output.json {
                Console.json(entries)
            } else if !options.output.quiet {
                if entries.isEmpty { Console.out("no steps yet") }
                let width = String(entries.count).count
                for entry in entries {
                    let number = String(entry.index).padding(toLength: width, withPad: " ", startingAt: 0)
                    Console.out("\(number)  \(entry.label)\(entry.isUndone ? "   (undone)" : "")")
                }
            }
        }
    }
}
