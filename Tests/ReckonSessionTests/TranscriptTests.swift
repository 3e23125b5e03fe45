import Testing

@testable import ReckonSession

/// Replays every transcript in Transcripts/ through a fresh session and compares each answer.
@Suite struct TranscriptTests {
  @Test(arguments: Transcript.names)
  func replays(_ name: String) throws {
    let transcript = try Transcript.load(name)
    #expect(!transcript.steps.isEmpty)
    let clock = ManualClock()
    var session = Session(clock: clock, random: SeededRandom(seed: 42))
    for step in transcript.steps {
      // "> @wait 2500" moves the clock on by 2.5 s; "> @end" is the end of input (Ctrl-D).
      if step.input.hasPrefix("@wait ") {
        clock.advance(milliseconds: Int64(step.input.dropFirst(6))!)
        continue
      }
      let reply = step.input == "@end" ? session.finish() : session.handle(step.input)
      var got = plain(reply)
      // A last expected line "[prompt> ]" checks the prompt shown next.
      if let last = step.expected.last, last.hasPrefix("["), last.hasSuffix("]") { got.append("[\(session.prompt)]") }
      #expect(got == step.expected, "\(name):\(step.lineNumber): > \(step.input)")
    }
  }

  @Test func transcriptsExist() {
    #expect(Transcript.names.count >= 5)
  }
}

/// Tab completion: the candidates come from the session, for the word before the cursor.
@Suite struct CompletionTests {
  @Test(arguments: [
    ("sq", ["sqrt("]),
    ("2+sq", ["sqrt("]),
    ("(1+si", ["sin("]),
    ("m", ["m+", "m-", "max(", "mc", "min(", "mr"]),
    ("m+", ["m+"]),
    ("help t", ["tan", "tip"]),
    ("set d", ["digits"]),
    ("pri", ["price"]),
    ("2*pr", ["price"]),
    ("tip pr", ["price"]),
    ("qu", ["quit"]),
    ("2 + qu", []),
  ])
  func completes(_ text: String, _ expected: [String]) {
    var session = testSession()
    _ = session.handle("price = 12")
    #expect(session.completions(for: text) == expected, "\(text)")
  }
}
