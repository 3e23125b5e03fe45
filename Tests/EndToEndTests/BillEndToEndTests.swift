import Foundation
import SQLite
import Testing

/// The bill through the real binary: a bill file piped in and given as a file, against its
/// transcript; the restaurant bill typed at a terminal; and what it saved.
@Suite struct BillEndToEndTests {
  static let files = ReckonBinary.packageRoot + "/Tests/ReckonSessionTests/Transcripts/files/"

  static func environment(home: String) -> [String: String] {
    ["RECKON_HOME": home, "HOME": home, "TERM": "xterm", "USER": "tester", "PATH": "/usr/bin:/bin"]
  }

  /// dinner.bill piped into the release binary, and given as a file: stdout is
  /// dinner.bill.out, line for line; nothing on stderr; the bill is saved.
  @Test(arguments: [true, false])
  func aBillFileGivesItsTranscript(piped: Bool) throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let bill = try Data(contentsOf: URL(fileURLWithPath: Self.files + "dinner.bill"))
    let expected = try String(contentsOfFile: Self.files + "dinner.bill.out", encoding: .utf8)
    let run = try ReckonProcess.run(
      piped ? [] : [Self.files + "dinner.bill"], input: piped ? bill : nil,
      environment: Self.environment(home: home.path), executable: try ReckonBinary.release())
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout == expected)
    let db = try Database(home.path + "/reckon.sqlite", flags: .readOnly)
    // Every line but the comments and show/settle (which change nothing) is a saved line.
    #expect(try db.value("SELECT count(*) FROM billLine WHERE NOT undone") == 7 as Int)
  }

  /// The restaurant bill, typed at a terminal: the total is the receipt's, the shares
  /// add up to it, and settle squares who paid with three transfers.
  @Test func theRestaurantBillAtATerminal() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let terminal = try InteractiveTests.startReckon(home: home.path, environment: ["USER": "tester"], columns: 100)
    defer { terminal.close() }
    try terminal.send("x = 7" + PseudoTerminal.Key.enter)
    try terminal.expect("reckon> ")
    try terminal.send("bill ada bob cy dee" + PseudoTerminal.Key.enter)
    try terminal.expect("bill> ")
    for line in [
      "ada 18.50 pasta", "bob 22 steak", "cy 16.75 risotto", "dee 19.45 salmon", "all 14 starter", "bob cy 28 wine",
      "tax 8.875%", "tip 20%",
    ] {
      try terminal.send(line + PseudoTerminal.Key.enter)
      try terminal.expect("bill> ")
    }
    try terminal.send("show" + PseudoTerminal.Key.enter)
    let shown = InteractiveTests.lines(try terminal.expect("bill> "))
    let totalRow = try #require(shown.first { $0.hasPrefix("total ") })
    #expect(totalRow.split(separator: " ").map(String.init) == ["total", "118.70", "10.53", "23.74", "152.97"])
    let shares = ["ada", "bob", "cy", "dee"].map { name in
      shown.first { $0.hasPrefix(name + " ") }.flatMap { $0.split(separator: " ").last }.map(String.init) ?? "?"
    }
    #expect(shares == ["28.35", "50.90", "44.14", "29.58"])
    try terminal.send("total 152.97" + PseudoTerminal.Key.enter)
    #expect(InteractiveTests.lines(try terminal.expect("bill> ")).contains("The receipt's total, 152.97, matches."))
    try terminal.send("paid ada" + PseudoTerminal.Key.enter)
    try terminal.expect("bill> ")
    try terminal.send("settle" + PseudoTerminal.Key.enter)
    let settled = InteractiveTests.lines(try terminal.expect("bill> "))
    #expect(settled.contains("bob pays ada 50.90"))
    #expect(settled.contains("3 transfers: the fewest that can square 4 balances."))
    try terminal.send("quit" + PseudoTerminal.Key.enter)
    try terminal.expect("reckon> ")
    // Back in the calculator with x as it was, and the bill's total as ans.
    try terminal.send("x + ans" + PseudoTerminal.Key.enter)
    #expect(InteractiveTests.lines(try terminal.expect("reckon> ")).contains("159.97"))
  }

  /// export csv FILE writes a file that Python's csv reads back as numbers: every row adds
  /// up to its amount, every person's column to their total, and the total is the receipt's.
  @Test func anExportedCSVReadsBackInPythonAsNumbersThatAddUp() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let path = home.path + "/dinner.csv"
    let lines = [
      "bill ada bob cy", "ada 21.99 burger", "bob 17.99 salad", "all 12.50 nachos", "cy 9.25 \"soda, large\"",
      "discount 10%", "tax 8.875%", "tip 20%", "export csv \(path)", "export csv \(path)", "quit",
    ]
    let run = try ReckonProcess.run(
      [], input: Data((lines.joined(separator: "\n") + "\n").utf8), environment: Self.environment(home: home.path),
      executable: try ReckonBinary.release())
    #expect(run.stdout.contains("Wrote \(path)"))
    #expect(run.stderr.contains("there is a file there already"), "\(run.stderr)")
    let check = """
      import csv, sys
      from decimal import Decimal
      rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
      people = rows[0][5:]
      assert rows[0][:5] == ["no.", "item", "who", "amount", "currency"], rows[0]
      body, total = rows[1:-1], rows[-1]
      assert total[1] == "total", total
      for row in rows[1:]:
          assert sum(Decimal(c) for c in row[5:]) == Decimal(row[3]), row
      for i in range(5, 5 + len(people)):
          assert sum(Decimal(r[i]) for r in body) == Decimal(total[i]), i
      assert any(r[1] == '"soda, large"' for r in body)
      print(total[3])
      """
    let python = try ReckonProcess.run(["-c", check, path], executable: "/usr/bin/python3")
    #expect(python.status == 0, "\(python.stderr)")
    // 21.99 + 17.99 + 12.50 + 9.25 = 61.73; less 10% (6.17): 55.56; tax 8.875% of it 4.93;
    // tip 20% of 61.73 12.35: 72.84.
    #expect(python.stdout == "72.84\n")
  }
}
