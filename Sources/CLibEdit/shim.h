// Non-variadic wrappers over libedit for Swift.
//
// `el_set`, `el_get` and `history` are C variadic functions, which Swift cannot
// call, and Swift 6 refuses to touch C's mutable `stdin`/`stdout`/`stderr`
// globals. Every use the LineEditor target needs is wrapped here in a
// `static inline` function. The wrappers keep no state of their own.
#ifndef RECKON_CLIBEDIT_SHIM_H
#define RECKON_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/// A user function added with EL_ADDFN; returns one of the CC_* codes.
typedef unsigned char (*editshim_func_t)(EditLine *, int);
/// A prompt function for EL_PROMPT / EL_PROMPT_ESC.
typedef char *(*editshim_prompt_t)(EditLine *);
/// A character reader for EL_GETCFN: 1 = read one character, 0 = end of file, -1 = error.
typedef int (*editshim_getc_t)(EditLine *, wchar_t *);

// MARK: - Locale

/// `setlocale(LC_CTYPE, "")`; when the environment's character set is not
/// UTF-8 (e.g. LANG unset), falls back to "C.UTF-8" so that non-ASCII input
/// still works. Returns 1 when the resulting character set is UTF-8.
static inline int editshim_prepare_locale(void) {
  setlocale(LC_CTYPE, "");
  const char *codeset = nl_langinfo(CODESET);
  if (codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0)) {
    return 1;
  }
  // A Latin-1 terminal (ISO-8859-1 or -15): keep its locale (2), and Reckon reads keys and
  // writes the prompt and its output in Latin-1 (× is one byte there).
  if (codeset != NULL && (strcmp(codeset, "ISO-8859-1") == 0 || strcmp(codeset, "ISO-8859-15") == 0)) {
    return 2;
  }
  if (setlocale(LC_CTYPE, "C.UTF-8") != NULL) {
    return 1;
  }
  return 0;
}

// MARK: - EditLine

/// `el_init(prog, stdin, stdout, stderr)`.
static inline EditLine *editshim_init(const char *prog) {
  return el_init(prog, stdin, stdout, stderr);
}

static inline int editshim_set_prompt(EditLine *el, editshim_prompt_t fn) {
  return el_set(el, EL_PROMPT, fn);
}

static inline int editshim_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

static inline int editshim_set_signal(EditLine *el, int on) {
  return el_set(el, EL_SIGNAL, on);
}

static inline int editshim_set_history(EditLine *el, History *h) {
  return el_set(el, EL_HIST, history, h);
}

static inline int editshim_addfn(EditLine *el, const char *name, const char *help,
                                 editshim_func_t fn) {
  return el_set(el, EL_ADDFN, name, help, fn);
}

/// `el_set(el, EL_BIND, key, command, NULL)`.
static inline int editshim_bind(EditLine *el, const char *key, const char *command) {
  return el_set(el, EL_BIND, key, command, (const char *)NULL);
}

static inline int editshim_set_getcfn(EditLine *el, editshim_getc_t fn) {
  return el_set(el, EL_GETCFN, fn);
}

static inline int editshim_set_clientdata(EditLine *el, void *data) {
  return el_set(el, EL_CLIENTDATA, data);
}

static inline void *editshim_get_clientdata(EditLine *el) {
  void *data = NULL;
  if (el_get(el, EL_CLIENTDATA, &data) != 0) {
    return NULL;
  }
  return data;
}

/// Redraws the prompt and the line.
static inline int editshim_refresh(EditLine *el) {
  return el_set(el, EL_REFRESH);
}

/// 1 = put the terminal in editing (raw) mode, 0 = restore it.
static inline int editshim_prep_term(EditLine *el, int on) {
  return el_set(el, EL_PREP_TERM, on);
}

/// Terminal width as libedit knows it (termcap "co"); 0 when unknown.
static inline int editshim_columns(EditLine *el) {
  int columns = 0;
  if (el_get(el, EL_GETTC, "co", &columns, (void *)NULL) != 0) {
    return 0;
  }
  return columns;
}

/// Writes text to libedit's output stream and flushes it.
static inline void editshim_write(EditLine *el, const char *text) {
  FILE *out = NULL;
  if (el_get(el, EL_GETFP, 1, &out) != 0 || out == NULL) {
    out = stdout;
  }
  fputs(text, out);
  fflush(out);
}

/// Flushes C's stdout (e.g. before reading a line).
static inline void editshim_flush_stdout(void) {
  fflush(stdout);
}

// MARK: - History

static inline History *editshim_history_init(void) {
  return history_init();
}

static inline int editshim_history_setsize(History *h, int size) {
  HistEvent ev;
  return history(h, &ev, H_SETSIZE, size);
}

static inline int editshim_history_setunique(History *h, int unique) {
  HistEvent ev;
  return history(h, &ev, H_SETUNIQUE, unique);
}

/// Returns the number of entries in the file (more than the history keeps, when the file
/// has more than its size), or -1.
static inline int editshim_history_load(History *h, const char *path) {
  HistEvent ev;
  return history(h, &ev, H_LOAD, path);
}

static inline int editshim_history_enter(History *h, const char *line) {
  HistEvent ev;
  return history(h, &ev, H_ENTER, line);
}

/// The newest entry, or NULL when there is none.
static inline const char *editshim_history_newest(History *h) {
  HistEvent ev;
  if (history(h, &ev, H_FIRST) != 0) {
    return NULL;
  }
  return ev.str;
}

/// Number of entries, or -1.
static inline int editshim_history_count(History *h) {
  HistEvent ev;
  if (history(h, &ev, H_GETSIZE) != 0) {
    return -1;
  }
  return ev.num;
}

#endif
