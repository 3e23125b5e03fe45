import Foundation
import Testing

/// scripts/crash-safety against the release binary: 200 `kill -9`s in drills and daily
/// challenges on one database (and 50 while it is first created), each followed by an
/// integrity check and a count of the answers acknowledged on screen; then two and four
/// processes drilling at once on one database, every answer recorded exactly once; then the
/// faults: a data folder blocked at start-up, and a write lock held elsewhere; then random
/// damage of a database of known content, salvaged; and kills during flashcard reviews.
@Suite(.serialized) struct CrashSafetyTests {
  static func runScript(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", ReckonBinary.packageRoot + "/scripts/crash-safety", "--binary", try ReckonBinary.release()]
      + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func twoHundredKillsLoseNothingAcknowledged() throws {
    let run = try Self.runScript([])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(run.output.contains(/integrity checks: +[0-9]+ passed/), "\(run.output.suffix(1500))")
    #expect(run.output.hasSuffix("OK\n"))
  }

  /// A data folder blocked at start-up (cleared mid-round, or Reckon killed while blocked)
  /// and a write lock held by another connection: every answer acknowledged is recorded,
  /// but those of a Reckon killed while nothing could be saved.
  @Test func faultsAtStartAndALockHeldElsewhereLoseNothingSaved() throws {
    let run = try Self.runScript(["--faults", "6"])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(run.output.contains(/blocked at start: +4 cleared mid-round/), "\(run.output.suffix(1500))")
    #expect(run.output.hasSuffix("OK\n"))
  }

  /// 30 random damages of a database of known content (a page zeroed or random, bytes
  /// flipped in the file or its -wal, the file cut, pointers sent elsewhere, a page copied
  /// over another, the header garbled), each run through Reckon, a fifth of them killed
  /// mid-run: every run ends within the hang bound, nothing of a salvage is left beside the
  /// database, and a salvaged one passes its integrity check and holds every original row
  /// sqlite3's .dump reads from the damaged bytes. (`--damage 3000` is the big run.)
  @Test func randomDamageIsSalvagedAndNothingSpins() throws {
    let run = try Self.runScript(["--damage", "30", "--hang-timeout", "60"])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(run.output.contains("damage: 30 damaged copies"), "\(run.output.suffix(1500))")
    #expect(run.output.contains(#/salvaged: [1-9][0-9]* /#), "\(run.output.suffix(1500))")
    #expect(run.output.hasSuffix("OK\n"))
  }

  /// 60 kill -9s during flashcard reviews (typed answers and self-grading) on one database:
  /// every grade acknowledged on screen is saved, in order, and the database is whole.
  @Test func killsDuringFlashcardReviewsLoseNoGrade() throws {
    let run = try Self.runScript(["--cards", "60"])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(
      run.output.contains(/acknowledged grades: [1-9][0-9]*, every one saved, in order/), "\(run.output.suffix(1500))")
    #expect(run.output.hasSuffix("OK\n"))
  }

  /// 40 kill -9s while a trip's expenses are typed: every line acknowledged on screen is
  /// saved, as typed and in order, and the database is whole.
  @Test func killsDuringATripLoseNoLine() throws {
    let run = try Self.runScript(["--trips", "40"])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(
      run.output.contains(/acknowledged lines: [1-9][0-9]*, every one saved, in order/), "\(run.output.suffix(1500))")
    #expect(run.output.hasSuffix("OK\n"))
  }

  @Test(arguments: ["2", "4"])
  func processesAtOnceRecordEveryAnswerOnce(_ processes: String) throws {
    let run = try Self.runScript(["--concurrent", processes, "--rounds", "10"])
    #expect(run.status == 0, "\(run.output.suffix(3000))")
    #expect(run.output.hasSuffix("OK\n"))
  }
}
