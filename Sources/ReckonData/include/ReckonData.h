// The content built into the binary: data files in this folder, embedded byte for byte by
// C23's #embed, so an installed reckon needs no files beside it.
#ifndef RECKON_DATA_H
#define RECKON_DATA_H

/// The built-in trivia bank (questions.txt): star-separated, UTF-8, with a header line.
const unsigned char *reckon_data_questions(void);
unsigned long reckon_data_questions_size(void);

#endif
