#include "CArguments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Swift's CommandLine.arguments asks the runtime for argc and argv through
// _swift_stdlib_getUnsafeArgvArgc. On Linux the runtime's own version (CommandLine.cpp in
// libswiftCore) finds them with a static constructor that reads /proc/self/maps line by line
// with sscanf to locate the stack and walks back from `environ`, at every start of every
// program, whether it looks at its arguments or not: about 115,000 instructions and 0.13 ms
// of reckon's 1.4 ms start-up on the development machine, most of it the kernel writing out
// the process's memory map.
//
// glibc calls an executable's constructors with argc, argv and envp, so this one simply keeps
// them. Defining the function here means the static linker takes it from this object and
// never pulls CommandLine.cpp's object (and its constructor) out of libswiftCore.a: the
// function is the only thing of that object the standard library uses. (If a later Swift
// needed something else of it, the link would fail on a duplicate symbol rather than go
// wrong quietly.) With a shared libswiftCore (debug builds, tests) this definition may or may
// not be the one used; both give the same arguments.

static int savedCount;
static char **savedArguments;

#ifdef __GLIBC__
// Priority 101: before any other constructor of the program, in case one asks for the
// arguments. (Only glibc passes them to constructors: musl calls them with none, so there the
// arguments come from /proc/self/cmdline below.)
__attribute__((constructor(101))) static void reckon_save_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  savedCount = argc;
  savedArguments = argv;
}
#endif

// Only if something asked before the constructor ran (or there is no such constructor): the
// arguments as /proc/self/cmdline has them (NUL-separated), read once and kept.
static void reckon_read_arguments(void) {
  static char *none[] = {0};
  savedCount = 0;
  savedArguments = none;
  FILE *file = fopen("/proc/self/cmdline", "rb");
  if (!file) return;
  char *text = NULL;
  size_t length = 0, capacity = 0;
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) {
    if (length + got + 1 > capacity) {
      capacity = (length + got + 1) * 2;
      char *grown = realloc(text, capacity);
      if (!grown) {
        free(text);
        fclose(file);
        return;
      }
      text = grown;
    }
    memcpy(text + length, chunk, got);
    length += got;
  }
  fclose(file);
  if (!text) return;
  text[length] = 0;
  int count = 0;
  for (size_t i = 0; i < length; i++)
    if (text[i] == 0) count++;
  char **arguments = calloc((size_t)count + 1, sizeof(char *));
  if (!arguments) {
    free(text);
    return;
  }
  size_t start = 0;
  for (int n = 0; n < count; n++) {
    arguments[n] = text + start;
    start += strlen(text + start) + 1;
  }
  savedCount = count;
  savedArguments = arguments;
}

// The runtime's declaration: SWIFT_CC(swift) char **_swift_stdlib_getUnsafeArgvArgc(int *),
// which the standard library calls through @_silgen_name, with Swift's calling convention.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  if (!savedArguments) reckon_read_arguments();
  *outArgLen = savedCount;
  return savedArguments;
}
