/*
 * The JSON reader behind the database: a recursive-descent parser that
 * builds a tree of oclblas__json nodes. Strict (no comments, no trailing
 * commas) so that a file the library accepts is accepted by any JSON tool.
 */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct {
    const char *s;
    const char *start;
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

static char *parse_string(parser *p)
{
    /* p->s at the opening quote. The decoded text is never longer than the source. */
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
    for (;;) {
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            break;
        if (c == 0 || c < 0x20) {
            p->s = s;
            fail(p, c ? "control character in string" : "unterminated string");
            free(out);
            return NULL;
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
            if (!hex4(s + 1, &u)) {
                p->s = s;
                fail(p, "bad \\u escape");
                free(out);
                return NULL;
            }
            s += 4;
            /* Names in the database are ASCII; anything else becomes '?'. */
            out[n++] = u < 0x80 ? (char)u : '?';
            break;
        }
        default:
            p->s = s;
            fail(p, "bad escape in string");
            free(out);
            return NULL;
        }
        ++s;
    }
    out[n] = '\0';
    p->s = s + 1;
    return out;
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
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (is_object) {
            if (*p->s != '"') {
                fail(p, "expected a member name");
                break;
            }
            key = parse_string(p);
            if (!key)
                break;
            skip_ws(p);
            if (*p->s != ':') {
                free(key);
                fail(p, "expected ':'");
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
        *tail = v;
        tail = &v->next;
        skip_ws(p);
        if (*p->s == ',') {
            ++p->s;
            continue;
        }
        if (*p->s == close) {
            ++p->s;
            return j;
        }
        fail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    oclblas__json_free(j);
    return NULL;
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
    if (*s == '.') {
        ++s;
        if (!(*s >= '0' && *s <= '9')) {
            fail(p, "bad number");
            return NULL;
        }
        while (*s >= '0' && *s <= '9')
            ++s;
    }
    if (*s == 'e' || *s == 'E') {
        ++s;
        if (*s == '+' || *s == '-')
            ++s;
        if (!(*s >= '0' && *s <= '9')) {
            fail(p, "bad number");
            return NULL;
        }
        while (*s >= '0' && *s <= '9')
            ++s;
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
        fail(p, *p->s ? "unexpected character" : "unexpected end of input");
        return NULL;
    }
}

oclblas__json *oclblas__json_parse(const char *text, char *err, size_t err_len)
{
    parser p = {text, text, err, err_len, 0};
    oclblas__json *j = parse_value(&p, 0);
    if (j) {
        skip_ws(&p);
        if (*p.s) {
            fail(&p, "trailing characters after the document");
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
