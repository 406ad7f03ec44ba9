/*
 * A small JSON reader for database files: the whole document as a tree,
 * strict RFC 8259 syntax (and I-JSON's rules on strings and member names:
 * valid UTF-8, no U+0000, no duplicate names), errors with a line number;
 * and the one writer of JSON strings, for what the library and the tuner
 * write.
 */
#ifndef OCLBLAS_JSON_H
#define OCLBLAS_JSON_H

#include <stddef.h>

typedef enum { OCLBLAS__JSON_NULL, OCLBLAS__JSON_BOOL, OCLBLAS__JSON_NUMBER, OCLBLAS__JSON_STRING,
               OCLBLAS__JSON_ARRAY, OCLBLAS__JSON_OBJECT } oclblas__json_type;

typedef struct oclblas__json {
    oclblas__json_type type;
    double number;
    int boolean;
    char *string;               /* STRING */
    char *key;                  /* set on members of an object */
    size_t offset;              /* where the member (or element) starts in the text */
    struct oclblas__json *child; /* first element or member */
    struct oclblas__json *next;  /* next sibling */
} oclblas__json;

/* Parses the len bytes of text, which must be followed by a NUL (a NUL
 * inside is refused). NULL on error (message in err) or when out of memory
 * (err says so). */
oclblas__json *oclblas__json_parse(const char *text, size_t len, char *err, size_t err_len);
void oclblas__json_free(oclblas__json *j);
/* The member of an object, or NULL. */
const oclblas__json *oclblas__json_get(const oclblas__json *obj, const char *key);

/* s as a JSON string, quotes included, into out (cut to len, always
 * terminated); returns the length the whole string needs, as snprintf. */
size_t oclblas__json_quote(char *out, size_t len, const char *s);

#endif
