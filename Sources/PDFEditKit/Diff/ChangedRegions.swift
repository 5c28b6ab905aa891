/// Where two renderings of a page differ: the picture is cut into square
/// cells, a cell differs when some of its pixels differ clearly (a grey step
/// over `pixelStep` — not the shading anti-aliasing leaves), and touching
/// cells (edges or corners) make one region, reported by its bounding box.
package enum ChangedRegions {
    /// A grey difference smaller than this is not a change (anti-aliasing of the same drawing).
    package static let pixelStep = 48
    /// A cell differs when more than this many of its pixels do.
    package static let pixelsPerCell = 1

    /// A box in pixels, from the top-left corner, end exclusive.
    package struct Box: Sendable, Equatable {
        package var x0: Int
        package var y0: Int
        package var x1: Int
        package var y1: Int

        package init(x0: Int, y0: Int, x1: Int, y1: Int) {
            self.x0 = x0
            self.y0 = y0
            self.x1 = x1
            self.y1 = y1
        }
    }

    /// The regions where `a` and `b` (grey pixels, `width` × `height`, row by
    /// row) differ, cut in `cell` × `cell` cells, in reading order of their
    /// first cell; each box is clipped to the picture.
    package static func find(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, cell: Int) -> [Box] {
        guard width > 0, height > 0, cell > 0, a.count == width * height, b.count == a.count else { return [] }
        let columns = (width + cell - 1) / cell
        let rows = (height + cell - 1) / cell
        var differs = [Bool](repeating: false, count: columns * rows)
        var counts = [Int](repeating: 0, count: columns * rows)
        for y in 0..<height {
            let row = y * width
            let cellRow = (y / cell) * columns
            for x in 0..<width where abs(Int(a[row + x]) - Int(b[row + x])) > pixelStep {
                counts[cellRow + x / cell] += 1
            }
        }
        for index in counts.indices where counts[index] > pixelsPerCell { differs[index] = true }
        // Touching cells, grown one region at a time (a stack, never recursion).
        var seen = [Bool](repeating: false, count: differs.count)
        var boxes: [Box] = []
        for start in differs.indices where differs[start] && !seen[start] {
            var box = (x0: Int.max, y0: Int.max, x1: 0, y1: 0)
            var stack = [start]
            seen[start] = true
            while let index = stack.popLast() {
                let (column, row) = (index % columns, index / columns)
                box = (min(box.x0, column), min(box.y0, row), max(box.x1, column), max(box.y1, row))
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (c, r) = (column + dx, row + dy)
                        guard c >= 0, c < columns, r >= 0, r < rows else { continue }
                        let next = r * columns + c
                        if differs[next] && !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            boxes.append(
                Box(
                    x0: box.x0 * cell, y0: box.y0 * cell, x1: min(width, (box.x1 + 1) * cell),
                    y1: min(height, (box.y1 + 1) * cell)))
        }
        return boxes
    }

    /// A `side` × `side` grey picture of `gray` (`width` × `height`), each
    /// target pixel the mean of the pixels it covers, turned back
    /// `quarterTurns` (counter-clockwise) so that pages compare upright.
    package static func thumbnail(_ gray: [UInt8], width: Int, height: Int, side: Int, quarterTurns: Int) -> [UInt8] {
        guard width > 0, height > 0, gray.count == width * height, side > 0 else { return [] }
        var sums = [Int](repeating: 0, count: side * side)
        var counts = [Int](repeating: 0, count: side * side)
        for y in 0..<height {
            let ty = y * side / height
            for x in 0..<width {
                let target = ty * side + x * side / width
                sums[target] += Int(gray[y * width + x])
                counts[target] += 1
            }
        }
        let square = sums.indices.map { counts[$0] == 0 ? UInt8(255) : UInt8(sums[$0] / counts[$0]) }
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return square }
        // Undo a clockwise turn: the upright pixel (x, y) is found where the turn took it.
        var upright = [UInt8](repeating: 255, count: side * side)
        let last = side - 1
        for y in 0..<side {
            for x in 0..<side {
                let (sx, sy): (Int, Int) =
                    switch turns {
                    case 1: (last - y, x)
                    case 2: (last - x, last - y)
                    default: (y, last - x)
                    }
                upright[y * side + x] = square[sy * side + sx]
            }
        }
        return upright
    }
}
