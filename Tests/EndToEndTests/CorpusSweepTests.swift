import Foundation
import Testing

/// Every file of `../shared/corpus` and every fixture goes through what a user does
/// with it: `open`, a reorder with a duplicate and a removal, `export`, and
/// `export --split`. The outcome of each file is asserted from what is known about
/// it (MANIFEST.tsv, Fixtures/fixtures.json), not just "did not crash":
///
/// - a file neither qpdf nor poppler can open (pages "-"), a page-tree loop, a
///   zero-byte file, something that is not a PDF: refused with 65 and one
///   `pdfedit:` line naming it (and "loop" for the loop), no session, no output;
/// - a file with a user password: refused (77, "password") without it, and
///   usable with `--password`;
/// - every other file works: the output has the expected page count, each page
///   renders like the source page it came from (pdftoppm, gray, longer side
///   120 px, mean difference ≤ 1/255), and passes `qpdf --check` by this rule:
///   exit 0; or exit 3 (warnings) only when the source itself has warnings
///   (MANIFEST `qpdf_check` = warnings) and every warning message of the output
///   (without file name and place) is one that `qpdf --check` gives for the source
///   or for qpdf's own rewrite of it (`qpdf --object-streams=generate`), i.e. a
///   problem carried over from the source that qpdf itself would carry over too.
///   Fixtures are clean: their outputs must pass with exit 0.
@Suite struct CorpusSweepTests {
    /// What must happen to one input file.
    enum Expectation: Sendable, CustomStringConvertible {
        /// Refused (65) by open, direct export and info; the message contains `reason` when given.
        case refused(reason: String?)
        /// Refused (77, "password") without the password; works with it.
        case needsPassword(String, pages: Int)
        case works(pages: Int)

