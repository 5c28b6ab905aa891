import PageModel

extension PageSelection {
    /// Both selections, one after the other: `.pages(1...2) + .last` selects what
    /// `1..2,last` does on the command line.
    public static func + (first: PageSelection, second: PageSelection) -> PageSelection {
        .joined(first, second)
    }
}
