import Testing

@testable import pdfedit

/// The label `history` shows for a step: the command line as typed, without
/// passwords, and (issue 40, item 43) without what only changes what the run
/// prints or which session it edits.
@Suite struct HistoryLabelTests {
    @Test func outputOptionsAndTheSessionAreLeftOut() {
        #expect(commandLineLabel(["rotate", "2", "--by", "90", "-q"]) == "rotate 2 --by 90")
        #expect(commandLineLabel(["-q", "move", "1", "--to", "3", "--json"]) == "move 1 --to 3")
        #expect(commandLineLabel(["remove", "3", "--session", "s.json", "--quiet"]) == "remove 3")
        #expect(commandLineLabel(["remove", "3", "--session=s.json"]) == "remove 3")
    }

    @Test func passwordsStayRedactedWhateverTheyAre() {
        #expect(commandLineLabel(["fill", "2", "b.pdf", "--password", "-q"]) == "fill 2 b.pdf --password ***")
        #expect(commandLineLabel(["fill", "2", "b.pdf", "--password-for=b.pdf=x"]) == "fill 2 b.pdf --password-for=***")
        #expect(commandLineLabel(["placeholder", "--label", "a b"]) == "placeholder --label \"a b\"")
    }
}