        var description: String {
            switch self {
            case .refused(let reason): "refused (65\(reason.map { ", \"\($0)\"" } ?? ""))"
            case .needsPassword(_, let pages): "needs its password, then \(pages) pages"
            case .works(let pages): "works, \(pages) pages"
            }
        }
    }

    /// One file of the sweep.
    struct Input: CustomTestStringConvertible, Sendable {
        var path: String
        var expectation: Expectation
        /// The MANIFEST's `qpdf_check` of the source; "ok" for fixtures.
        var sourceCheck: String
        var testDescription: String { "\((path as NSString).lastPathComponent): \(expectation)" }
    }

    static func corpusInputs() -> [Input] {
        CorpusEntry.load().map { entry in
            let expectation: Expectation
            if entry.features.contains("page-tree-loop") {
                expectation = .refused(reason: "loop")
            } else if let pages = entry.pages, let password = entry.userPassword {
                expectation = .needsPassword(password, pages: pages)
            } else if let pages = entry.pages {
                expectation = .works(pages: pages)
            } else {
                expectation = .refused(reason: nil)
            }
            return Input(path: entry.path, expectation: expectation, sourceCheck: entry.qpdfCheck)
        }
    }

    /// Every fixture described by `Fixtures/fixtures.json`: broken ones refused, the
    /// encrypted one needing its user password, the rest (PDFs and images) working.
    static func fixtureInputs() -> [Input] {
        guard let data = FileManager.default.contents(atPath: Paths.fixture("fixtures.json")),
            let facts = (try? JSONSerialization.jsonObject(with: data)) as? [String: [String: Any]]
        else { return [] }
        return facts.keys.sorted().map { name in
            let fact = facts[name] ?? [:]
            let pages = fact["page_count"] as? Int ?? 1
            let expectation: Expectation
            if fact["broken"] as? Bool == true {
                expectation = .refused(reason: nil)
            } else if let password = fact["user_password"] as? String, !password.isEmpty {
                expectation = .needsPassword(password, pages: pages)
            } else {
                expectation = .works(pages: pages)
            }
            return Input(path: Paths.fixture(name), expectation: expectation, sourceCheck: "ok")
        }
    }

    @Test(
        "a corpus file is either exported correctly or refused cleanly, as MANIFEST.tsv says",
        .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent (a fresh clone): the corpus sweep needs it"),
        arguments: corpusInputs())
    func corpusFile(_ input: Input) throws {
        try sweep(input)
    }

    @Test("a fixture is either exported correctly or refused cleanly", arguments: fixtureInputs())
    func fixture(_ input: Input) throws {
        try sweep(input)
    }

    @Test("the corpus has the outcomes the sweep expects", .enabled(if: Paths.corpusAvailable, "../shared/corpus is absent"))
    func corpusOutcomesAreKnown() {
        let inputs = Self.corpusInputs()
        #expect(inputs.count == 39)
        let refused = inputs.filter { if case .refused = $0.expectation { true } else { false } }
        #expect(refused.count == 5, "\(refused.map(\.testDescription))")
        #expect(inputs.filter { if case .needsPassword = $0.expectation { true } else { false } }.count == 1)
    }

    // MARK: The sweep

    func sweep(_ input: Input) throws {
        // Whatever happens, the input stays byte-identical.
        let before = FileManager.default.contents(atPath: input.path)
        defer {
            #expect(FileManager.default.contents(atPath: input.path) == before, "\(input.path) was modified")
        }
        switch input.expectation {
        case .refused(let reason):
            try expectRefused(input.path, reason: reason)
        case .needsPassword(let password, let pages):
            try expectRefused(input.path, reason: "password", code: 77)
            try expectWorks(input, pages: pages, password: password)
        case .works(let pages):
            try expectWorks(input, pages: pages, password: nil)
        }
    }

    /// 65 (77 for a password) from `open`, `export --from` and `info`, one clear
    /// line naming the file, and nothing written.
    func expectRefused(_ path: String, reason: String?, code: Int32 = 65) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = (path as NSString).lastPathComponent
        let attempts = [["open", path], ["export", "out.pdf", "--from", path], ["info", path, "--no-text"]]
        for arguments in attempts {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(arguments): \(Reliability.stderrProblem(result) ?? "")")
            let message = result.stderrLines.last ?? ""
            #expect(message.contains(name), "\(arguments): the message does not name the file: \(message)")
            if let reason {
                #expect(message.lowercased().contains(reason), "\(arguments): expected \"\(reason)\" in: \(message)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".pdfedit/session.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        #expect(Reliability.temporaries(in: dir).isEmpty)
    }

    /// open, duplicate 1, move last --to 1, remove 2 (the order becomes n, 1, 2, …,
    /// n-1), export and split; outputs checked by qpdf and pdftoppm.
    func expectWorks(_ input: Input, pages: Int, password: String?) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let passwordArguments = password.map { ["--password", $0] } ?? []
        func step(_ arguments: [String]) throws -> Run {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Reliability.stderrProblem(result) == nil, "\(arguments): \(Reliability.stderrProblem(result) ?? "")")
            return result
        }
        guard try step(["open", input.path] + passwordArguments).status == 0 else { return }
        for edit in [["duplicate", "1"], ["move", "last", "--to", "1"], ["remove", "2"]] {
            guard try step(edit).status == 0 else { return }
        }
        // Output position k shows source page origin[k - 1].
        let origin = [pages] + Array(1..<pages)
        let listing = try pdfedit(args: ["list", "--json"] + passwordArguments, in: dir)
        if let object = try? JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any],
            let items = object["items"] as? [[String: Any]]
        {
            #expect(items.count == pages)
            // An image is one image item, which has no source page.
            if items.allSatisfy({ $0["kind"] as? String == "image" }) {
                #expect(items.count == 1)
            } else {
                #expect(items.compactMap { $0["sourcePage"] as? Int } == origin)
            }
        } else {
            Issue.record("list --json: \(listing.stdout.prefix(200)) \(listing.stderr)")
        }

        let out = dir.appendingPathComponent("out.pdf").path
        guard try step(["export", "out.pdf"] + passwordArguments).status == 0 else { return }
        #expect(try qpdfPageCount(out) == pages)
        try expectCheckPasses(out, input: input, password: password)
        // Images have no page to compare with: their conversion is ImageImportTests' job.
        let renderable = input.path.lowercased().hasSuffix(".pdf")
        let sampled = renderable ? Array(Set([1, 2, pages].filter { $0 <= pages })).sorted() : []
        for position in sampled {
            try expectSameLook(out, page: position, as: input.path, page: origin[position - 1], password: password)
        }

        let parts = dir.appendingPathComponent("parts")
        guard try step(["export", "--split", "parts"] + passwordArguments).status == 0 else { return }
        let names = try FileManager.default.contentsOfDirectory(atPath: parts.path).sorted()
        #expect(names.count == pages && names.allSatisfy { !$0.hasPrefix(".") && $0.hasSuffix(".pdf") }, "\(names.prefix(5))")
        for index in Array(Set([0, names.count - 1])).sorted() where names.indices.contains(index) {
            let part = parts.appendingPathComponent(names[index]).path
            #expect(try qpdfPageCount(part) == 1, "\(names[index])")
            try expectCheckPasses(part, input: input, password: password)
            if renderable {
                try expectSameLook(part, page: 1, as: input.path, page: origin[index], password: password)
            }
        }
        #expect(Reliability.temporaries(in: dir).isEmpty)
        #expect(Reliability.temporaries(in: parts).isEmpty)
    }

    /// The qpdf --check rule described on the suite.
    func expectCheckPasses(_ output: String, input: Input, password: String?) throws {
        let checked = try Reliability.qpdfWarningMessages(output)
        if checked.status == 0 { return }
        guard checked.status == 3, input.sourceCheck == "warnings" else {
            Issue.record("qpdf --check \(output): exit \(checked.status) \(checked.messages.sorted()) (source: \(input.sourceCheck))")
            return
        }
        var reference = try Reliability.qpdfWarningMessages(input.path, password: password).messages
        let rewrite = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: rewrite) }
        let rewritten = rewrite.appendingPathComponent("qpdf.pdf").path
        var arguments = ["--object-streams=generate", "--decrypt", input.path, rewritten]
        if let password { arguments.insert("--password=\(password)", at: 0) }
        try run("qpdf", arguments)
        reference.formUnion(try Reliability.qpdfWarningMessages(rewritten).messages)
        let new = checked.messages.subtracting(reference)
        #expect(new.isEmpty, "\(output): warnings the source does not have: \(new.sorted())")
    }

    /// Page `page` of `output` renders like page `sourcePage` of `source`.
    func expectSameLook(_ output: String, page: Int, as source: String, page sourcePage: Int, password: String?) throws {
        let rendered = try Reliability.render(output, page: page, size: 120)
        let original = try Reliability.render(source, page: sourcePage, size: 120, password: password)
        let difference = rendered.meanDifference(to: original)
        #expect(
            difference.map { $0 <= 1.0 } == true,
            "\(output) page \(page) vs \(source) page \(sourcePage): \(rendered.width)x\(rendered.height) vs \(original.width)x\(original.height), mean difference \(difference.map { String($0) } ?? "size differs")")
    }
}
