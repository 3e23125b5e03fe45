import Synchronization

/// A name worked out once, when it is first asked for (the session's profile: the login
/// name, which may need a lookup in the password database).
final class LazyName: Sendable {
  private let make: @Sendable () -> String
  private let value: Mutex<String?>

  init(_ value: String) {
    make = { value }
    self.value = Mutex(value)
  }

  init(_ make: @escaping @Sendable () -> String) {
    self.make = make
    value = Mutex(nil)
  }

  var name: String {
    value.withLock { value in
      if let value { return value }
      let made = make()
      value = made
      return made
    }
  }
}
