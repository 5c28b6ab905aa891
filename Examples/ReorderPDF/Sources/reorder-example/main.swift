// reorder-example: the Document Editor used as a library, as a server or an app
// would use it — `import PDFEditKit` and nothing else.
//
//     reorder-example IN.pdf OUT.pdf
//
// Opens IN.pdf in a session beside OUT.pdf, moves the last page to the front,
// turns the first page a quarter turn, removes the second page, undoes that
// removal, exports the document to OUT.pdf and prints its page count.
import Foundation
import PDFEditKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: reorder-example IN.pdf OUT.pdf\n".utf8))
    exit(64)
}
let (input, output) = (arguments[1], arguments[2])
// The session (documents and their history) lives beside the output.
let sessionPath = URL(fileURLWithPath: output).deletingLastPathComponent().appendingPathComponent("reorder-session.json").path

do throws(PDFEditError) {
    let editor = DocumentEditor(sessionPath: sessionPath)
    for warning in try editor.open([input], replacing: true) { print("warning: \(warning)") }
    try editor.move("last", to: .position(.number(1)))
    try editor.rotate("1", degrees: 90)
    try editor.remove("2")
    let undone = try editor.undo()
    print("undone: \(undone.joined(separator: ", "))")
    let result = try editor.export(to: output, settings: ExportSettings(force: true))
    let listing = try editor.list()
    print("order: \(listing.items.map(\.id).joined(separator: " "))")
    print("\(result.output): \(result.pageCount) pages")
} catch {
    // PDFEditError: the message and exit code `pdfedit` itself would give.
    FileHandle.standardError.write(Data("reorder-example: \(error.description)\n".utf8))
    exit(error.exitCode)
}
