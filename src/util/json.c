/*
 * The JSON reader behind the database: a recursive-descent parser that
 * builds a tree of oclblas__json nodes. Strict, so that a file the library
 * accepts means the same to any JSON tool: no comments, no trailing commas,
 * nothing after the document (a NUL byte included: the parser sees the
 * whole length), strings of valid UTF-8 without U+0000 (which would cut a
 * name short), no member name twice in an object (tools differ on which
 * one wins). Every refusal names its cause and line.
 */
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct {
    const char *s;
    const char *start;
    const char *end; /* *end is NUL; a NUL before it is refused */
    char *err;
    size_t err_len;
    int failed;
} parser;

static void fail(parser *p, const char *what)
{
    if (p->failed)
        return;
    p->failed = 1;
    int line = 1;
    for (const char *c = p->start; c < p->s; ++c)
        line += *c == '\n';
    if (p->err && p->err_len)
        snprintf(p->err, p->err_len, "line %d: %s", line, what);
}

/* What is wrong at p->s when the grammar wanted something else there. */
static void fail_here(parser *p, const char *what)
{
    if (*p->s == '\0')
        fail(p, p->s < p->end ? "a NUL byte (the file is not JSON text)" : "unexpected end of input");
    else
        fail(p, what);
}

static void skip_ws(parser *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
        ++p->s;
}

static oclblas__json *node(parser *p, oclblas__json_type t)
{
    oclblas__json *j = calloc(1, sizeof *j);
    if (!j)
        fail(p, "out of memory");
    else
        j->type = t;
    return j;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0. The text ends with a
 * NUL, which is no continuation byte: a truncated sequence stops there. */
static int utf8_length(const unsigned char *s)
{
    const unsigned c = s[0];
    unsigned lo = 0x80, hi = 0xBF;
    int n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong below */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates above */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0; /* a continuation byte, an overlong lead (C0, C1), or F5..FF */
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; ++i)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

static size_t utf8_put(char *out, unsigned u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | u >> 6);
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | u >> 12);
        out[1] = (char)(0x80 | (u >> 6 & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | u >> 18);
    out[1] = (char)(0x80 | (u >> 12 & 0x3F));
    out[2] = (char)(0x80 | (u >> 6 & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* A \u escape at s (at the 'u'), surrogate pairs joined; 0 when it is not
 * one that names a character other than U+0000 (why says which). */
static int unicode_escape(const char **s, unsigned *out, const char **why)
{
    unsigned u;
    if (!hex4(*s + 1, &u)) {
        *why = "bad \\u escape";
        return 0;
    }
    *s += 4;
    if (u >= 0xDC00 && u <= 0xDFFF) {
        *why = "unpaired surrogate in a \\u escape";
        return 0;
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
        unsigned low;
        if ((*s)[1] != '\\' || (*s)[2] != 'u' || !hex4(*s + 3, &low) || low < 0xDC00 || low > 0xDFFF) {
            *why = "unpaired surrogate in a \\u escape";
            return 0;
        }
        *s += 6;
        u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
    }
    if (u == 0) {
        *why = "\\u0000 in a string (a NUL would cut the text short)";
        return 0;
    }
    *out = u;
    return 1;
}

static char *parse_string(parser *p)
{
    /* p->s at the opening quote. The decoded text is never longer than the
     * source: an escape of 6 (or 12) characters gives at most 3 (or 4) bytes. */
    const char *s = p->s + 1;
    size_t cap = 0;
    while (s[cap] && s[cap] != '"') {
        if (s[cap] == '\\' && s[cap + 1])
            ++cap;
        ++cap;
    }
    char *out = malloc(cap + 1);
    if (!out) {
        fail(p, "out of memory");
        return NULL;
    }
    size_t n = 0;
    const char *why = NULL;
    for (;;) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"')
            break;
        if (c < 0x20) {
            why = c                ? "control character in string"
                  : s < p->end     ? "a NUL byte in a string"
                                   : "unterminated string";
            break;
        }
        if (c >= 0x80) {
            const int len = utf8_length((const unsigned char *)s);
            if (!len) {
                why = "invalid UTF-8 in a string";
                break;
            }
            memcpy(out + n, s, (size_t)len);
            n += (size_t)len;
            s += len;
            continue;
        }
        if (c != '\\') {
            out[n++] = (char)c;
            ++s;
            continue;
        }
        ++s;
        switch (*s) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned u;
            if (!unicode_escape(&s, &u, &why))
                break;
            n += utf8_put(out + n, u);
            break;
        }
        default:
            why = "bad escape in string";
            break;
        }
        if (why)
            break;
        ++s;
    }
    if (why) {
        p->s = s;
        fail(p, why);
        free(out);
        return NULL;
    }
    out[n] = '\0';
    p->s = s + 1;
    return out;
}

