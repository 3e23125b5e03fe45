#ifndef RECKON_CGMP_SHIM_H
#define RECKON_CGMP_SHIM_H

#include <gmp.h>
#include <mpfr.h>

// GMP and MPFR define some of their functions only as macros, which Swift does not import:
// each is wrapped here in a static inline function of the same meaning.

static inline int reckon_mpz_sgn(mpz_srcptr z) { return mpz_sgn(z); }
static inline int reckon_mpz_odd_p(mpz_srcptr z) { return mpz_odd_p(z); }
static inline int reckon_mpq_sgn(mpq_srcptr q) { return mpq_sgn(q); }
static inline mpz_ptr reckon_mpq_numref(mpq_ptr q) { return mpq_numref(q); }
static inline mpz_ptr reckon_mpq_denref(mpq_ptr q) { return mpq_denref(q); }
static inline mpz_srcptr reckon_mpq_numref_const(mpq_srcptr q) { return mpq_numref(q); }
static inline mpz_srcptr reckon_mpq_denref_const(mpq_srcptr q) { return mpq_denref(q); }
static inline int reckon_mpfr_sgn(mpfr_srcptr x) { return mpfr_sgn(x); }

// The largest exponent range MPFR allows, so that 9^9^9 (about 2^1.2e9) is a number, not
// an overflow. MPFR keeps the range per thread: called before every number is made, and
// cheap once set.
static inline void reckon_mpfr_widen_exponents(void) {
  if (mpfr_get_emax() != mpfr_get_emax_max()) mpfr_set_emax(mpfr_get_emax_max());
  if (mpfr_get_emin() != mpfr_get_emin_min()) mpfr_set_emin(mpfr_get_emin_min());
}

#endif
