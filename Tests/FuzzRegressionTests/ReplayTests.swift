import Foundation
import ReckonFuzzTargets
import Testing

/// Every seed of the fuzz corpus, and every input the fuzzer ever found a problem with
/// (fuzz/regressions), goes through its target again: a target stops the process if an
/// invariant breaks, so a regression fails the run.
@Suite struct ReplayTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func inputs(_ folder: String, _ target: String) -> [URL] {
    let url = root.appendingPathComponent("fuzz/\(folder)/\(target)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.sorted().map { url.appendingPathComponent($0) }
  }

  @Test("the seed corpus and the regressions replay", arguments: FuzzTarget.all.map(\.name))
  func replay(_ name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    let seeds = Self.inputs("corpus", name)
    #expect(!seeds.isEmpty, "fuzz/corpus/\(name) has no seeds")
    for file in seeds + Self.inputs("regressions", name) {
      let bytes = try [UInt8](Data(contentsOf: file))
      Self.onLargeStack { target.run(bytes) }
    }
  }

  /// Runs `body` on a thread with the 64 MiB stack reckon gives its sessions (LargeStack):
  /// 1,000 levels of parentheses take more than a test thread's stack in a debug build.
  static func onLargeStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = 64 << 20
    thread.start()
    done.wait()
  }

  @Test func everyTargetHasACorpusAndADictionaryOrNeedsNone() {
    for target in FuzzTarget.all {
      #expect(!Self.inputs("corpus", target.name).isEmpty, "\(target.name)")
    }
    let run = (try? String(contentsOf: Self.root.appendingPathComponent("fuzz/run"), encoding: .utf8)) ?? ""
    let listed = run.firstMatch(of: /targets="([a-z -]+)"/).map { String($0.1) } ?? ""
    #expect(listed.split(separator: " ").map(String.init) == FuzzTarget.all.map(\.name), "fuzz/run lists the targets")
  }
}
