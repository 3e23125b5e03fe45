#include <stddef.h>
#include <stdint.h>

// Unicode scalars' names (`Unicode.Scalar.Properties.name` and `nameAlias`): Reckon never asks
// for them, but the standard library's Swift code is linked as one section, so its `name`
// getter keeps libswiftCore's _swift_stdlib_getScalarName, and with it 530 KB of name tables,
// in every static binary. The release link sends the calls of the two functions to these (the
// linker's --wrap: Package.swift), and the originals and their tables, no longer referenced,
// are dropped by --gc-sections. A scalar then has no name, as one unassigned has. LinkageTests checks that
// the tables are gone and that nothing else of the binary changed size by it.

intptr_t __wrap__swift_stdlib_getScalarName(uint32_t scalar, uint8_t *buffer, intptr_t capacity) {
  (void)scalar;
  (void)buffer;
  (void)capacity;
  return 0;
}

const char *__wrap__swift_stdlib_getNameAlias(uint32_t scalar) {
  (void)scalar;
  return NULL;
}
