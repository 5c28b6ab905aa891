import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PDFEditKit
import PageModel

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration.command(
        commandName: "info",
        abstract: "Describe a PDF on disk: its pages, sizes, rotations, labels and text.",
        discussion: """
            Example:
              pdfedit info report.pdf
              pdfedit info scan.pdf --json --password secret
            """)

    @Argument(help: "The PDF to describe.")
    var file: String

    @Flag(name: .customLong("no-text"), help: "Skip the page text (faster on long files).")
    var noText = false

    @OptionGroup var passwords: PasswordOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting {
            let info = try PageEditor.info(ofPath: file, passwords: try passwords.book(), includeText: !noText)
            Console.warn(Warning.damage(of: file, messages: info.warnings))
            if output.json {
                Console.json(info)
            } else if !output.quiet {
                Console.out(render(info))
            }
        }
    }

    private func render(_ info: FileInfo) -> String {
        var features: [String] = []
        if info.hasForm { features.append("form") }
        if info.hasOutlines { features.append("outlines") }
        if info.hasPageLabels { features.append("page labels") }
        if info.tagged { features.append("tagged") }
        var lines = [
            "File:       \(shown(info.file))",
            "Pages:      \(info.pageCount)",
            "Version:    PDF \(info.pdfVersion)",
            "Encrypted:  \(info.encrypted ? "yes" : "no")",
        ]
        if let producer = info.producer { lines.append("Producer:   \(shown(producer))") }
        if let title = info.title, !title.isEmpty { lines.append("Title:      \(shown(title))") }
        lines.append("Features:   \(features.isEmpty ? "none" : features.joined(separator: ", "))")
        if !info.signatures.isEmpty {
            lines.append("Signatures: " + signatureLine(info.signatures[0]))
            lines += info.signatures.dropFirst().map { "            " + signatureLine($0) }
        }
        lines.append("")
        let rows = info.pages.map { page in
            [
                "\(page.number)",
                "\(format(page.width)) x \(format(page.height))",
                page.sizeName ?? "",
                "\(page.rotation)",
                page.label ?? "",
                page.text ?? "",
            ]
        }
        lines.append(table(["PAGE", "SIZE (pt)", "NAME", "ROT", "LABEL", "TEXT"], rows))
        return lines.joined(separator: "\n")
    }
}
