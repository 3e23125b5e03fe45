import Testing

@testable import ReckonSession

/// The drill's question order, over many questions with a seeded random source.
@Suite struct DrillTests {
  /// 10,000 random questions never repeat the one just asked.
  @Test func randomRoundNeverRepeatsAQuestionAtOnce() {
    var session = testSession(seed: 7)
    _ = session.handle("drill 2-9 random")
    var previous: Fact?
    for _ in 0..<10_000 {
      guard case .drill(let drill) = session.mode else {
        Issue.record("left the drill")
        return
      }
      #expect(drill.current != previous)
      previous = drill.current
      _ = session.handle(String(drill.current.answer))
    }
  }

  /// A missed fact comes back 3 to 5 questions later (never at once), until answered right.
  @Test func aMissedFactComesBackThreeToFiveQuestionsLater() {
    var session = testSession(seed: 11)
    _ = session.handle("drill 2-9 random")
    for _ in 0..<300 {
      guard case .drill(let before) = session.mode else { return }
      let missed = before.current
      let at = before.number
      _ = session.handle(String(missed.answer + 1))  // wrong
      var seenAt: Int?
      for _ in 0..<6 {
        guard case .drill(let drill) = session.mode else { return }
        if drill.current == missed && seenAt == nil { seenAt = drill.number }
        _ = session.handle(String(drill.current.answer))
      }
      #expect(seenAt.map { (3...5).contains($0 - at) } == true, "came back after \(seenAt.map { $0 - at } ?? -1)")
    }
  }

  /// Ending the input mid-drill gives the summary and returns to the calculator unchanged.
  @Test func endOfInputSummarisesAndRestoresTheCalculator() {
    var session = testSession()
    _ = session.handle("price = 12.5")
    _ = session.handle("m+ 3")
    let before = session.state.environment
    _ = session.handle("drill 7 count 20")
    _ = session.handle("14")
    let reply = session.finish()
    #expect(plain(reply).first == "Drill over: 1 right, 0 wrong (100%) in 0:00, 0.0 s a question.")
    #expect(session.prompt == "reckon> ")
    #expect(session.state.environment == before)
    #expect(session.state.memory == .exact(3))
    let doubled = session.handle("price * 2")  // not inside #expect: it mutates the session
    #expect(plain(doubled) == ["25"])
  }
}
