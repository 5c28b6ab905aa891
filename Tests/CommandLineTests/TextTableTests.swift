import Foundation
import PDFEditKit
import Testing

@testable import pdfedit

/// The text tables `list`, `docs` and `info` print.
@Suite struct TextTableTests {
    @Test("a long label in a row whose last cells are empty is laid out in linear time (issue 40, item 26)")
    func longLabelsAreLinear() {
        let label = String(repeating: "X", count: 400_000)
        let rows = [["1", label, "Page 1"], ["2", "2", ""], ["3", "é", ""]]
        let start = Date()
        let text = table(["POS", "LABEL", "TEXT"], rows)
        // Dropping 400,000 trailing spaces one Character at a time took minutes.
        #expect(Date().timeIntervalSince(start) < 5)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[2] == "2    2")
        #expect(lines[3] == "3    é")
        #expect(lines[1].hasSuffix("X  Page 1"))
    }

    @Test("trailing spaces go, leading ones stay, and characters beyond ASCII are kept whole")
    func trimming() {
        #expect("  * a  ".trimmingTrailingSpaces() == "  * a")
        #expect("    ".trimmingTrailingSpaces() == "")
        #expect("e\u{301} \u{301}  ".trimmingTrailingSpaces() == "e\u{301} \u{301}")
        #expect("中文 ".trimmingTrailingSpaces() == "中文")
    }

    @Test("numbers in tables never trap")
    func hugeNumbers() {
        #expect(format(1e300) == "1e+300")
        #expect(format(-9.223372036854775808e18) == "-9.22337e+18")
        #expect(format(612) == "612")
        #expect(format(595.276) == "595.28")
    }
}
