#ifndef RECKON_CARGUMENTS_H
#define RECKON_CARGUMENTS_H

/// Nothing here to call: Arguments.c hands the Swift runtime the command line itself, in place
/// of the runtime's own search for it (see that file).

#endif
