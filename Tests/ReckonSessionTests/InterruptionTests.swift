import ReckonCore
import Testing

@testable import ReckonSession

/// A calculation stopped by Ctrl-C changes nothing: not the variable it was assigning, not
/// the last result, not the memory.
@Suite struct SessionInterruptionTests {
  @Test func anInterruptedLineChangesNothing() {
    var session = testSession()
    _ = session.handle("x = 6*7")
    _ = session.handle("m+ 5")
    let before = (session.state.environment, session.state.memory)
    session.state.interruption = Interruption { true }
    for line in ["x = 25000!", "y = 2^100", "ans * 2", "m+ 3!", "tip 80 15%"] {
      let reply = session.handle(line)
      #expect(reply.failed, "\(line)")
      #expect(plain(reply).joined().contains("interrupted (Ctrl-C)"), "\(line)")
    }
    #expect(session.state.environment == before.0)
    #expect(session.state.memory == before.1)
    session.state.interruption = .never
    #expect(plain(session.handle("x + ans")) == ["84"])
  }
}
