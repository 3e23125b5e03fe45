// The libFuzzer driver (built only by fuzz/run, with -sanitize=fuzzer,address).
// RECKON_FUZZ_TARGET names the target, one of FuzzTarget.all.
import CLibFuzzer
import Glibc
import ReckonFuzzTargets

let name = getenv("RECKON_FUZZ_TARGET").map { String(cString: $0) } ?? ""
guard let found = FuzzTarget.named(name) else {
  let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
  let message = Array("reckon-fuzz: set RECKON_FUZZ_TARGET to one of: \(names)\n".utf8)
  _ = write(2, message, message.count)
  exit(2)
}
let target = found

nonisolated(unsafe) var argc = CommandLine.argc
nonisolated(unsafe) var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
nonisolated(unsafe) var chosen = target

// On a thread with a 512 MiB stack: reckon runs its sessions on a 64 MiB one (LargeStack), and
// AddressSanitizer's frames are several times larger than a release build's, so the parser's
// 1,000 levels of nesting need more than the main thread's 8 MiB here.
var attributes = pthread_attr_t()
pthread_attr_init(&attributes)
pthread_attr_setstacksize(&attributes, 512 << 20)
var thread = pthread_t()
let started = pthread_create(
  &thread, &attributes,
  { _ in
    exit(
      LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        chosen.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
      })
  }, nil)
guard started == 0 else {
  let message = Array("reckon-fuzz: could not start the fuzzing thread\n".utf8)
  _ = write(2, message, message.count)
  exit(2)
}
pthread_join(thread, nil)
