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
