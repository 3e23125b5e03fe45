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

// The same for scalars' ages (`Unicode.Scalar.Properties.age`: 14 KB of tables) and scripts
// (the `_script` and `_scriptExtensions` that only Swift's regular expressions read: 10 KB),
// which Reckon never asks for either. An age of UINT16_MAX is "none", as for an unassigned
// scalar; a script is number 0, with no extensions (never asked for: any would do).

uint16_t __wrap__swift_stdlib_getAge(uint32_t scalar) {
  (void)scalar;
  return UINT16_MAX;
}

uint8_t __wrap__swift_stdlib_getScript(uint32_t scalar) {
  (void)scalar;
  return 0;
}

const uint8_t *__wrap__swift_stdlib_getScriptExtensions(uint32_t scalar, uint8_t *count) {
  (void)scalar;
  if (count) *count = 0;
  return NULL;
}