static int member_order(const void *a, const void *b)
{
    const oclblas__json *x = *(const oclblas__json *const *)a, *y = *(const oclblas__json *const *)b;
    const int c = strcmp(x->key, y->key);
    return c ? c : (x->offset > y->offset) - (x->offset < y->offset);
}

/* Refuses an object that names a member twice, at the second name's line.
 * Sorting keeps this O(n log n) for objects of any size. */
static int unique_members(parser *p, oclblas__json *obj, size_t count)
{
    if (count < 2)
        return 1;
    const oclblas__json **m = malloc(count * sizeof *m);
    if (!m) {
        fail(p, "out of memory");
        return 0;
    }
    size_t i = 0;
    for (const oclblas__json *c = obj->child; c; c = c->next)
        m[i++] = c;
    qsort(m, count, sizeof *m, member_order);
    const oclblas__json *dup = NULL;
    for (i = 1; i < count; ++i)
        if (strcmp(m[i - 1]->key, m[i]->key) == 0 && (!dup || m[i]->offset < dup->offset))
            dup = m[i];
    if (dup) {
        char what[120];
        snprintf(what, sizeof what, "member \"%.60s\" given twice in one object", dup->key);
        p->s = p->start + dup->offset;
        fail(p, what);
    }
    free(m);
    return !dup;
}

static oclblas__json *parse_value(parser *p, int depth);

