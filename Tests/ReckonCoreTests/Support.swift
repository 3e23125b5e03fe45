import ReckonCore

/// Evaluates one line in a fresh environment and returns what Reckon would print, or
/// `error@COLUMN: message` for an error.
func calculate(_ input: String, digits: Int = 10, env: Environment = Environment()) -> String {
  do {
    let expr = try Parser.parseExpression(input)
    let value = try Evaluator().evaluate(expr, in: env)
    return NumberFormatter(digits: digits).format(value)
  } catch {
    return "error@\(error.column): \(error.message)"
  }
}

/// Like `calculate`, but the value in full (`full`): every digit, or a refusal's reason.
func calculateFull(_ input: String) -> String {
  do {
    let value = try Evaluator().evaluate(Parser.parseExpression(input), in: Environment())
    switch NumberFormatter().full(value) {
    case .text(let text): return text
    case .refused(let why, _): return "refused: \(why)"
    }
  } catch {
    return "error@\(error.column): \(error.message)"
  }
}

#if canImport(Foundation)
  import Foundation

  /// Runs `body` on a thread with the same large stack the executable gives the session, for
  /// inputs nested up to the parser's limit.
  final class ResultBox<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
  }

  func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let thread = Thread {
      box.value = body()
      box.done.signal()
    }
    thread.stackSize = 64 << 20
    thread.start()
    box.done.wait()
    return box.value!
  }
#endif
