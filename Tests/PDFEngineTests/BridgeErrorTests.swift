import Foundation
import QPDFCore
import Testing

@testable import PDFEngine

/// The one mapping from a failed bridge call to an `EngineError`, for an input
/// opened or read (`OpenedPDF`) and for an export's sources and output.
@Suite struct BridgeErrorTests {
    func status(_ code: Int32, _ message: String, page: Int32 = 0, pageCount: Int32 = 0) -> pe_status {
        var status = pe_status()
        status.code = code
        status.page = page
        status.page_count = pageCount
        withUnsafeMutableBytes(of: &status.message) { bytes in
            for (index, byte) in message.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        return status
    }

    @Test func readingAnInput() {
        let input = BridgeFailure(file: "in.pdf")
        #expect(EngineError(status: status(Int32(PE_E_PASSWORD), "invalid password"), about: input)
            == .password(file: "in.pdf", given: true))
        #expect(EngineError(status: status(Int32(PE_E_DAMAGED), "no trailer"), about: input)
            == .damaged(file: "in.pdf", page: nil, detail: "no trailer"))
        #expect(EngineError(status: status(Int32(PE_E_PAGES), "the page tree is nested more than 9 levels deep"), about: input)
            == .unsupported(file: "in.pdf", page: nil, detail: "the page tree is nested more than 9 levels deep"))
        #expect(EngineError(status: status(Int32(PE_E_PAGES), "over a limit: its outline is nested"), about: input)
            == .overLimit(file: "in.pdf", page: nil, what: "its outline is nested"))
        #expect(EngineError(status: status(Int32(PE_E_SYSTEM), "Permission denied"), about: input)
            == .unreadable(file: "in.pdf", reason: "Permission denied"))
        #expect(EngineError(status: status(Int32(PE_E_INTERNAL), "odd"), about: input)
            == .library(file: "in.pdf", message: "odd"))
    }

    /// Memory that ran out is said to be memory (71), for an input as for an
    /// output, never the file's fault (65), an unwritable output (73) or a
    /// missing library (issue 40 item 18: 65 and 73 at random under `ulimit -v`).
    @Test func outOfMemoryIsItsOwnError() {
        for failure in [BridgeFailure(file: "in.pdf"), BridgeFailure(file: "out.pdf", isOutput: true)] {
            #expect(EngineError(status: status(Int32(PE_E_SYSTEM), "out of memory"), about: failure)
                == .outOfMemory(file: failure.file))
            #expect(EngineError(status: status(Int32(PE_E_SYSTEM), "write: Cannot allocate memory"), about: failure)
                == .outOfMemory(file: failure.file))
        }
        #expect(EngineError.opening("in.pdf", errno: ENOMEM) == .outOfMemory(file: "in.pdf"))
    }

    @Test func exportingSourcesAndOutput() {
        let source = BridgeFailure(
            file: "/no/such.pdf", passwordGiven: false, internalIsDamage: true, checksInput: true)
        #expect(EngineError(status: status(Int32(PE_E_PASSWORD), "x"), about: source)
            == .password(file: "/no/such.pdf", given: false))
        #expect(EngineError(status: status(Int32(PE_E_SYSTEM), "x"), about: source) == .missing(file: "/no/such.pdf"))
        #expect(EngineError(status: status(Int32(PE_E_INTERNAL), "max object id", page: 2), about: source)
            == .damaged(file: "/no/such.pdf", page: 2, detail: "max object id"))
        #expect(EngineError(status: status(Int32(PE_E_PLAN), "x", page: 9, pageCount: 7), about: source)
            == .pageOutOfRange(file: "/no/such.pdf", page: 9, pageCount: 7))
        let output = BridgeFailure(file: "out.pdf", isOutput: true, internalIsDamage: true)
        #expect(EngineError(status: status(Int32(PE_E_SYSTEM), "No space left on device"), about: output)
            == .cannotWrite(file: "out.pdf", reason: "No space left on device"))
        #expect(EngineError(status: status(Int32(PE_E_INTERNAL), "odd"), about: output)
            == .library(file: "out.pdf", message: "odd"))
    }
}
