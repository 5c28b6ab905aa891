import Glibc

extension PopplerPDF {
    /// Poppler inflates streams and decodes images without bounds: before it reads
    /// or draws page `index`, the bridge checks the page against `limits` (once per
    /// page), so a decompression bomb is refused (`.overLimit`, 65) instead of
    /// taking minutes and gigabytes.
    func checkForReader(page index: Int) throws(EngineError) {
        guard let limits, !checkedPages.contains(index) else { return }
        let opened: OpenedPDF
        if let checker {
            opened = checker
        } else {
            opened = try OpenedPDF(path: path, password: password)
            checker = opened
        }
        pageChecks[index] = try SlowWork.during("measuring page \(index + 1) of \(path)") { () throws(EngineError) in
            try opened.checkForReader(page: index, limits: limits)
        }
        checkedPages.insert(index)
    }

    /// Whether page `index` holds what poppler skips without a word (an image
    /// wider or taller than cairo draws, a stream that cannot be decoded): its
    /// rendering is then not the whole page. False for an unchecked page.
    package func skipsContent(page index: Int) throws(EngineError) -> Bool {
        try checkForReader(page: index)
        return pageChecks[index]?.skipsContent ?? false
    }

    /// Poppler draws an image it cannot allocate memory for as nothing, with no
    /// error anywhere, so a page rendered short of memory came out blank and was
    /// cached. Before drawing, the memory the page's largest image needs (decoded
    /// samples and a cairo surface, about 8 bytes a pixel) is reserved and given
    /// back at once: when even that fails (an address-space limit, `ulimit -v`),
    /// the render fails as a page error — a marked frame and a warning, never cached.
    /// Reserved with mmap, as malloc takes a block this large: a malloc freed
    /// unused is removed by the optimizer, so the release build never asked
    /// (found when the end-to-end tests moved to the release binary).
    func reserveMemoryForImages(page index: Int) throws(EngineError) {
        guard let pixels = pageChecks[index]?.largestImage, pixels > 0 else { return }
        let (bytes, overflow) = pixels.multipliedReportingOverflow(by: 8)
        let probe = overflow ? MAP_FAILED : mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let probe, probe != MAP_FAILED else {
            throw EngineError.damaged(
                file: path, page: index + 1,
                detail: "not enough memory to draw its image of \(pixels) pixels")
        }
        munmap(probe, bytes)
    }
}
