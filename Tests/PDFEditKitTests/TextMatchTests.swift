@testable import PDFEditKit
import Testing

/// The one rule `find` and `text:` match page text by: NFKC and case folding
/// from GLib (`SearchText`), whitespace runs as one space. The expected values
/// are Unicode's own (the NFKC and full case-folding tables), written out here.
@Suite struct TextMatchTests {
    @Test func caseAndWhitespaceFold() {
        #expect(TextMatch.matches("Hello\n\n  World", "hello world", caseSensitive: false))
        #expect(!TextMatch.matches("Hello\n\n  World", "hello world", caseSensitive: true))
        #expect(TextMatch.matches("Hello\n\n  World", "Hello World", caseSensitive: true))
        #expect(!TextMatch.matches("Hello", "world", caseSensitive: false))
        #expect(!TextMatch.matches("Hello", "   ", caseSensitive: false))
    }

    @Test func compatibilityFormsAndFullCaseFolding() {
        // U+FB03 LATIN SMALL LIGATURE FFI is "ffi" under NFKC, with or without case.
        #expect(TextMatch.matches("The o\u{FB03}cer", "OFFICER", caseSensitive: false))
        #expect(TextMatch.matches("The o\u{FB03}cer", "officer", caseSensitive: true))
        // Full case folding: "ß" folds to "ss" (a simple lower-casing would not match).
        #expect(TextMatch.matches("Straße", "STRASSE", caseSensitive: false))
        #expect(!TextMatch.matches("Straße", "STRASSE", caseSensitive: true))
        // A decomposed "é" (e + U+0301) is the composed one (U+00E9).
        #expect(TextMatch.matches("Caf\u{65}\u{301}", "caf\u{E9}", caseSensitive: false))
        // Fullwidth letters (U+FF21…) are their ASCII forms under NFKC.
        #expect(TextMatch.searchForm("\u{FF21}\u{FF22}  C", caseSensitive: false) == "ab c")
    }

    @Test func excerptFindsTheFoldedMatchInTheShownText() {
        let page = "Intro text. The Stra\u{DF}e is long. " + String(repeating: "x", count: 60)
        let excerpt = TextMatch.excerpt(page, "STRASSE", caseSensitive: false, context: 5)
        #expect(excerpt == "… The Stra\u{DF}e is l…")
        // Not found as written (case-sensitive): the text's start.
        #expect(TextMatch.excerpt("abc def", "ABC", caseSensitive: true, context: 2) == "abc ")
        #expect(TextMatch.excerpt("a \u{FB01}le here", "FILE", caseSensitive: false, context: 2) == "a file h…")
    }
}
