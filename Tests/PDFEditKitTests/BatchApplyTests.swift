import Foundation
import PDFEditKit
import Testing

/// `BatchApply` as a library client uses it: the template, the checks made
/// before anything is written, and a real batch on two threads whose outputs
/// are checked with qpdf and poppler.
@Suite(.enabled(if: KitFixtures.has("alpha.pdf"), "needs Fixtures/alpha.pdf"))
struct BatchApplyTests {
    @Test func templateFillsEveryField() throws {
        let template = try OutputTemplate("{dir}/out/{n}-{stem}.x/{name}")
        #expect(template.path(for: "in/sub/a.b.pdf", number: 12) == "in/sub/out/12-a.b.x/a.b.pdf")
        #expect(template.path(for: "a.pdf", number: 1) == "./out/1-a.x/a.pdf")
        #expect(template.path(for: "/abs/c", number: 3) == "/abs/out/3-c.x/c")
    }

    @Test(arguments: ["out/{nam}", "out/{name", "", "{N}"])
    func templateRefusesWhatItCannotFill(_ text: String) {
        #expect(throws: PDFEditError.self) { try OutputTemplate(text) }
        do {
            _ = try OutputTemplate(text)
        } catch {
            #expect(error.exitCode == 64)
        }
    }

    @Test func collisionsAndInputsAreRefusedTogether() throws {
        let scratch = try KitScratch()
        let a = scratch.path("a/x.pdf")
        let b = scratch.path("b/x.pdf")
        let batch = BatchApply(
            files: [a, b, scratch.path("c.pdf")], steps: [], script: "test",
            destination: .template(try OutputTemplate(scratch.path("{name}"))), passwords: PasswordBook())
        do {
            _ = try batch.plannedOutputs()
            Issue.record("a collision was accepted")
        } catch {
            #expect(error.exitCode == 64)
            #expect(error.lines.count == 2)
            #expect(error.lines[0].contains(a) && error.lines[0].contains(b))
            #expect(error.lines[1].contains("would replace its input"))
        }
        var inPlace = batch
        inPlace.destination = .inPlace
        #expect(try inPlace.plannedOutputs() == batch.files)
        inPlace.files.append(a)
        #expect(throws: PDFEditError.self) { try inPlace.plannedOutputs() }
    }

    @Test func appliesTheStepsToEachFileOnTwoThreads() throws {
        let scratch = try KitScratch()
        let files = (1...4).map { scratch.path("in/f\($0).pdf") }
        try FileManager.default.createDirectory(atPath: scratch.path("in"), withIntermediateDirectories: true)
        for file in files { try FileManager.default.copyItem(atPath: KitFixtures.path("alpha.pdf"), toPath: file) }
        let steps = [
            ScriptStep(line: 1, edit: .rotate(try PageSelection.parse("1"), quarterTurns: 1), doc: nil),
            ScriptStep(line: 2, edit: .remove(try PageSelection.parse("2")), doc: nil),
        ]
        var batch = BatchApply(
            files: files, steps: steps, script: "kit",
            destination: .template(try OutputTemplate(scratch.path("out/{n}/{name}"))), passwords: PasswordBook())
        batch.jobs = 2
        let reported = ReportedFiles()
        let summary = try batch.run { reported.append($0.file) }
        #expect(summary.exitCode == 0)
        #expect(reported.files == files)
        #expect(summary.results.map(\.status) == Array(repeating: .ok, count: 4))
        for number in 1...4 {
            let output = scratch.path("out/\(number)/f\(number).pdf")
            #expect(summary.results[number - 1].output == output)
            #expect(summary.results[number - 1].pages == 6)
            #expect(try KitTools.qpdfCheck(output))
            #expect(try KitTools.rotation(output, page: 1) == 90)
            #expect(try KitTools.tokens(output) == KitAPITests.alpha.filter { $0 != "ALPHA-P2" })
        }
        // A second batch of the same process, after the output folders were removed,
        // makes them again (nothing remembered from the first batch).
        try FileManager.default.removeItem(atPath: scratch.path("out"))
        let again = try batch.run { _ in }
        #expect(again.exitCode == 0)
        #expect(try KitTools.qpdfCheck(scratch.path("out/4/f4.pdf")))
    }

    @Test func aFailingStepStopsTheBatchAndNamesItsLine() throws {
        let scratch = try KitScratch()
        let files = [KitFixtures.path("alpha.pdf"), KitFixtures.path("beta.pdf")]
        let steps = [ScriptStep(line: 3, edit: .remove(try PageSelection.parse("40")), doc: nil)]
        var batch = BatchApply(
            files: files, steps: steps, script: "fix.txt",
            destination: .template(try OutputTemplate(scratch.path("{name}"))), passwords: PasswordBook())
        batch.jobs = 1
        let summary = try batch.run { _ in }
        #expect(summary.exitCode == 64)
        #expect(summary.results.map(\.status) == [.failed, .notStarted])
        #expect(summary.results[0].message?.hasPrefix("fix.txt:3: ") == true)
        #expect(summary.results[1].exitCode == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}

/// The files a batch reported, in the order it reported them.
private final class ReportedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func append(_ name: String) { lock.withLock { names.append(name) } }
    var files: [String] { lock.withLock { names } }
}
