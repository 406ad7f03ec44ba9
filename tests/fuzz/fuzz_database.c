/*
 * libFuzzer target: the database parser (oclblas__db_parse) on arbitrary
 * bytes, as OCLBLAS_DATABASE and oclblas_database_load hand it a file. Past
 * "no crash, no leak, no undefined behaviour" it checks what a user of an
 * accepted file relies on, with checks of its own rather than the parser's
 * code: every parameter set of an accepted entry is legal, and its strings
 * are valid UTF-8 without a NUL inside their field; a refusal always comes
 * with a message.
 */
#include "db/db.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An independent UTF-8 decoder: code points in range, shortest form, no surrogates. */
static int valid_utf8(const char *s, size_t field_len)
{
    const unsigned char *p = (const unsigned char *)s;
    const size_t len = strlen(s);
    if (len >= field_len)
        return 0;
    for (size_t i = 0; i < len;) {
        unsigned c = p[i], need, cp;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0)
            need = 1, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0)
            need = 2, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0)
            need = 3, cp = c & 0x07;
        else
            return 0;
        if (i + need >= len)
            return 0;
        for (unsigned k = 1; k <= need; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        static const unsigned min[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += need + 1;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > OCLBLAS__DB_MAX_FILE)
        return 0; /* the reader refuses these before the parser sees them */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    oclblas__db_entry *es = NULL;
    size_t n = 0;
    char err[512] = "";
    const oclblas_status st = oclblas__db_parse(text, size, "fuzz.json", &es, &n, err, sizeof err);
    if (st == OCLBLAS_SUCCESS) {
        if (n && !es)
            abort();
        for (size_t i = 0; i < n; ++i) {
            const oclblas__db_entry *e = &es[i];
            if (!valid_utf8(e->vendor, sizeof e->vendor) || !valid_utf8(e->type, sizeof e->type) ||
                !valid_utf8(e->arch, sizeof e->arch) || !valid_utf8(e->name, sizeof e->name) ||
                !valid_utf8(e->tool, sizeof e->tool) || !valid_utf8(e->driver, sizeof e->driver) ||
                !valid_utf8(e->date, sizeof e->date) || !valid_utf8(e->sizes, sizeof e->sizes))
                abort();
            for (int k = 0; k < OCLBLAS__K_COUNT; ++k) {
                if (!(e->has & (1u << k)))
                    continue;
                oclblas__params p;
                memcpy(p.v, e->values[k], sizeof p.v);
                if (!oclblas__params_legal(k, &p, NULL, NULL))
                    abort();
            }
        }
    } else if (!err[0] || es || n) {
        abort();
    }
    free(es);
    free(text);
    return 0;
}