static oclblas__json *parse_container(parser *p, int depth, int is_object)
{
    oclblas__json *j = node(p, is_object ? OCLBLAS__JSON_OBJECT : OCLBLAS__JSON_ARRAY);
    if (!j)
        return NULL;
    const char close = is_object ? '}' : ']';
    ++p->s;
    skip_ws(p);
    if (*p->s == close) {
        ++p->s;
        return j;
    }
    oclblas__json **tail = &j->child;
    size_t count = 0;
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        const size_t offset = (size_t)(p->s - p->start);
        if (is_object) {
            if (*p->s != '"') {
                fail_here(p, "expected a member name");
                break;
            }
            key = parse_string(p);
            if (!key)
                break;
            skip_ws(p);
            if (*p->s != ':') {
                free(key);
                fail_here(p, "expected ':'");
                break;
            }
            ++p->s;
        }
        oclblas__json *v = parse_value(p, depth + 1);
        if (!v) {
            free(key);
            break;
        }
        v->key = key;
        v->offset = offset;
        *tail = v;
        tail = &v->next;
        ++count;
        skip_ws(p);
        if (*p->s == ',') {
            ++p->s;
            continue;
        }
        if (*p->s == close) {
            ++p->s;
            if (is_object && !unique_members(p, j, count))
                break;
            return j;
        }
        fail_here(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    oclblas__json_free(j);
    return NULL;
}

/* Past one or more decimal digits at s; NULL when there is none. */
static const char *digits(const char *s)
{
    if (!(*s >= '0' && *s <= '9'))
        return NULL;
    while (*s >= '0' && *s <= '9')
        ++s;
    return s;
}

static oclblas__json *parse_number(parser *p)
{
    const char *s = p->s;
    if (*s == '-')
        ++s;
    if (*s == '0')
        ++s;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            ++s;
    else {
        fail(p, "bad number");
        return NULL;
    }
    if (*s == '.' && !(s = digits(s + 1))) {
        fail(p, "bad number");
        return NULL;
    }
    if (*s == 'e' || *s == 'E') {
        ++s;
        if (*s == '+' || *s == '-')
            ++s;
        if (!(s = digits(s))) {
            fail(p, "bad number");
            return NULL;
        }
    }
    oclblas__json *j = node(p, OCLBLAS__JSON_NUMBER);
    if (j)
        j->number = strtod(p->s, NULL);
    p->s = s;
    return j;
}

static oclblas__json *parse_value(parser *p, int depth)
{
    if (depth > MAX_DEPTH) {
        fail(p, "nested too deeply");
        return NULL;
    }
    skip_ws(p);
    switch (*p->s) {
    case '{': return parse_container(p, depth, 1);
    case '[': return parse_container(p, depth, 0);
    case '"': {
        char *str = parse_string(p);
        if (!str)
            return NULL;
        oclblas__json *j = node(p, OCLBLAS__JSON_STRING);
        if (!j) {
            free(str);
            return NULL;
        }
        j->string = str;
        return j;
    }
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[] = {"true", "false", "null"};
        for (int w = 0; w < 3; ++w) {
            size_t len = strlen(words[w]);
            if (strncmp(p->s, words[w], len) == 0) {
                oclblas__json *j = node(p, w == 2 ? OCLBLAS__JSON_NULL : OCLBLAS__JSON_BOOL);
                if (j)
                    j->boolean = w == 0;
                p->s += len;
                return j;
            }
        }
        fail(p, "unknown literal");
        return NULL;
    }
    default:
        if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
            return parse_number(p);
        fail_here(p, "unexpected character");
        return NULL;
    }
}

oclblas__json *oclblas__json_parse(const char *text, size_t len, char *err, size_t err_len)
{
    parser p = {text, text, text + len, err, err_len, 0};
    if (text[len] != '\0') {
        /* The caller's bug, not the input's: the scan relies on the NUL. */
        fail(&p, "the text does not end with a NUL");
        return NULL;
    }
    oclblas__json *j = parse_value(&p, 0);
    if (j) {
        skip_ws(&p);
        if (p.s != p.end) {
            fail(&p, *p.s ? "trailing characters after the document" : "a NUL byte after the document");
            oclblas__json_free(j);
            j = NULL;
        }
    }
    return j;
}

void oclblas__json_free(oclblas__json *j)
{
    while (j) {
        oclblas__json *next = j->next;
        oclblas__json_free(j->child);
        free(j->string);
        free(j->key);
        free(j);
        j = next;
    }
}

const oclblas__json *oclblas__json_get(const oclblas__json *obj, const char *key)
{
    if (!obj || obj->type != OCLBLAS__JSON_OBJECT)
        return NULL;
    for (const oclblas__json *c = obj->child; c; c = c->next)
        if (strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

size_t oclblas__json_quote(char *out, size_t len, const char *s)
{
    size_t n = 0;
    char esc[8];
    for (int i = -1;; ++i) {
        const char *piece;
        if (i < 0 || !s[i]) {
            piece = "\"";
        } else {
            const unsigned char c = (unsigned char)s[i];
            if (c == '"' || c == '\\') {
                esc[0] = '\\';
                esc[1] = (char)c;
                esc[2] = '\0';
            } else if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", c);
            } else {
                esc[0] = (char)c;
                esc[1] = '\0';
            }
            piece = esc;
        }
        for (; *piece; ++piece, ++n)
            if (n + 1 < len)
                out[n] = *piece;
        if (i >= 0 && !s[i])
            break;
    }
    if (len)
        out[n < len ? n : len - 1] = '\0';
    return n;
}
