// reorder-example: the Document Editor used as a library, as a server or an app
// would use it — `import PDFEditKit` and nothing else.
//
//     reorder-example IN.pdf OUT.pdf
//
// Reads IN.pdf's bytes, moves the last page to the front, turns the first page
// a quarter turn, removes the second page, undoes that removal, and writes the
// result's bytes to OUT.pdf; prints the order of the pages and their count.
import Foundation
import PDFEditKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: reorder-example IN.pdf OUT.pdf\n".utf8))
    exit(64)
}
let (input, output) = (URL(fileURLWithPath: arguments[1]), URL(fileURLWithPath: arguments[2]))

do {
    var editor = try PageEditor(data: try Data(contentsOf: input), name: input.deletingPathExtension().lastPathComponent)
    try editor.move(.last, to: .position(1))
    try editor.rotate(.first, by: 90)
    try editor.remove(.page(2))
    let undone = try editor.undo()
    print("undone: \(undone.joined(separator: ", "))")
    try editor.data().write(to: output, options: .atomic)
    print("order: \(try editor.items().map { "\($0.id)" }.joined(separator: " "))")
    print("\(output.path): \(try editor.pageCount()) pages")
} catch let error as PDFEditError {
    // The message `pdfedit` itself would give; the exit code is this program's
    // choice (the library's errors carry what went wrong, not a process status).
    FileHandle.standardError.write(Data("reorder-example: \(error.description)\n".utf8))
    if case .engine(.missing) = error { exit(66) }
    exit(1)
} catch {
    FileHandle.standardError.write(Data("reorder-example: \(error)\n".utf8))
    exit(1)
}
