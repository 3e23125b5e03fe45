import Testing

@testable import ReckonSession

/// Replays every transcript in Transcripts/ through a fresh session and compares each answer.
@Suite struct TranscriptTests {
  @Test(arguments: Transcript.names)
  func replays(_ name: String) throws {
    let transcript = try Transcript.load(name)
    #expect(!transcript.steps.isEmpty)
    var session = testSession()
    for step in transcript.steps {
      let got = plain(session.handle(step.input))
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
