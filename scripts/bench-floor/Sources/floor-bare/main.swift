// `floor-bare rotate PAGE --by DEGREES IN -o OUT [--force] [-q]`, the same
// command as `floor`'s with the arguments read by hand: no swift-argument-parser,
// no Foundation.
import FloorEdit
import Glibc

func fail(_ message: String, _ code: Int32) -> Never {
    let line = "floor-bare: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

var arguments = CommandLine.arguments.dropFirst()
guard arguments.popFirst() == "rotate" else {
    fail("usage: floor-bare rotate PAGE --by DEGREES IN -o OUT [--force] [-q]", 64)
}
var positional: [String] = []
var degrees: Int?
var output: String?
var force = false
var quiet = false
while let argument = arguments.popFirst() {
    switch argument {
    case "--by":
        degrees = arguments.popFirst().flatMap { Int($0) }
    case "-o", "--output":
        output = arguments.popFirst()
    case "--force":
        force = true
    case "-q", "--quiet":
        quiet = true
    default:
        positional.append(argument)
    }
}
guard positional.count == 2, let page = Int(positional[0]), let degrees, let output else {
    fail("usage: floor-bare rotate PAGE --by DEGREES IN -o OUT [--force] [-q]", 64)
}
if let problem = rotatePage(page, by: degrees, input: positional[1], output: output, force: force) {
    fail(problem, 1)
}
if !quiet {
    print("wrote \(output)")
}
