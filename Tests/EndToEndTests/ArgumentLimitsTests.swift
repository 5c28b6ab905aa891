import Foundation
import Testing

/// Issue 13, items 16, 19 and 27: counts, sizes, environment values, session
/// fields and image files over a documented limit are refused with 64 (an
/// argument) or 65 (an input) before any allocation; none ends the process with
/// a signal. Hostile inputs are made here, in a temporary folder.
@Suite struct ArgumentLimitsTests {
    // MARK: Item counts (16)

    @Test("blank and placeholder --count over the item limit: 64 naming --count and the limit, nothing allocated")
    func hugeCountsAreRefused() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        for command in ["blank", "placeholder"] {
            for count in ["9223372036854775807", "4000000", "1000000"] {
                let result = try pdfedit(command, "--count", count, in: dir)
                #expect(result.status == 64, "\(command) --count \(count): \(result.stderr)")
                #expect(result.stderrLines.count == 1)
                #expect(result.stderr.hasPrefix("pdfedit: --count \(count) is over the limit"))
                #expect(result.stderr.contains("1000000 items") && result.stderr.contains("PDFEDIT_MAX_ITEMS"))
            }
        }
        #expect(try sessionBytes(dir) == before)
        // Up to the limit is fine (alpha.pdf has 7 pages).
        let fits = try pdfedit("blank", "--count", "3", in: dir, environment: ["PDFEDIT_MAX_ITEMS": "10"])
        #expect(fits.status == 0, "\(fits.stderr)")
        let over = try pdfedit("blank", in: dir, environment: ["PDFEDIT_MAX_ITEMS": "10"])
        #expect(over.status == 64 && over.stderr.contains("limit: a document holds at most 10 items"), "\(over.stderr)")
    }

    @Test("any edit that would pass the item limit (duplicate, copy, run) is refused with 64")
    func everyWayOfAddingItemsIsBounded() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let before = try sessionBytes(dir)
        let limit = ["PDFEDIT_MAX_ITEMS": "10"]
        let script = dir.appendingPathComponent("edits.txt")
        try "duplicate 1..3\nduplicate 1..3\n".write(to: script, atomically: true, encoding: .utf8)
        for arguments in [["duplicate", "all"], ["copy", "1..4", "--to", "1"], ["run", script.path]] {
            let result = try pdfedit(args: arguments, in: dir, environment: limit)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("over the limit of 10 items per document (PDFEDIT_MAX_ITEMS)"), "\(result.stderr)")
        }
        #expect(try sessionBytes(dir) == before)
    }

    @Test("a PDFEDIT_MAX_* value that is not a whole number from 1 to its ceiling: 64 naming the variable")
    func badLimitVariables() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        for (name, value, ceiling) in [
            ("PDFEDIT_MAX_ITEMS", "abc", "10000000"), ("PDFEDIT_MAX_PIXELS", "-1", "1073741824"),
            ("PDFEDIT_MAX_ITEMS", "0", "10000000"), ("PDFEDIT_MAX_PIXELS", "99999999999999999999", "1073741824"),
            // Over the ceiling: a depth of 10^8 let qpdf recurse until the stack
            // overflowed (SIGSEGV), as if there were no limit.
            ("PDFEDIT_MAX_DEPTH", "100000000", "2048"), ("PDFEDIT_MAX_STREAM_BYTES", "8589934592", "4294967296"),
            ("PDFEDIT_MAX_ITEMS", "10000001", "10000000"),
        ] {
            let result = try pdfedit("blank", in: dir, environment: [name: value])
            #expect(result.status == 64, "\(name)=\(value): \(result.stderr)")
            #expect(result.stderr == "pdfedit: \(name)=\(value): must be a whole number from 1 to \(ceiling)\n")
        }
        // The ceiling itself is accepted.
        try pdfeditOK("blank", in: dir, environment: ["PDFEDIT_MAX_DEPTH": "2048"])
    }

    @Test("a page-label tree deeper than the depth ceiling is refused (65), never a stack overflow")
    func deepLabelTreeAtTheCeiling() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A /PageLabels number tree nested 3,000 levels deep: each node's only kid
        // is the next node; the last holds the label.
        let depth = 3_000
        var objects: [Int: String] = [1: "<< /Type /Catalog /Pages 2 0 R /PageLabels 4 0 R >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", 3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"]
        for level in 0..<depth {
            let number = 4 + level
            objects[number] = level == depth - 1
                ? "<< /Limits [0 0] /Nums [0 << /S /D /St 7 >>] >>"
                : "<< /Limits [0 0] /Kids [\(number + 1) 0 R] >>"
        }
        try LimitsTests.writePDF(objects, to: dir.appendingPathComponent("deep-labels.pdf").path)
        for value in ["2048", "100000000"] {
            let result = try pdfedit("info", "deep-labels.pdf", in: dir, environment: ["PDFEDIT_MAX_DEPTH": value])
            #expect(result.status == (value == "2048" ? 65 : 64), "\(value): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("pdfedit: "), "\(result.stderr)")
        }
    }

    // MARK: Session fields (16)

    /// The session with one top-level integer field replaced.
    static func setField(_ field: String, to value: String, in dir: URL) throws {
        let url = dir.appendingPathComponent(".pdfedit/session.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "\"\(field)\" : [0-9]+")
        let range = NSRange(text.startIndex..., in: text)
        #expect(pattern.numberOfMatches(in: text, range: range) == 1)
        let edited = pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "\"\(field)\" : \(value)")
        try edited.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("id counters of 2^63-1 in session.json: 65 naming the file and the field, never a trap")
    func hugeCountersAreRefusedWhenRead() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("edits.txt")
        try "duplicate 1\n".write(to: script, atomically: true, encoding: .utf8)
        let edits: [[String]] = [
            ["duplicate", "1"], ["blank"], ["copy", "1", "--to", "1"], ["placeholder"], ["run", script.path],
            ["insert", "beta.pdf"],
        ]
        for field in ["nextItemNumber", "nextSourceNumber"] {
            // `open --force` leaves a damaged session for the user (Safety rules): start afresh.
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(".pdfedit/session.json"))
            try pdfeditOK("open", "alpha.pdf", in: dir)
            try Self.setField(field, to: "9223372036854775807", in: dir)
            for arguments in edits {
                let result = try pdfedit(args: arguments, in: dir)
                #expect(result.status == 65, "\(field), \(arguments): \(result.stderr)")
                #expect(result.stderr.contains("session.json: session file cannot be used"))
                #expect(result.stderr.contains("\(field) is 9223372036854775807, it must be 1 to 9007199254740992"))
            }
        }
    }

    @Test("id counters at their maximum: an edit needing more ids is refused with 64, the session unchanged")
    func exhaustedCountersRefuseEdits() throws {
        let dir = try scratchDirectory(with: "alpha.pdf", "beta.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try Self.setField("nextItemNumber", to: "9007199254740992", in: dir)
        let before = try sessionBytes(dir)
        for arguments in [["duplicate", "1"], ["blank"], ["copy", "1", "--to", "1"], ["placeholder"]] {
            let result = try pdfedit(args: arguments, in: dir)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("cannot hand out 1 more item id"), "\(result.stderr)")
        }
        #expect(try sessionBytes(dir) == before)
        try Self.setField("nextItemNumber", to: "9007199254740000", in: dir)
        try Self.setField("nextSourceNumber", to: "9007199254740992", in: dir)
        let insert = try pdfedit("insert", "beta.pdf", in: dir)
        #expect(insert.status == 64 && insert.stderr.contains("cannot hand out 1 more source id"), "\(insert.stderr)")
    }

    // MARK: Environment (16)

    @Test("PDFEDIT_LOCK_TIMEOUT of nan, -inf, inf, 1e300 or text while locked: 64 naming the variable")
    func badLockTimeouts() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [dir.appendingPathComponent(".pdfedit/session.json.lock").path, "sleep", "5"]
        try holder.run()
        defer { holder.terminate() }
        Thread.sleep(forTimeInterval: 0.3)
        for value in ["nan", "-inf", "inf", "1e300", "-1", "soon"] {
            let result = try pdfedit("blank", in: dir, environment: ["PDFEDIT_LOCK_TIMEOUT": value])
            #expect(result.status == 64, "\(value): \(result.stderr)")
            #expect(
                result.stderr == "pdfedit: PDFEDIT_LOCK_TIMEOUT=\(value): must be a number of seconds from 0 to 86400\n")
        }
        let waits = try pdfedit("blank", in: dir, environment: ["PDFEDIT_LOCK_TIMEOUT": "0.2"])
        #expect(waits.status == 75, "\(waits.stderr)")
    }

    // MARK: Contact sheets (16, 27)

    @Test("show with a sheet over PDFEDIT_MAX_PIXELS or 32767 pixels a side: 64 up front, nothing rendered")
    func oversizedSheetsAreRefusedUpFront() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("blank", "--count", "493", in: dir)
        let started = Date()
        let big = try pdfedit("show", "-o", "sheet.png", "--size", "4000", in: dir)
        #expect(big.status == 64, "\(big.stderr)")
        #expect(big.stderr.contains("--size 4000 with 48 per sheet"), "\(big.stderr)")
        #expect(big.stderr.contains("= 969865200 pixels, over the limit of 268435456 (PDFEDIT_MAX_PIXELS)"))
        let many = try pdfedit("show", "-o", "sheet.png", "--size", "1200", "--per-sheet", "500", in: dir)
        #expect(many.status == 64, "\(many.stderr)")
        #expect(many.stderr.contains("over the limit of 268435456"), "\(many.stderr)")
        let tall = try pdfedit(
            "show", "-o", "sheet.png", "--size", "1200", "--per-sheet", "500", in: dir,
            environment: ["PDFEDIT_MAX_PIXELS": "1073741824"])
        #expect(tall.status == 64 && tall.stderr.contains("over the 32767 pixels a side can have"), "\(tall.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!files.contains { $0.hasPrefix("sheet") }, "\(files)")
    }

    // MARK: Image files (19)

    /// Writes hostile images into `dir` with Python's zlib: PNGs whose data is cut
    /// short, is not a zlib stream, has a row filter 9, or declares 100000x100000
    /// (or 20000x20000, over 2^28) pixels; a JPEG declaring 65535x65535.
    static func makeBadImages(in dir: URL) throws {
        let script = """
            import zlib, struct, sys
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            def png(w, h, ct, data):
                ihdr = struct.pack('>IIBBBBB', w, h, 8, ct, 0, 0, 0)
                return b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', data) + chunk(b'IEND', b'')
            rows = b''.join(b'\\x00' + b'\\x80\\x40\\x20\\xff' * 4 for _ in range(4))
            out = sys.argv[1] + '/'
            open(out + 'good.png', 'wb').write(png(4, 4, 6, zlib.compress(rows)))
            open(out + 'short.png', 'wb').write(png(4, 4, 6, zlib.compress(rows[:len(rows) // 2])))
            open(out + 'gray-short.png', 'wb').write(png(4, 4, 0, zlib.compress(b'\\x00\\x80\\x80')))
            open(out + 'badzlib.png', 'wb').write(png(4, 4, 6, b'\\x78\\x9c\\xff\\xff\\xff\\xff not zlib'))
            open(out + 'badfilter.png', 'wb').write(png(4, 4, 6, zlib.compress(rows.replace(b'\\x00\\x80', b'\\x09\\x80'))))
            open(out + 'huge.png', 'wb').write(png(100000, 100000, 2, zlib.compress(b'\\x00' * 100)))
            open(out + 'pixels.png', 'wb').write(png(20000, 20000, 0, zlib.compress(b'\\x00' * 100)))
            sof = b'\\xff\\xc0' + struct.pack('>HBHHB', 11, 8, 65535, 65535, 1) + b'\\x01\\x11\\x00'
            dqt = b'\\xff\\xdb' + struct.pack('>H', 67) + b'\\x00' + bytes([1] * 64)
            dht = b'\\xff\\xc4' + struct.pack('>H', 20) + b'\\x00' + bytes([1] + [0] * 15) + b'\\x00'
            sos = b'\\xff\\xda' + struct.pack('>HB', 8, 1) + b'\\x01\\x00\\x00\\x3f\\x00'
            open(out + 'big.jpg', 'wb').write(b'\\xff\\xd8' + dqt + sof + dht + sos + b'\\x00\\x00\\xff\\xd9')
            """
        let made = try run("python3", ["-c", script, dir.path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    static let corrupt = [
        "short.png": "truncated or corrupt image data", "gray-short.png": "truncated or corrupt image data",
        "badzlib.png": "corrupt image data", "badfilter.png": "unknown scanline filter 9",
    ]
    static let oversized = [
        "huge.png": "an image of 100000 x 100000 pixels (at most 65500 on a side)",
        "big.jpg": "an image of 65535 x 65535 pixels (at most 65500 on a side)",
        "pixels.png": "an image of 20000 x 20000 pixels (limit 268435456 pixels, PDFEDIT_MAX_PIXELS)",
    ]

    @Test("corrupt or oversized images are refused by session insert, fill and stamp (65); export keeps working")
    func badImagesNeverEnterASession() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.makeBadImages(in: dir)
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("placeholder", in: dir)
        let before = try sessionBytes(dir)
        for (file, reason) in Self.corrupt.merging(Self.oversized, uniquingKeysWith: { first, _ in first }) {
            for arguments in [["insert", file], ["fill", "8", file], ["stamp", "1", file]] {
                let result = try pdfedit(args: arguments, in: dir)
                #expect(result.status == 65, "\(arguments): \(result.stderr)")
                #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("pdfedit: \(file): "))
                #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            }
        }
        #expect(try sessionBytes(dir) == before)
        try pdfeditOK("remove", "8", in: dir)
        try pdfeditOK("insert", "good.png", in: dir)
        let export = try pdfedit("export", "out.pdf", in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try run("qpdf", ["--check", dir.appendingPathComponent("out.pdf").path]).status == 0)
        let pixels = try pdfedit("insert", "good.png", in: dir, environment: ["PDFEDIT_MAX_PIXELS": "15"])
        #expect(pixels.status == 65)
        #expect(pixels.stderr == "pdfedit: good.png: over a limit: an image of 4 x 4 pixels (limit 15 pixels, PDFEDIT_MAX_PIXELS)\n")
    }

    @Test("direct mode refuses the same images with the same messages")
    func directModeAgrees() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.makeBadImages(in: dir)
        for (file, reason) in Self.corrupt.merging(Self.oversized, uniquingKeysWith: { first, _ in first }) {
            let result = try pdfedit("insert", file, "alpha.pdf", "-o", "out.pdf", in: dir)
            #expect(result.status == 65, "\(file): \(result.stderr)")
            #expect(result.stderr.contains(reason), "\(file): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
        }
    }

    @Test("an 8000x8000 RGBA PNG under a memory limit (ulimit -v): an error, never a signal")
    func imagesUnderAMemoryLimit() throws {
        let dir = try scratchDirectory(with: "alpha.pdf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            import zlib, struct, sys
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            w = h = 8000
            c = zlib.compressobj(1)
            row = b'\\x00' + b'\\x10\\x20\\x30\\xff' * w
            data = b''.join(c.compress(row) for _ in range(h)) + c.flush()
            ihdr = struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)
            png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', data) + chunk(b'IEND', b'')
            open(sys.argv[1], 'wb').write(png)
            """
        #expect(try run("python3", ["-c", script, dir.appendingPathComponent("rgba.png").path]).status == 0)
        try pdfeditOK("open", "alpha.pdf", in: dir)
        try pdfeditOK("insert", "rgba.png", in: dir)
        // Around these limits (KiB) decoding the image for an export or an insert
        // used to copy to NULL (SIGSEGV) or fail a Swift array allocation
        // (SIGABRT); the long run sweeps a wider range.
        let limits =
            ProcessInfo.processInfo.environment["PDFEDIT_LONG_TESTS"] == "1"
            ? Array(stride(from: 200_000, through: 1_000_000, by: 20_000)) : [560_000, 600_000]
        let cache = dir.appendingPathComponent(".pdfedit/cache")
        for limit in limits {
            for command in ["export out.pdf --force", "insert rgba.png"] {
                try? FileManager.default.removeItem(at: cache)  // the image is decoded again
                let result = try run(
                    "/bin/sh", ["-c", "ulimit -v \(limit) && exec \"$0\" \(command)", Paths.binary], in: dir)
                // 0: it fitted; 65: refused for lack of memory; 1: qpdf's bad_alloc, reported.
                #expect(
                    [0, 1, 65].contains(result.status),
                    "ulimit -v \(limit), \(command): \(result.status) \(result.stderr.prefix(300))")
                #expect(
                    result.stderr.isEmpty || result.stderr.hasPrefix("pdfedit: "),
                    "ulimit -v \(limit), \(command): \(result.stderr.prefix(300))")
            }
        }
    }
}
