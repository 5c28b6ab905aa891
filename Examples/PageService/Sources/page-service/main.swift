// page-service: PDF pages edited over HTTP, with PDFEditKit's in-memory editor.
//
//     page-service [PORT]          listens on 127.0.0.1:PORT (default 8080)
//
//     POST /edit?keep=SEL                 only the selected pages, in their order
//     POST /edit?move=SEL&to=N            the selected pages moved to position N
//     POST /edit?rotate=SEL&by=DEG        the selected pages turned
//     POST /edit?remove=SEL               the selected pages removed
//
// The request's body is the PDF; several edits may be given at once (applied in
// the order above). SEL is a pdfedit selection (`3..5`, `last`, `even`,
// `text:Invoice`, …). The answer is the edited PDF (application/pdf), or 400 and
// pdfedit's one-line message when the PDF or the edit is refused.
import Foundation
import Hummingbird
import PDFEditKit

/// The edits a request asks for, applied to `pdf`; the edited PDF's bytes.
func edited(_ pdf: Data, query: [String: String]) throws -> Data {
    var editor = try PageEditor(data: pdf, name: "upload")
    if let moved = query["move"] {
        guard let to = query["to"].flatMap(Int.init) else { throw Refusal("move needs to=N") }
        try editor.move(try PageSelection.parse(moved), to: .position(.number(to)))
    }
    if let turned = query["rotate"] {
        guard let degrees = query["by"].flatMap(Int.init) else { throw Refusal("rotate needs by=DEG") }
        try editor.rotate(try PageSelection.parse(turned), by: degrees)
    }
    if let removed = query["remove"] {
        try editor.remove(try PageSelection.parse(removed))
    }
    let kept = try query["keep"].map { text in try PageSelection.parse(text) }
    return try editor.data(pages: kept)
}

struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 8080 : 8080
let router = Router()
router.post("edit") { request, _ -> Response in
    let body = try await request.body.collect(upTo: 64 << 20)
    let pdf = Data(body.readableBytesView)
    var parameters: [String: String] = [:]
    for (name, value) in request.uri.queryParameters { parameters[String(name)] = String(value) }
    let query = parameters
    do {
        // The editor's work is blocking I/O and CPU: off the server's threads.
        let output = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try edited(pdf, query: query) })
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/pdf"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: output)))
    } catch {
        return Response(
            status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "\(error)\n")))
    }
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
