// `floor rotate PAGE --by DEGREES IN -o OUT [--force] [-q]`, parsed by
// swift-argument-parser as pdfedit's commands are.
import ArgumentParser
import FloorEdit

struct Rotate: ParsableCommand {
    @Argument var page: Int
    @Option var by: Int
    @Argument var input: String
    @Option(name: .shortAndLong) var output: String
    @Flag var force = false
    @Flag(name: .shortAndLong) var quiet = false

    func run() throws {
        if let problem = rotatePage(page, by: by, input: input, output: output, force: force) {
            throw ValidationError(problem)
        }
        if !quiet {
            print("wrote \(output)")
        }
    }
}

struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "floor", subcommands: [Rotate.self])
}

Floor.main()
