import CLibFuzzer
import Glibc
import ReckonFuzzTargets

/// libFuzzer's loop, on a thread with a 512 MiB stack: reckon runs its sessions on a 64 MiB
/// one (LargeStack), and AddressSanitizer's frames are several times larger than a release
/// build's, so the parser's 1,000 levels of nesting need more than the main thread's 8 MiB.
/// (Outside main.swift, so that nothing here is the main actor's.)
enum FuzzDriver {
  nonisolated(unsafe) static var target: FuzzTarget?

  static func run(_ target: FuzzTarget) -> Never {
    FuzzDriver.target = target
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 512 << 20)
    var thread = pthread_t()
    let started = pthread_create(&thread, &attributes, { _ in FuzzDriver.loop() }, nil)
    guard started == 0 else {
      let message = Array("reckon-fuzz: could not start the fuzzing thread\n".utf8)
      _ = write(2, message, message.count)
      exit(2)
    }
    pthread_join(thread, nil)
    exit(0)
  }

  static func loop() -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(
      LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzDriver.target!.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
      })
  }
}
