import Synchronization

/// A name worked out once, when it is first asked for (the session's profile: the login
/// name, which may need a lookup in the password database).
final class LazyName: Sendable {
  private let state: Mutex<(value: String?, make: (@Sendable () -> String)?)>

  init(_ value: String) { state = Mutex((value, nil)) }

  init(_ make: @escaping @Sendable () -> String) { state = Mutex((nil, make)) }

  var value: String {
    state.withLock { state in
      if let value = state.value { return value }
      let value = state.make?() ?? "default"
      state = (value, nil)
      return value
    }
  }
}
